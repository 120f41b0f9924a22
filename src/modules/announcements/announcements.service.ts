/**
 * Email announcements (docs/organiser-api.md "Announcements"):
 * compose a message to an audience of the event, preview it with the first recipient's values,
 * send it now or schedule it, and read the delivery state of every recipient. Who: event admins,
 * series roles of the event's series and global admins (`announcements.manage`).
 */
import { sql } from 'drizzle-orm';
import { one } from '../../db/rows.js';
import type { UserEventCtx } from '../../deps.js';
import { conflict, notFound, unprocessable } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { renderTemplate } from '../email/templates.js';
import type { EventLanguages } from '../languages/languages.service.js';
import { checkTranslations, offeredOf, type TextTranslations } from '../languages/translations.js';
import { selectAnnouncements, selectRecipients } from './announcements.repo.js';
import {
  type AnnouncementJson,
  type ComposeInput,
  DEFAULT_STATUSES,
  MAX_BODY,
  MAX_SUBJECT,
  type PreviewJson,
  type RecipientJson,
} from './announcements.schemas.js';
import { countAudience, resolveAudience } from './audience.repo.js';
import { varsFor } from './dispatch.service.js';
import { checkPlaceholders } from './placeholders.js';

export const NOT_FOUND = 'Announcement not found';
export const NO_RECIPIENTS = 'Nobody in this audience has an email address';
export const NOT_SCHEDULED = 'Only a scheduled announcement can be cancelled';
const YEAR_MS = 366 * 24 * 3600 * 1000;

interface Composed {
  subject: string;
  body: string;
  /** Subject and body in other offered languages (checked like the default ones). */
  translations: TextTranslations<'subject' | 'body'>;
  audience: ComposeInput['audience'];
  statuses: string[];
  sendAt: Date | null;
}

/** Trimmed subject and body, or 422 with a sentence naming the first problem. */
function checkText(input: { subject: string; body: string }): { subject: string; body: string } {
  const subject = input.subject.trim();
  const body = input.body.trim();
  if (subject === '') throw unprocessable('Subject cannot be blank');
  if (subject.length > MAX_SUBJECT) throw unprocessable(`Subject must be at most ${MAX_SUBJECT} characters`);
  if (/[\r\n]/.test(subject)) throw unprocessable('Subject must be one line');
  if (body === '') throw unprocessable('Message cannot be blank');
  if (body.length > MAX_BODY) throw unprocessable(`Message must be at most ${MAX_BODY} characters`);
  checkPlaceholders(subject, 'Subject');
  checkPlaceholders(body, 'Message');
  return { subject, body };
}

const ENGLISH_ONLY: EventLanguages = { default_language: 'en', languages: ['en'] };

/**
 * Trims and checks a composed message: 422 with a sentence per problem (first one wins); a
 * translation's prefixed `translations.<code>: `, also for a language `offered` lacks or its default.
 */
export function compose(input: ComposeInput, offered = ENGLISH_ONLY, now = new Date()): Composed {
  const { subject, body } = checkText(input);
  const translations = checkTranslations(input.translations ?? {}, offered, checkText);
  const sendAt = input.send_at ? new Date(input.send_at) : null;
  if (sendAt && sendAt.getTime() <= now.getTime()) throw unprocessable('send_at must be in the future');
  if (sendAt && sendAt.getTime() > now.getTime() + YEAR_MS)
    throw unprocessable('send_at must be at most a year ahead');
  const statuses = input.audience === 'staff' ? [] : [...(input.statuses ?? DEFAULT_STATUSES)];
  return { subject, body, translations, audience: input.audience, statuses, sendAt };
}

/** POST …/announcements/preview → the email the first recipient would get, and the audience size. */
export async function previewAnnouncement(
  ctx: UserEventCtx,
  input: ComposeInput,
): Promise<{ preview: PreviewJson }> {
  const event = ctx.access.event;
  const c = compose({ ...input, send_at: null }, offeredOf(event));
  const [first] = await resolveAudience(ctx.db, event.id, c.audience, c.statuses, 1);
  if (!first) throw unprocessable(NO_RECIPIENTS);
  const count = await countAudience(ctx.db, event.id, c.audience, c.statuses);
  const rendered = renderTemplate('announcement', varsFor(event, c, first));
  return {
    preview: {
      recipient_count: count,
      recipient: { email: first.email, name: first.name, kind: first.kind },
      ...rendered,
    },
  };
}

/**
 * POST …/announcements → 201 `{announcement}`. Without `send_at` the announcement is `sending` and
 * its `announcement-send` job is due at once; with it, `scheduled` and the job is due then — either
 * way enqueued in this transaction. The job resolves the audience and queues the emails
 * (dispatch.service.ts). 422 when the audience has nobody now. Audited `announcements.create`
 * (audience, statuses, the audience's size now; never the text).
 */
export async function createAnnouncement(
  ctx: UserEventCtx,
  input: ComposeInput,
): Promise<{ announcement: AnnouncementJson }> {
  const event = ctx.access.event;
  const c = compose(input, offeredOf(event));
  const { user } = ctx.access.principal;
  return ctx.db.transaction(async (tx) => {
    const present = await countAudience(tx, event.id, c.audience, c.statuses);
    if (present === 0) throw unprocessable(NO_RECIPIENTS);
    const inserted = await tx.execute<{ id: number }>(
      sql`INSERT INTO announcements (event_id, subject, body, translations, audience, statuses, status, send_at, created_by_user_id, created_by)
          VALUES (${event.id}, ${c.subject}, ${c.body}, ${JSON.stringify(c.translations)}::jsonb, ${c.audience},
                  ${`{${c.statuses.join(',')}}`}::text[],
                  ${c.sendAt ? 'scheduled' : 'sending'}, ${c.sendAt?.toISOString() ?? null}, ${user.id}, ${user.name || user.email})
          RETURNING id`,
    );
    const id = Number(one(inserted.rows).id);
    await ctx.jobs.enqueue(
      tx,
      'announcement-send',
      { announcement_id: id },
      { ...(c.sendAt ? { startAfter: c.sendAt } : {}), singletonKey: `announcement-${id}` },
    );
    await recordAudit(tx, {
      action: 'announcements.create',
      principal: ctx.access.principal,
      eventId: event.id,
      seriesId: event.seriesId,
      targetType: 'announcement',
      targetId: id,
      metadata: {
        announcement_id: id,
        audience: c.audience,
        statuses: c.statuses,
        languages: Object.keys(c.translations),
        scheduled: c.sendAt !== null,
        recipient_count: present,
      },
    });
    const [a] = await selectAnnouncements(tx, event.id, sql` AND a.id = ${id}`);
    return { announcement: a! };
  });
}

/** GET …/announcements → newest first. */
export async function listAnnouncements(
  ctx: UserEventCtx,
  q: { limit?: number; offset?: number },
): Promise<{ announcements: AnnouncementJson[] }> {
  const rows = await selectAnnouncements(ctx.db, ctx.access.event.id, sql``, {
    limit: q.limit ?? 50,
    offset: q.offset ?? 0,
  });
  return { announcements: rows };
}

function idOf(raw: string): number {
  if (!/^[0-9]{1,9}$/.test(raw)) throw notFound(NOT_FOUND);
  return Number(raw);
}

/** GET …/announcements/{id} → the announcement and a page of its recipients with their email state. */
export async function getAnnouncement(
  ctx: UserEventCtx,
  rawId: string,
  q: { limit?: number; after?: number } = {},
): Promise<{ announcement: AnnouncementJson; recipients: RecipientJson[]; next_after: number | null }> {
  const [a] = await selectAnnouncements(ctx.db, ctx.access.event.id, sql` AND a.id = ${idOf(rawId)}`);
  if (!a) throw notFound(NOT_FOUND);
  const limit = q.limit ?? 1000;
  const recipients = await selectRecipients(ctx.db, a.id, { after: q.after ?? 0, limit: limit + 1 });
  const more = recipients.length > limit;
  const page = recipients.slice(0, limit);
  return { announcement: a, recipients: page, next_after: more ? page.at(-1)!.id : null };
}

/** POST …/announcements/{id}/cancel → `{announcement}` (status `cancelled`); 409 unless `scheduled`. */
export async function cancelAnnouncement(
  ctx: UserEventCtx,
  rawId: string,
): Promise<{ announcement: AnnouncementJson }> {
  const event = ctx.access.event;
  const id = idOf(rawId);
  return ctx.db.transaction(async (tx) => {
    const res = await tx.execute<{ status: string }>(
      sql`SELECT status FROM announcements WHERE id = ${id} AND event_id = ${event.id} FOR UPDATE`,
    );
    const row = res.rows[0];
    if (!row) throw notFound(NOT_FOUND);
    if (row.status !== 'scheduled') throw conflict(NOT_SCHEDULED);
    await tx.execute(sql`UPDATE announcements SET status = 'cancelled', updated_at = now() WHERE id = ${id}`);
    await recordAudit(tx, {
      action: 'announcements.cancel',
      principal: ctx.access.principal,
      eventId: event.id,
      seriesId: event.seriesId,
      targetType: 'announcement',
      targetId: id,
      metadata: { announcement_id: id },
    });
    const [a] = await selectAnnouncements(tx, event.id, sql` AND a.id = ${id}`);
    return { announcement: a! };
  });
}
