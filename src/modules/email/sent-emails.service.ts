/**
 * What Muster emailed for one event (docs/email.md "Emails sent"): the event's `email_log` rows of
 * the kinds in SENT_KINDS (invitations, parent or guardian links, reminders, announcements, team
 * invitations; never sign-in codes, which carry no event and are not event mail), newest first,
 * each with its delivery state read live from the log (queued | sent | delivered | opened |
 * bounced | failed | suppressed) and, for an announcement, the announcement it belongs to.
 * Action `email_log.event` (event admins, series roles, global admins: the people who see each
 * announcement's recipients). Keyset-paged by id (`before`), 50 a page.
 *
 * Errors: 422 for an unknown `kind` or `state` (the message names the field as the page labels it).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { EventCtx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import { isOneOf } from '../../lib/narrow.js';
import { isoTimestamp } from '../../lib/time.js';

/** The email_log templates listed, in the order the page offers them as kinds. */
export const SENT_KINDS = [
  'invitation',
  'guardian_invitation',
  'registration_reminder',
  'announcement',
  'staff_invitation',
] as const;
export type SentKind = (typeof SENT_KINDS)[number];

/** The delivery states of an email_log row (docs/email.md, docs/webhooks.md "Email provider"). */
export const SENT_STATES = [
  'queued',
  'sent',
  'delivered',
  'opened',
  'bounced',
  'failed',
  'suppressed',
] as const;

export interface SentEmailsInput {
  kind?: string;
  state?: string;
  /** Part of the recipient's address, case-insensitive (LIKE wildcards taken literally). */
  to?: string;
  /** The id of the last row of the previous page. */
  before?: number;
  limit?: number;
}

export interface SentEmail {
  id: number;
  to_email: string;
  kind: SentKind;
  subject: string;
  state: (typeof SENT_STATES)[number];
  /** The bounce reason (bounced) or the last sending error (failed), else null. */
  error: string | null;
  /** ISO 8601 instants: queued, handed to the SMTP server, and the provider's events. */
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  opened_at: string | null;
  bounced_at: string | null;
  announcement_id: number | null;
}

export interface SentEmailsPage {
  emails: SentEmail[];
  /** How many rows match the filters (every page). */
  total: number;
  /** The `before` of the next (older) page, or null on the last one. */
  next_before: number | null;
}

function filters(ctx: EventCtx, input: SentEmailsInput): SQL[] {
  const where: SQL[] = [
    sql`l.event_id = ${ctx.access.event.id}`,
    sql`l.template IN (${sql.join(
      SENT_KINDS.map((k) => sql`${k}`),
      sql`, `,
    )})`,
  ];
  if (input.kind) {
    if (!isOneOf(SENT_KINDS, input.kind))
      throw unprocessable('Kind of email: choose one from the list', { field: 'kind' });
    where.push(sql`l.template = ${input.kind}`);
  }
  if (input.state) {
    if (!isOneOf(SENT_STATES, input.state))
      throw unprocessable('State: choose one from the list', { field: 'state' });
    where.push(sql`l.status = ${input.state}`);
  }
  const to = input.to?.trim().toLowerCase();
  if (to) where.push(sql`strpos(lower(l.to_email), ${to}) > 0`);
  return where;
}

/** One page of the event's sent emails (see the file comment). */
export async function listSentEmails(ctx: EventCtx, input: SentEmailsInput): Promise<SentEmailsPage> {
  const limit = input.limit ?? 50;
  const where = filters(ctx, input);
  const page = input.before ? [...where, sql`l.id < ${input.before}`] : where;
  const rows = await ctx.db.execute<{
    id: number;
    to_email: string;
    template: SentKind;
    subject: string;
    status: SentEmail['state'];
    error: string | null;
    created_at: string;
    sent_at: string | null;
    delivered_at: string | null;
    opened_at: string | null;
    bounced_at: string | null;
    announcement_id: number | null;
  }>(sql`
    SELECT l.id, l.to_email, l.template, l.subject, l.status, l.error, l.created_at, l.sent_at,
           l.delivered_at, l.opened_at, l.bounced_at,
           (SELECT ar.announcement_id FROM announcement_recipients ar
             WHERE ar.email_log_id = l.id LIMIT 1) AS announcement_id
      FROM email_log l
     WHERE ${sql.join(page, sql` AND `)}
     ORDER BY l.id DESC
     LIMIT ${limit + 1}`);
  const count = await ctx.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM email_log l WHERE ${sql.join(where, sql` AND `)}`,
  );
  const shown = rows.rows.slice(0, limit);
  return {
    emails: shown.map((r) => ({
      id: Number(r.id),
      to_email: r.to_email,
      kind: r.template,
      subject: r.subject,
      state: r.status,
      error: r.status === 'bounced' || r.status === 'failed' ? r.error : null,
      created_at: isoTimestamp(r.created_at)!,
      sent_at: isoTimestamp(r.sent_at),
      delivered_at: isoTimestamp(r.delivered_at),
      opened_at: isoTimestamp(r.opened_at),
      bounced_at: isoTimestamp(r.bounced_at),
      announcement_id: r.announcement_id === null ? null : Number(r.announcement_id),
    })),
    total: Number(count.rows[0]?.n ?? 0),
    next_before: rows.rows.length > limit ? Number(shown[shown.length - 1]!.id) : null,
  };
}
