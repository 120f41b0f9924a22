/**
 * Chat blasts (spec "Chat blasts", docs/decisions.md "Messaging"): staff broadcast a message to every
 * participant of the event whose registration is `complete` and who has a linked chat account.
 * Creating a blast snapshots one recipient row per chat user, creates the blast `pending` and
 * enqueues its delivery (`chat-blast-deliver`, delivery.service.ts) in one transaction: a
 * rolled-back request leaves no blast, no recipients and no job.
 */
import { sql } from 'drizzle-orm';
import { one } from '../../db/rows.js';
import type { UserEventCtx } from '../../deps.js';
import { ApiError, notFound, unprocessable } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { insertRecipients, selectBlasts } from './chat-blasts.repo.js';
import {
  type ChatBlastJson,
  type ChatBlastListInput,
  type CreateChatBlastInput,
  MAX_MESSAGE_LENGTH,
} from './chat-blasts.schemas.js';

export const BLANK_MESSAGE = 'Message cannot be blank';
export const TOO_LONG = `Message must be at most ${MAX_MESSAGE_LENGTH} characters`;
export const NO_RECIPIENTS = 'No participants with linked chat accounts';
export const NOT_CONFIGURED = 'Chat provider is not configured';
export const BLAST_NOT_FOUND = 'Chat blast not found';

function senderOf(ctx: UserEventCtx): { id: number; name: string } {
  const { user } = ctx.access.principal;
  return { id: user.id, name: user.name || user.email };
}

/**
 * POST /events/{e}/chat_blasts → `{chat_blast}` (201, status `pending`). Errors, in order: 422
 * `Message cannot be blank` / `Message must be at most 4000 characters` (after trimming); 503
 * `Chat provider is not configured` (no MUSTER_CHAT_BOT_TOKEN: nothing could be delivered); 422
 * `No participants with linked chat accounts`. Audited as `chat_blasts.create` (counts, not text).
 */
export async function createBlast(
  ctx: UserEventCtx,
  input: CreateChatBlastInput,
): Promise<{ chat_blast: ChatBlastJson }> {
  const event = ctx.access.event;
  const sender = senderOf(ctx);
  const message = input.message.trim();
  if (message === '') throw unprocessable(BLANK_MESSAGE);
  if (message.length > MAX_MESSAGE_LENGTH) throw unprocessable(TOO_LONG);
  if (!ctx.config.chat.botToken) throw new ApiError(503, NOT_CONFIGURED);
  return ctx.db.transaction(async (tx) => {
    const inserted = await tx.execute<{ id: number }>(
      sql`INSERT INTO chat_blasts (event_id, message, status, sent_by_user_id, sent_by)
          VALUES (${event.id}, ${message}, 'pending', ${sender.id}, ${sender.name}) RETURNING id`,
    );
    const id = one(inserted.rows).id;
    const count = await insertRecipients(tx, id, event.id);
    if (count === 0) throw unprocessable(NO_RECIPIENTS);
    await tx.execute(sql`UPDATE chat_blasts SET recipient_count = ${count} WHERE id = ${id}`);
    await ctx.jobs.enqueue(tx, 'chat-blast-deliver', { blast_id: id });
    await recordAudit(tx, {
      action: 'chat_blasts.create',
      principal: ctx.access.principal,
      eventId: event.id,
      seriesId: event.seriesId,
      targetType: 'chat_blast',
      targetId: id,
      metadata: { chat_blast_id: id, recipient_count: count, message_length: message.length },
    });
    const [blast] = await selectBlasts(tx, event.id, sql` AND b.id = ${id}`);
    return { chat_blast: blast! };
  });
}

/** GET /events/{e}/chat_blasts → `{chat_blasts}`, newest first (`created_at`, then id). */
export async function listBlasts(
  ctx: UserEventCtx,
  query: ChatBlastListInput,
): Promise<{ chat_blasts: ChatBlastJson[] }> {
  const event = ctx.access.event;
  const rows = await selectBlasts(ctx.db, event.id, sql``, {
    limit: query.limit ?? 50,
    offset: query.offset ?? 0,
  });
  return { chat_blasts: rows };
}

/** GET /events/{e}/chat_blasts/{id} → `{chat_blast}`; 404 `Chat blast not found` (also another event's). */
export async function getBlast(ctx: UserEventCtx, rawId: string): Promise<{ chat_blast: ChatBlastJson }> {
  const event = ctx.access.event;
  if (!/^[0-9]{1,9}$/.test(rawId)) throw notFound(BLAST_NOT_FOUND);
  const [blast] = await selectBlasts(ctx.db, event.id, sql` AND b.id = ${Number(rawId)}`);
  if (!blast) throw notFound(BLAST_NOT_FOUND);
  return { chat_blast: blast };
}
