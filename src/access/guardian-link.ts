/**
 * The `guardian_link` credential source (docs/decisions.md "Guardian portal"):
 * the token in the path of a guardian's emailed link (`{token}`, 256 random bits, stored only as its
 * SHA-256 digest in `guardians.invite_token_digest`, valid 7 days) names one guardian of one
 * registration. Routes and pages of the portal declare `config: { action, credential:
 * 'guardian_link' }` with a `guardian:link` action; the gate (http/authorize.ts) calls this before
 * the handler, and the service gets a context whose principal is that guardian.
 *
 * Check order: malformed or unknown token → 404 `Guardian link not found`; expired → 410. A bearer
 * header plays no part (every credential gets the same answer), and no other credential reaches
 * these actions. Roles: none; visibility: neither PII nor sensitive (the portal's view is its own).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { ApiError, notFound } from '../lib/errors.js';
import { digestSecret } from '../lib/secrets.js';
import { type Action, actions } from './actions.js';
import { type AccessFor, accessFor } from './authorize.js';
import { NO_ROLES } from './policy.js';

export const LINK_NOT_FOUND = 'Guardian link not found';
export const LINK_EXPIRED =
  'This guardian link has expired; ask the participant or the event team for a new one';
/** Tokens are URL-safe random strings; anything else names no link (404 without a query). */
const TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

/** The access context of a `guardian:link` action for the link `token`: 404 unknown, 410 expired. */
export async function authorizeGuardianLink<A extends Action>(
  db: Tx,
  action: A,
  token: string | undefined,
): Promise<AccessFor<A>> {
  if (actions[action].target !== 'guardian:link') throw new Error(`${action} is not a guardian-link action`);
  if (!token || !TOKEN.test(token)) throw notFound(LINK_NOT_FOUND);
  const res = await db.execute<{
    id: number;
    registration_id: number;
    event_id: number;
    expired: boolean;
  }>(sql`
    SELECT g.id, g.registration_id, r.event_id,
           (g.invite_expires_at IS NULL OR g.invite_expires_at <= now()) AS expired
      FROM guardians g JOIN registrations r ON r.id = g.registration_id
     WHERE g.invite_token_digest = ${digestSecret(token)}`);
  const link = res.rows[0];
  if (!link) throw notFound(LINK_NOT_FOUND);
  if (link.expired) throw new ApiError(410, LINK_EXPIRED);
  const access = {
    action,
    principal: {
      kind: 'guardian_link' as const,
      guardianId: Number(link.id),
      registrationId: Number(link.registration_id),
      eventId: Number(link.event_id),
      credentialId: String(link.id),
      credentialName: null,
    },
    roles: NO_ROLES,
    visibility: { pii: false, sensitive: false },
  };
  return accessFor(action, access);
}
