/**
 * Help desk events (Help Scout-style, docs/decisions.md "Messaging"). Conversation events (`convo.*`) upsert a
 * helpdesk_conversations row and link it to the user whose email is the customer's (case-insensitive);
 * customer events (`customer.*`) record the help-desk customer id on that user. Unknown users leave
 * the conversation unlinked (it links on a later event once the user exists).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import type { Deps } from '../deps.js';
import { findUserByEmail } from '../modules/accounts/users.service.js';
import { emailOf, idText, obj, str } from './payload.js';

/** The customer's address: `primaryCustomer.email`, `customer.email`, or the first of `emails[]`. */
function customerOf(body: Record<string, unknown>): { id?: string; email?: string } {
  const customer = obj(body.primaryCustomer) ?? obj(body.customer) ?? body;
  const emails = Array.isArray(customer.emails) ? customer.emails : [];
  const first = emails.map((e) => obj(e)?.value ?? e).find((e) => emailOf(e));
  return { id: idText(customer.id), email: emailOf(customer.email) ?? emailOf(first) };
}

export async function applyHelpdeskEvent(
  _deps: Deps,
  tx: Tx,
  event: { eventType: string; payload: Record<string, unknown> },
): Promise<string> {
  const { eventType: type, payload } = event;
  const customer = customerOf(payload);
  const userId = customer.email ? ((await findUserByEmail(tx, customer.email))?.id ?? null) : null;
  if (userId !== null && customer.id) {
    await tx.execute(sql`UPDATE users SET helpdesk_customer_id = ${customer.id}, updated_at = now()
      WHERE id = ${userId} AND helpdesk_customer_id IS DISTINCT FROM ${customer.id}`);
  }
  if (!type.startsWith('convo.')) return userId === null ? 'unmatched' : 'linked';
  const conversationId = idText(payload.id);
  if (!conversationId) return 'ignored';
  if (type === 'convo.deleted') {
    await tx.execute(sql`DELETE FROM helpdesk_conversations WHERE conversation_id = ${conversationId}`);
    return 'deleted';
  }
  const subject = str(payload.subject, 500) ?? null;
  const status = str(payload.status, 50) ?? null;
  await tx.execute(sql`
    INSERT INTO helpdesk_conversations (conversation_id, customer_email, user_id, subject, status)
    VALUES (${conversationId}, ${customer.email ?? null}, ${userId}, ${subject}, ${status})
    ON CONFLICT (conversation_id) DO UPDATE SET
      customer_email = coalesce(EXCLUDED.customer_email, helpdesk_conversations.customer_email),
      user_id = coalesce(EXCLUDED.user_id, helpdesk_conversations.user_id),
      subject = coalesce(EXCLUDED.subject, helpdesk_conversations.subject),
      status = coalesce(EXCLUDED.status, helpdesk_conversations.status),
      updated_at = now()`);
  return userId === null ? 'unlinked' : 'linked';
}
