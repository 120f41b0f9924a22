/**
 * Links on the person row that come from outside the record (docs/architecture.md "Write model"):
 * the user account a participant signs in with, and the chat workspace user. Both match people by
 * email, case-insensitively.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';

/** Links every person with `email` (lowercase) and no user yet to user `userId`. */
export async function linkPeopleToUser(tx: Tx, email: string, userId: number): Promise<void> {
  await tx.execute(
    sql`UPDATE people SET user_id = ${userId} WHERE lower(email) = ${email} AND user_id IS NULL`,
  );
}

/** Removes chat user `chatUserId` from whoever it is linked to (a deleted workspace user). */
export async function unlinkChatUser(tx: Tx, chatUserId: string): Promise<void> {
  await tx.execute(
    sql`UPDATE people SET chat_user_id = NULL, updated_at = now() WHERE chat_user_id = ${chatUserId}`,
  );
}

/**
 * Links chat user `chatUserId` to the person with `email` (lowercase; null: nobody), first
 * unlinking it from a person with another address. `linked` when the person with that email now
 * carries it (changed or already), `unmatched` when there is no such email or no person with it.
 */
export async function linkChatUser(
  tx: Tx,
  chatUserId: string,
  email: string | null,
): Promise<'linked' | 'unmatched'> {
  // A workspace user whose address changed no longer speaks for the old person.
  await tx.execute(sql`UPDATE people SET chat_user_id = NULL, updated_at = now()
    WHERE chat_user_id = ${chatUserId} AND (${email}::text IS NULL OR lower(email) <> ${email})`);
  if (!email) return 'unmatched';
  const res = await tx.execute(sql`UPDATE people SET chat_user_id = ${chatUserId}, updated_at = now()
    WHERE lower(email) = ${email} AND chat_user_id IS DISTINCT FROM ${chatUserId} RETURNING id`);
  if (res.rows.length > 0) return 'linked';
  // Nothing to update: linked already, or nobody has this address.
  const linked = await tx.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM people WHERE lower(email) = ${email}`,
  );
  return Number(linked.rows[0]?.n) > 0 ? 'linked' : 'unmatched';
}
