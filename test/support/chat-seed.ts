/**
 * Bulk fixture for chat blasts (tests and bench): `n` people with linked chat accounts
 * (`<prefix>00001`…) and `complete` registrations in one event, set-based in one statement pair.
 */
import type pg from 'pg';

export const chatUserId = (prefix: string, i: number) => `${prefix}${String(i).padStart(5, '0')}`;

export async function seedChatParticipants(
  pool: Pick<pg.Pool, 'query'>,
  eventId: number,
  n: number,
  prefix = 'UCHAT',
): Promise<void> {
  await pool.query(
    `WITH p AS (
       INSERT INTO people (email, legal_first_name, legal_last_name, chat_user_id)
       SELECT lower($2) || '-' || g || '@example.com', 'Chat', 'Person ' || g, $2 || lpad(g::text, 5, '0')
         FROM generate_series(1, $3::int) g
       RETURNING id)
     INSERT INTO registrations (event_id, person_id, status) SELECT $1, id, 'complete' FROM p`,
    [eventId, prefix, n],
  );
}
