/**
 * SQL of announcements: the rows with their delivery counts (each recipient's email_log row, read
 * live, so the email webhook's `bounced`/`delivered` show as they arrive) and the recipient pages.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { isoSqlText } from '../../lib/time.js';
import type { AnnouncementJson, RecipientJson } from './announcements.schemas.js';

const STATES = ['queued', 'sent', 'delivered', 'opened', 'bounced', 'failed', 'suppressed'] as const;

const COLUMNS = sql.raw(`a.id, a.subject, a.body, a.translations, a.audience, a.statuses, a.status,
  ${isoSqlText('a.send_at')} AS send_at, ${isoSqlText('a.sent_at')} AS sent_at, a.recipient_count,
  ${isoSqlText('a.created_at')} AS created_at, a.created_by,
  json_build_object(${STATES.map((s) => `'${s}', COALESCE(d.${s}, 0)`).join(', ')}) AS delivery`);
const FROM = sql.raw(`announcements a LEFT JOIN LATERAL (
  SELECT ${STATES.map((s) => `count(*) FILTER (WHERE l.status = '${s}')::int AS ${s}`).join(', ')}
    FROM announcement_recipients ar JOIN email_log l ON l.id = ar.email_log_id
   WHERE ar.announcement_id = a.id) d ON true`);

/** Announcements of `eventId` matching `where`, newest first. */
export async function selectAnnouncements(
  db: Tx,
  eventId: number,
  where: SQL = sql``,
  page: { limit: number; offset: number } = { limit: 1, offset: 0 },
): Promise<AnnouncementJson[]> {
  const res = await db.execute<AnnouncementJson>(
    sql`SELECT ${COLUMNS} FROM ${FROM} WHERE a.event_id = ${eventId}${where}
         ORDER BY a.created_at DESC, a.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Recipients of one announcement with their email's state, by id after `after`. */
export async function selectRecipients(
  db: Tx,
  announcementId: number,
  page: { after: number; limit: number },
): Promise<RecipientJson[]> {
  const res = await db.execute<RecipientJson>(
    sql`SELECT ar.id, ar.email, ar.name, ar.kind, COALESCE(l.status, 'queued') AS status, l.error,
               ${sql.raw(isoSqlText('l.sent_at'))} AS sent_at, ${sql.raw(isoSqlText('l.bounced_at'))} AS bounced_at
          FROM announcement_recipients ar LEFT JOIN email_log l ON l.id = ar.email_log_id
         WHERE ar.announcement_id = ${announcementId} AND ar.id > ${page.after}
         ORDER BY ar.id LIMIT ${page.limit}`,
  );
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export interface NewRecipient {
  email: string;
  name: string;
  kind: string;
  registration_id: number | null;
  email_log_id: number;
}

/** Inserts recipient rows in chunks (one statement per 500). */
export async function insertRecipients(tx: Tx, announcementId: number, rows: NewRecipient[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const values = rows
      .slice(i, i + 500)
      .map(
        (r) =>
          sql`(${announcementId}, ${r.email}, ${r.name}, ${r.kind}, ${r.registration_id}, ${r.email_log_id})`,
      );
    await tx.execute(
      sql`INSERT INTO announcement_recipients (announcement_id, email, name, kind, registration_id, email_log_id)
          VALUES ${sql.join(values, sql`, `)}`,
    );
  }
}
