/**
 * Who may sign in (docs/decisions.md "Account and sessions"), for every sign-in method:
 * - an existing user, except a participant-only user (no global admin, event or series role)
 *   whose address is on a ban in force: staff keep their access, banned participants do not;
 * - an address with no user yet that is on a registration whose status is not `rejected` and that
 *   is not banned: the participant's account is created at the first verified sign-in.
 * Nobody else: staff accounts are never created here. At every verified sign-in the user's
 * participant records with the same address are linked to the user (`people.user_id`), so tickets
 * and the participant's own registration pages find them.
 * Pinned by test/signin/eligibility.test.ts and test/signin/participants.test.ts.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { eventRoles, seriesRoles, users } from '../../db/schema/index.js';
import { normalizeEmail } from '../../lib/identifiers.js';
import { findUserByEmail, type UserRow } from '../accounts/users.service.js';
import { recordAudit } from '../audit/audit.service.js';
import { isBanned } from '../bans/bans.service.js';
import { linkPeopleToUser } from '../participants/record/people.js';

async function isStaff(tx: Tx, user: UserRow): Promise<boolean> {
  if (user.globalAdmin) return true;
  const res = await tx.execute<{ staff: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM ${eventRoles} WHERE ${eventRoles.userId} = ${user.id})
        OR EXISTS (SELECT 1 FROM ${seriesRoles} WHERE ${seriesRoles.userId} = ${user.id}) AS staff`);
  return res.rows[0]?.staff === true;
}

/** The participant's name on their newest registration that is not rejected; null when there is none. */
async function registrantName(tx: Tx, email: string): Promise<string | null> {
  const res = await tx.execute<{ name: string }>(sql`
    SELECT coalesce(nullif(trim(p.preferred_name), ''), trim(p.legal_first_name || ' ' || p.legal_last_name)) AS name
      FROM people p JOIN registrations r ON r.person_id = p.id
     WHERE lower(p.email) = ${email} AND r.status <> 'rejected'
     ORDER BY r.id DESC LIMIT 1`);
  const row = res.rows[0];
  return row ? row.name || email : null;
}

/** Whether `email` may sign in now; `user` is its account (absent for a registrant's first sign-in). */
export async function mayReceiveSignIn(
  tx: Tx,
  rawEmail: string,
): Promise<{ allowed: boolean; user: UserRow | undefined; name: string }> {
  const email = normalizeEmail(rawEmail);
  const user = await findUserByEmail(tx, email);
  if (user && (await isStaff(tx, user))) return { allowed: true, user, name: user.name };
  if (await isBanned(tx, email)) return { allowed: false, user, name: user?.name ?? email };
  if (user) return { allowed: true, user, name: user.name };
  const name = await registrantName(tx, email);
  return { allowed: name !== null, user, name: name ?? email };
}

/**
 * The account a verified sign-in of `email` continues as: the user, created for a registrant
 * signing in for the first time (audited `user.create`, `via: sign_in`); null when `email` may not
 * sign in. Links the address's participant records to the user.
 */
export async function accountForSignIn(tx: Tx, rawEmail: string): Promise<UserRow | null> {
  const email = normalizeEmail(rawEmail);
  const { allowed, user: existing, name } = await mayReceiveSignIn(tx, email);
  if (!allowed) return null;
  let user = existing;
  if (!user) {
    // A parallel first sign-in of the same address may have created it a moment ago.
    const [created] = await tx.insert(users).values({ email, name }).onConflictDoNothing().returning();
    if (created)
      await recordAudit(tx, {
        action: 'user.create',
        actorUserId: null,
        via: 'sign_in',
        targetType: 'user',
        targetId: created.id,
        metadata: { reason: 'participant_first_sign_in' },
      });
    user = created ?? (await findUserByEmail(tx, email));
    if (!user) return null;
  }
  await linkPeopleToUser(tx, email, user.id);
  return user;
}
