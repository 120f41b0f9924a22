/** Test helper: gives a guardian an invite link token (as reg-core's invitations would), stored as its digest. */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../src/db/client.js';
import { guardians } from '../../src/db/schema/index.js';
import { digestSecret } from '../../src/lib/secrets.js';

const DAY = 24 * 60 * 60 * 1000;

/** Sets a fresh token on guardian `id`, expiring in `days` (negative: already expired); returns it. */
export async function giveToken(db: Tx, id: number, days = 7): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .update(guardians)
    .set({
      inviteTokenDigest: digestSecret(token),
      inviteExpiresAt: new Date(Date.now() + days * DAY).toISOString(),
      inviteTokenSentAt: new Date().toISOString(),
    })
    .where(eq(guardians.id, id));
  return token;
}
