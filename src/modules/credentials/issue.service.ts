/**
 * Issuing credentials (docs/decisions.md "Credentials and roles"). Each function returns the secret exactly once; only its
 * SHA-256 digest is stored. Used by the CLI, the demo seed and (later) POST /session.
 */

import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { eventApiKeys, events, globalApiTokens, mobileTokens, seriesApiKeys } from '../../db/schema/index.js';
import {
  digestSecret,
  generateApiSecret,
  generateLegacyEventKey,
  generateMobileToken,
} from '../../lib/secrets.js';

/** Mobile tokens live 14 days (docs/decisions.md "Credentials and roles"). */
export const MOBILE_TOKEN_TTL_MS = 14 * 24 * 60 * 60 * 1000;

export interface IssuedSecret {
  id: number;
  secret: string;
  expires_at: string | null;
}

export async function issueMobileToken(
  tx: Tx,
  userId: number,
  opts: { deviceName?: string; now?: Date; ttlMs?: number } = {},
): Promise<IssuedSecret> {
  const secret = generateMobileToken();
  const expiresAt = new Date(
    (opts.now ?? new Date()).getTime() + (opts.ttlMs ?? MOBILE_TOKEN_TTL_MS),
  ).toISOString();
  const [row] = await tx
    .insert(mobileTokens)
    .values({ userId, tokenDigest: digestSecret(secret), deviceName: opts.deviceName ?? null, expiresAt })
    .returning({ id: mobileTokens.id });
  return { id: row!.id, secret, expires_at: expiresAt };
}

export async function issueGlobalToken(
  tx: Tx,
  userId: number,
  opts: { name: string; scopes?: string[]; expiresAt?: string | null },
): Promise<IssuedSecret> {
  const secret = generateApiSecret('global');
  const [row] = await tx
    .insert(globalApiTokens)
    .values({
      userId,
      name: opts.name,
      tokenDigest: digestSecret(secret),
      scopes: opts.scopes ?? [],
      expiresAt: opts.expiresAt ?? null,
    })
    .returning({ id: globalApiTokens.id });
  return { id: row!.id, secret, expires_at: opts.expiresAt ?? null };
}

export async function issueSeriesKey(
  tx: Tx,
  seriesId: string,
  opts: { name: string; ownerUserId: number | null },
): Promise<IssuedSecret> {
  const secret = generateApiSecret('series_key');
  const [row] = await tx
    .insert(seriesApiKeys)
    .values({ seriesId, name: opts.name, ownerUserId: opts.ownerUserId, tokenDigest: digestSecret(secret) })
    .returning({ id: seriesApiKeys.id });
  return { id: row!.id, secret, expires_at: null };
}

export async function issueEventKey(
  tx: Tx,
  eventId: number,
  opts: { name: string; ownerUserId: number | null },
): Promise<IssuedSecret> {
  const secret = generateApiSecret('event_key');
  const [row] = await tx
    .insert(eventApiKeys)
    .values({ eventId, name: opts.name, ownerUserId: opts.ownerUserId, tokenDigest: digestSecret(secret) })
    .returning({ id: eventApiKeys.id });
  return { id: row!.id, secret, expires_at: null };
}

/** Sets (or replaces) an event's legacy per-event key. */
export async function issueLegacyEventKey(
  tx: Tx,
  eventId: number,
  name = 'Legacy event key',
): Promise<IssuedSecret> {
  const secret = generateLegacyEventKey();
  await tx
    .update(events)
    .set({ legacyApiKeyDigest: digestSecret(secret), legacyApiKeyName: name })
    .where(eq(events.id, eventId));
  return { id: eventId, secret, expires_at: null };
}
