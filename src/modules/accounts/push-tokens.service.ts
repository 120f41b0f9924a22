/**
 * Device push tokens (docs/decisions.md "Account and sessions", "DELETE /push_tokens"). A token belongs to at
 * most one user (UNIQUE column): registering a token another user holds moves it to the caller, since
 * the device is now signed in as the caller. Only the caller's own tokens can be deleted.
 * Pinned by test/sessions/push-tokens.test.ts.
 */
import { and, eq, sql } from 'drizzle-orm';
import { pushTokens } from '../../db/schema/index.js';
import type { UserCtx } from '../../deps.js';
import { notFound, unprocessable } from '../../lib/errors.js';
import { isOneOf } from '../../lib/narrow.js';
import { PUSH_PLATFORMS, type PushPlatform, type RegisterPushTokenInput } from './push-tokens.schemas.js';

/** `ExponentPushToken[…]` / `ExpoPushToken[…]`: printable ASCII inside the brackets. */
const EXPO = /^Expo(?:nent)?PushToken\[[\x21-\x5a\x5c\x5e-\x7e]{1,200}\]$/;
/** An APNs device token: 32 bytes as hex (stored lowercase). */
const APNS = /^[0-9a-fA-F]{64}$/;
/** An FCM registration token: `<instance id>:<token>` or a bare token of at least 100 URL-safe chars. */
const FCM = /^(?:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{100,}|[A-Za-z0-9_-]{100,})$/;

export const UNRECOGNISED = 'Unrecognised push token format';
export const NOT_FOUND = 'Push token not found';

/** The push service a token belongs to and its stored form; null when it is none of the three. */
export function recognisePushToken(raw: string): { token: string; platform: PushPlatform } | null {
  const token = raw.trim();
  if (EXPO.test(token)) return { token, platform: 'expo' };
  if (APNS.test(token)) return { token: token.toLowerCase(), platform: 'apns' };
  if (FCM.test(token)) return { token, platform: 'fcm' };
  return null;
}

/** POST /push_tokens: upsert. `created` is true when the token was not registered to anyone before. */
export async function registerPushToken(
  ctx: UserCtx,
  input: RegisterPushTokenInput,
): Promise<{ created: boolean }> {
  const { user } = ctx.access.principal;
  const recognised = recognisePushToken(input.token);
  if (!recognised) throw unprocessable(UNRECOGNISED);
  const claimed = input.platform;
  if (claimed && isOneOf(PUSH_PLATFORMS, claimed) && claimed !== recognised.platform) {
    throw unprocessable(
      `Push token format does not match platform ${claimed}: it is a ${recognised.platform} token`,
    );
  }
  // `xmax = 0` holds only for a freshly inserted row, not for one taken over by ON CONFLICT.
  const res = await ctx.db.execute<{ inserted: boolean }>(sql`
    INSERT INTO push_tokens (user_id, token, platform)
    VALUES (${user.id}, ${recognised.token}, ${recognised.platform})
    ON CONFLICT (token) DO UPDATE
      SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform, updated_at = now()
    RETURNING (xmax = 0) AS inserted`);
  return { created: res.rows[0]?.inserted === true };
}

/** DELETE /push_tokens/{token} and DELETE /push_tokens {token}: the caller's own token only. */
export async function deletePushToken(ctx: UserCtx, raw: string): Promise<{ success: true }> {
  const { user } = ctx.access.principal;
  // Same normalisation as registration, so an APNs token matches whatever its case.
  const token = recognisePushToken(raw)?.token ?? raw.trim();
  const deleted = await ctx.db
    .delete(pushTokens)
    .where(and(eq(pushTokens.token, token), eq(pushTokens.userId, user.id)))
    .returning({ id: pushTokens.id });
  if (deleted.length === 0) throw notFound(NOT_FOUND);
  return { success: true };
}
