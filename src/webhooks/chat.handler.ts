/**
 * Chat workspace events (Slack Events API, docs/decisions.md "Messaging"). `team_join` and `user_change` carry the
 * user: its chat account is upserted and `chat_user_id` is linked on the person with that email
 * (case-insensitive), replacing a link to a different address. A deleted user is unlinked.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import type { Deps } from '../deps.js';
import { linkChatUser, unlinkChatUser } from '../modules/participants/record/people.js';
import { emailOf, obj, str } from './payload.js';

const USER_EVENTS = new Set(['team_join', 'user_change']);

export async function applyChatEvent(
  _deps: Deps,
  tx: Tx,
  event: { eventType: string; payload: Record<string, unknown> },
): Promise<string> {
  if (!USER_EVENTS.has(event.eventType)) return 'ignored';
  const user = obj(obj(event.payload.event)?.user);
  const chatUserId = str(user?.id, 100);
  if (!user || !chatUserId) return 'ignored';
  const profile = obj(user.profile) ?? {};
  const email = emailOf(profile.email);
  const name = str(profile.real_name, 200) ?? str(user.real_name, 200) ?? str(user.name, 200) ?? null;
  if (user.deleted === true) {
    await unlinkChatUser(tx, chatUserId);
    return 'unlinked';
  }
  await tx.execute(sql`
    INSERT INTO chat_accounts (chat_user_id, email, display_name) VALUES (${chatUserId}, ${email ?? null}, ${name})
    ON CONFLICT (chat_user_id) DO UPDATE SET email = EXCLUDED.email,
      display_name = coalesce(EXCLUDED.display_name, chat_accounts.display_name), updated_at = now()`);
  return linkChatUser(tx, chatUserId, email ?? null);
}
