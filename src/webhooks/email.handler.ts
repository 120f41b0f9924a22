/**
 * Email provider events (Postmark-style, docs/decisions.md "Messaging") → email_log. The log row is found by the
 * `email_log_id` metadata Muster attaches to every message (`X-PM-Metadata-email_log_id`), else by
 * provider message id. Delivery → `delivered`, Open → `opened`, Bounce → `bounced` (a status never
 * moves back: bounced stays bounced, opened is not downgraded to delivered). A hard bounce or a spam
 * complaint suppresses the address: later emails to it are not sent and are logged `suppressed`.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import type { Deps } from '../deps.js';
import { emailOf, idText, isoOf, obj, str } from './payload.js';

/** Postmark bounce types that mean the address will never accept mail. */
const PERMANENT_BOUNCES = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated', 'SpamComplaint']);

async function findLogId(tx: Tx, payload: Record<string, unknown>): Promise<number | null> {
  // Header names are case-insensitive and mailers re-case them (nodemailer sends `X-Pm-Metadata-Email_log_id`).
  const metadata = Object.entries(obj(payload.Metadata) ?? {});
  const metaId = idText(metadata.find(([key]) => key.toLowerCase() === 'email_log_id')?.[1]);
  if (metaId && /^\d{1,15}$/.test(metaId)) {
    const res = await tx.execute<{ id: number }>(sql`SELECT id FROM email_log WHERE id = ${Number(metaId)}`);
    if (res.rows[0]) return Number(res.rows[0].id);
  }
  const messageId = str(payload.MessageID, 300);
  if (!messageId) return null;
  const res = await tx.execute<{ id: number }>(
    sql`SELECT id FROM email_log WHERE provider_message_id IN (${messageId}, ${`<${messageId}>`})
        ORDER BY id DESC LIMIT 1`,
  );
  return res.rows[0] ? Number(res.rows[0].id) : null;
}

/** Flags an address: later sends are skipped (email.service) and the user's email_bounced_at is set. */
export async function suppressAddress(tx: Tx, email: string, reason: string, logId: number | null) {
  await tx.execute(sql`INSERT INTO email_suppressions (email, reason, email_log_id)
    VALUES (${email}, ${reason}, ${logId}) ON CONFLICT (lower(email)) DO NOTHING`);
  await tx.execute(sql`UPDATE users SET email_bounced_at = coalesce(email_bounced_at, now()), updated_at = now()
    WHERE lower(email) = ${email}`);
}

export async function applyEmailEvent(
  _deps: Deps,
  tx: Tx,
  event: { eventType: string; payload: Record<string, unknown> },
): Promise<string> {
  const { eventType: type, payload } = event;
  const logId = await findLogId(tx, payload);
  if (type === 'Bounce' || type === 'SpamComplaint') {
    const bounceType = type === 'SpamComplaint' ? 'SpamComplaint' : (str(payload.Type, 100) ?? 'Unknown');
    const at = isoOf(payload.BouncedAt) ?? new Date().toISOString();
    const reason = [str(payload.Name, 100) ?? bounceType, str(payload.Description, 300)]
      .filter(Boolean)
      .join(': ');
    if (logId !== null) {
      await tx.execute(sql`UPDATE email_log SET status = 'bounced', bounced_at = coalesce(bounced_at, ${at}),
        error = ${reason}, updated_at = now() WHERE id = ${logId}`);
    }
    const address = emailOf(payload.Email);
    if (PERMANENT_BOUNCES.has(bounceType) && address) {
      await suppressAddress(tx, address, bounceType, logId);
      return logId === null ? 'suppressed_unmatched' : 'suppressed';
    }
    return logId === null ? 'unmatched' : 'bounced';
  }
  if (logId === null) return 'unmatched';
  if (type === 'Delivery') {
    const at = isoOf(payload.DeliveredAt) ?? new Date().toISOString();
    await tx.execute(sql`UPDATE email_log SET delivered_at = coalesce(delivered_at, ${at}),
      status = CASE WHEN status IN ('queued', 'sent', 'failed') THEN 'delivered' ELSE status END,
      updated_at = now() WHERE id = ${logId}`);
    return 'delivered';
  }
  if (type === 'Open') {
    const at = isoOf(payload.ReceivedAt) ?? new Date().toISOString();
    await tx.execute(sql`UPDATE email_log SET opened_at = coalesce(opened_at, ${at}),
      status = CASE WHEN status = 'bounced' THEN status ELSE 'opened' END,
      updated_at = now() WHERE id = ${logId}`);
    return 'opened';
  }
  return 'ignored';
}
