/**
 * What the invitation landing page needs before anyone is signed in (docs/decisions.md "Participants API" "a
 * participant signs in like any user"): the invitation behind an emailed token (looked up by its
 * SHA-256 digest, read only), and an account for the invited address so the one-time-code sign-in
 * can email a code to it (sign-in never creates users). Holding a live invitation token proves the
 * address received the invitation email; the account has no roles, and signing in still needs the
 * emailed code. Starting the registration itself is `startRegistration` (POST /registrations).
 */
import { sql } from 'drizzle-orm';
import { users } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { normalizeEmail } from '../../../lib/identifiers.js';
import { digestSecret } from '../../../lib/secrets.js';
import { findUserByEmail } from '../../accounts/users.service.js';
import { isBanned } from '../../bans/bans.service.js';

export interface InvitationView {
  email: string;
  firstName: string | null;
  lastName: string | null;
  eventName: string;
  /** The event's uploaded logo and banner (absolute URLs), or null. */
  eventLogoUrl: string | null;
  eventBannerUrl: string | null;
  /** pending (usable) | accepted | revoked | expired */
  state: 'pending' | 'accepted' | 'revoked' | 'expired';
  registrationId: number | null;
}

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

/** The invitation of `token`, or null when the token names none. */
export async function invitationByToken(deps: Deps, token: string): Promise<InvitationView | null> {
  if (!TOKEN.test(token)) return null;
  const res = await deps.db.execute<{
    email: string;
    first_name: string | null;
    last_name: string | null;
    event_name: string;
    logo_url: string | null;
    banner_url: string | null;
    status: InvitationView['state'];
    expired: boolean;
    registration_id: number | null;
  }>(sql`
    SELECT i.email, i.first_name, i.last_name, e.name AS event_name, e.logo_url, e.banner_url, i.status,
           i.expires_at <= now() AS expired, i.registration_id
      FROM invitations i JOIN events e ON e.id = i.event_id
     WHERE i.token_digest = ${digestSecret(token)}`);
  const row = res.rows[0];
  if (!row) return null;
  return {
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    eventName: row.event_name,
    eventLogoUrl: row.logo_url,
    eventBannerUrl: row.banner_url,
    state: row.status === 'pending' && row.expired ? 'expired' : row.status,
    registrationId: row.registration_id === null ? null : Number(row.registration_id),
  };
}

/**
 * Makes sure the invited address has an account (created with the invitation's name) when the
 * invitation is still usable and the address is not banned: `ok` (sign-in can proceed), `unusable`
 * (unknown, used, revoked or expired token) or `banned`.
 */
export async function ensureInviteeAccount(deps: Deps, token: string): Promise<'ok' | 'unusable' | 'banned'> {
  const invitation = await invitationByToken(deps, token);
  if (invitation?.state !== 'pending') return 'unusable';
  return deps.db.transaction(async (tx): Promise<'ok' | 'banned'> => {
    if (await isBanned(tx, invitation.email)) return 'banned';
    if (await findUserByEmail(tx, invitation.email)) return 'ok';
    const name = [invitation.firstName, invitation.lastName].filter(Boolean).join(' ') || invitation.email;
    // Two tabs at once: the unique index on lower(email) keeps one account; the other insert is a no-op.
    await tx
      .insert(users)
      .values({ email: normalizeEmail(invitation.email), name })
      .onConflictDoNothing();
    return 'ok' as const;
  });
}
