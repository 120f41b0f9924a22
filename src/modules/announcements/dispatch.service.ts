/**
 * Sending an announcement: resolve its audience now, queue one email per distinct address through
 * the email queue (email_log row + `email-send` job, in the same transaction; suppressed addresses
 * get a `suppressed` row and no job), record the recipients, mark it `sent`. Run by the
 * `announcement-send` job, for "send now" (status `sending`, job due at once) and for scheduled
 * ones: queueing costs a few statements per address (about 12 ms each measured on PGlite, a minute
 * for 5,000), which is a job's work, not a request's.
 */
import { eq, sql } from 'drizzle-orm';
import type { EventRow } from '../../access/resolve.js';
import type { Tx } from '../../db/client.js';
import type { Translations } from '../../db/schema/common.js';
import { events } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import type { AnnouncementVars } from '../email/announcement-template.js';
import { queueEmail } from '../email/email.service.js';
import { emailLanguage } from '../languages/languages.service.js';
import { offeredOf, textFor } from '../languages/translations.js';
import { insertRecipients, type NewRecipient } from './announcements.repo.js';
import type { Audience } from './announcements.schemas.js';
import { type AudienceMember, resolveAudience } from './audience.repo.js';
import { fillPlaceholders, placeholderValues } from './placeholders.js';

/**
 * The email variables for one recipient: in their language (their choice when the event offers
 * it, else the event's default; a guardian's own, not the child's), with that language's subject
 * and body when the organiser wrote them, else the default-language ones (`text_language` set, so
 * the email carries the note); placeholders filled in.
 */
export function varsFor(
  event: Pick<EventRow, 'name' | 'supportEmail' | 'defaultLanguage' | 'languages'>,
  message: { subject: string; body: string; translations?: Translations<'subject' | 'body'> | null },
  member: AudienceMember,
): AnnouncementVars {
  const offered = offeredOf(event);
  const lang = emailLanguage(offered, member.language);
  const own = { subject: message.subject, body: message.body };
  const shown = textFor(lang, offered.default_language, own, message.translations, ['subject', 'body']);
  const values = placeholderValues(event, member, lang);
  return {
    event_name: event.name,
    support_email: event.supportEmail ?? null,
    subject: fillPlaceholders(shown.text.subject, values),
    body: fillPlaceholders(shown.text.body, values),
    kind: member.kind,
    participant_names: values.participant_names,
    lang,
    default_language: offered.default_language,
    text_language: shown.fallback ? shown.language : null,
  };
}

export type Dispatchable = {
  id: number;
  subject: string;
  body: string;
  audience: Audience;
  statuses: string[];
  translations: Translations<'subject' | 'body'> | null;
};

/** Queues the emails of `a` inside `tx` and marks it sent; returns the number of recipients. */
export async function dispatchAnnouncement(
  deps: Deps,
  tx: Tx,
  event: EventRow,
  a: Dispatchable,
): Promise<number> {
  const members = await resolveAudience(tx, event.id, a.audience, a.statuses);
  const rows: NewRecipient[] = [];
  for (const member of members) {
    const logId = await queueEmail(deps, tx, {
      to: member.email,
      template: 'announcement',
      vars: varsFor(event, a, member),
      ...(event.supportEmail ? { replyTo: event.supportEmail } : {}),
      eventId: event.id,
    });
    rows.push({ ...member, email_log_id: logId });
  }
  await insertRecipients(tx, a.id, rows);
  await tx.execute(
    sql`UPDATE announcements SET status = 'sent', sent_at = now(), recipient_count = ${rows.length},
               updated_at = now() WHERE id = ${a.id}`,
  );
  return rows.length;
}

/**
 * Job handler (`announcement-send`): sends the announcement if it is still `sending` or `scheduled`
 * (locked, so two workers never both send it); a cancelled or already sent one is left alone.
 */
export async function sendAnnouncementJob(deps: Deps, data: { announcement_id: number }): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const res = await tx.execute<Dispatchable & { event_id: number }>(
      sql`SELECT id, subject, body, translations, audience, statuses, event_id FROM announcements
           WHERE id = ${data.announcement_id} AND status IN ('sending', 'scheduled') FOR UPDATE`,
    );
    const row = res.rows[0];
    if (!row) return;
    const [event] = await tx.select().from(events).where(eq(events.id, row.event_id));
    if (!event) return;
    await dispatchAnnouncement(deps, tx, event, row);
  });
}
