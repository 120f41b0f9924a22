/**
 * SQL of chat blasts (docs/decisions.md "Messaging"): `recipient_count` = recipients snapshotted with the blast (stored
 * in the creating transaction; recipient rows are never deleted), `sent_count` / `failed_count` =
 * recipient rows in that state, counted in one pass over the blast's rows.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import { isoSqlText } from '../../lib/time.js';
import type { ChatBlastJson } from './chat-blasts.schemas.js';

const BLAST_COLUMNS = sql.raw(`b.id, b.message, b.status, b.recipient_count, c.sent_count, c.failed_count,
  ${isoSqlText('b.created_at')} AS created_at, b.sent_by`);
const BLAST_FROM = sql.raw(`chat_blasts b LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE r.status = 'sent')::int AS sent_count,
         count(*) FILTER (WHERE r.status = 'failed')::int AS failed_count
    FROM chat_blast_recipients r WHERE r.blast_id = b.id) c ON true`);

/** Blasts of `eventId` matching `where`, newest first. */
export async function selectBlasts(
  db: Tx,
  eventId: number,
  where: SQL = sql``,
  page: { limit: number; offset: number } = { limit: 1, offset: 0 },
): Promise<ChatBlastJson[]> {
  const res = await db.execute<ChatBlastJson>(
    sql`SELECT ${BLAST_COLUMNS} FROM ${BLAST_FROM} WHERE b.event_id = ${eventId}${where}
         ORDER BY b.created_at DESC, b.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  return res.rows;
}

/**
 * Snapshots the recipients of a new blast: registrations of the event with status `complete` whose
 * person has a linked chat account (non-blank `chat_user_id`), one row per chat user (a chat user
 * shared by two registrations gets the message once). Returns the number of rows.
 */
export async function insertRecipients(tx: Tx, blastId: number, eventId: number): Promise<number> {
  const res = await tx.execute<{ n: number }>(
    sql`WITH ins AS (INSERT INTO chat_blast_recipients (blast_id, registration_id, chat_user_id)
        SELECT DISTINCT ON (btrim(p.chat_user_id)) ${blastId}, r.id, btrim(p.chat_user_id)
          FROM registrations r JOIN people p ON p.id = r.person_id
         WHERE r.event_id = ${eventId} AND r.status = 'complete'
           AND p.chat_user_id IS NOT NULL AND btrim(p.chat_user_id) <> ''
         ORDER BY btrim(p.chat_user_id), r.id
        RETURNING 1)
        SELECT count(*)::int AS n FROM ins`,
  );
  return one(res.rows).n;
}
