/**
 * Chat blast delivery (contract §6 "Messaging"), the `chat-blast-deliver` job.
 *
 * - Blast: `pending → in_progress` when a worker starts it; `→ completed` when no recipient is
 *   pending (`failed` when none was sent). The move is one guarded UPDATE, so exactly one worker
 *   finishes a blast, and it enqueues the staff push (`blast_finished`) in that transaction.
 * - Recipient: `pending → sent | failed` exactly once (every write is `WHERE status = 'pending'`).
 *   Workers claim batches with `FOR UPDATE SKIP LOCKED` and stamp `claimed_at`: a claim is a lease
 *   of MUSTER_CHAT_LEASE_SECONDS, renewed every third of it while the worker holds it, so a claim of
 *   a crashed (SIGKILLed) worker is retaken once it is older than the lease.
 * - At most MUSTER_CHAT_CONCURRENCY recipients are in flight per worker.
 * - Errors (integrations/chat-provider.ts): permanent → `failed` with the provider's reason;
 *   transient → retried with exponential backoff (`available_at`) until MUSTER_CHAT_MAX_ATTEMPTS
 *   attempts, then `failed`; still rate limited after the client's own Retry-After waits → retried
 *   after Retry-After without counting an attempt.
 * - At-least-once window: `message_ts` and `sent` are written right after the provider accepts the
 *   message. A crash between the two (or a lost response) means the recipient is still `pending`
 *   and gets the message again; a recipient recorded `sent` is never sent again.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { type ChatSender, classifyChatError, createChatSender } from '../../integrations/chat-provider.js';
import type { JobPayloads } from '../../jobs/definitions.js';
import { finishBlastIfDone, nextWakeMs } from './delivery.finish.js';

export type Claimed = {
  id: number;
  chat_user_id: string;
  attempts: number;
};

const MAX_BACKOFF_MS = 5 * 60_000;
const MAX_IDLE_WAIT_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Claims up to `limit` deliverable recipients of `blastId` (unclaimed or lease expired). */
export async function claimRecipients(db: Db, blastId: number, limit: number, leaseSeconds: number) {
  const res = await db.execute<Claimed>(sql`
    UPDATE chat_blast_recipients SET claimed_at = clock_timestamp()
     WHERE id IN (
       SELECT id FROM chat_blast_recipients
        WHERE blast_id = ${blastId} AND status = 'pending' AND available_at <= now()
          AND (claimed_at IS NULL OR claimed_at < clock_timestamp() - make_interval(secs => ${leaseSeconds}))
        ORDER BY id LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
     RETURNING id::int AS id, chat_user_id, attempts`);
  return res.rows;
}

const idList = (ids: Iterable<number>) =>
  sql.join(
    [...ids].map((id) => sql`${id}`),
    sql`, `,
  );

/** Job `chat-blast-deliver`: delivers every pending recipient of the blast, then finishes it. */
export async function deliverBlast(deps: Deps, job: JobPayloads['chat-blast-deliver']): Promise<void> {
  const cfg = deps.config.chat;
  const blastId = job.blast_id;
  const found = await deps.db.execute<{ message: string; status: string }>(
    sql`SELECT message, status FROM chat_blasts WHERE id = ${blastId}`,
  );
  const blast = found.rows[0];
  if (!blast || blast.status === 'completed' || blast.status === 'failed') return;
  if (!cfg.botToken) {
    // Stays pending: a worker started with a token resumes it (resumeChatBlasts).
    deps.log.error({ chat_blast_id: blastId }, 'chat provider not configured; blast left pending');
    return;
  }
  await deps.db.execute(
    sql`UPDATE chat_blasts SET status = 'in_progress', started_at = now() WHERE id = ${blastId} AND status = 'pending'`,
  );
  const sender = createChatSender(cfg, deps.log);
  const batchSize = cfg.concurrency * 4;
  for (;;) {
    const batch = await claimRecipients(deps.db, blastId, batchSize, cfg.leaseSeconds);
    if (batch.length > 0) {
      await deliverBatch(deps, sender, blast.message, batch);
      continue;
    }
    const wake = await nextWakeMs(deps.db, blastId, cfg.leaseSeconds);
    if (wake === null) {
      await finishBlastIfDone(deps, blastId);
      return;
    }
    await sleep(Math.min(Math.max(wake, 50), MAX_IDLE_WAIT_MS));
  }
}

/** Sends a claimed batch with bounded concurrency, renewing the batch's lease while it runs. */
async function deliverBatch(deps: Deps, sender: ChatSender, text: string, batch: Claimed[]): Promise<void> {
  const cfg = deps.config.chat;
  const held = new Set(batch.map((r) => r.id));
  const heartbeat = setInterval(
    () => {
      if (held.size === 0) return;
      deps.db
        .execute(
          sql`UPDATE chat_blast_recipients SET claimed_at = clock_timestamp()
               WHERE id IN (${idList(held)}) AND status = 'pending' AND claimed_at IS NOT NULL`,
        )
        .catch((err: unknown) => deps.log.warn({ err }, 'chat blast lease renewal failed'));
    },
    Math.max(500, (cfg.leaseSeconds * 1000) / 3),
  );
  try {
    let next = 0;
    const lane = async () => {
      while (next < batch.length) {
        const recipient = batch[next++]!;
        await deliverOne(deps, sender, text, recipient);
        held.delete(recipient.id);
      }
    };
    await Promise.all(Array.from({ length: Math.min(cfg.concurrency, batch.length) }, lane));
  } finally {
    clearInterval(heartbeat);
  }
}

/** One recipient: post, then record the outcome at once (only while it is still `pending`). */
async function deliverOne(deps: Deps, sender: ChatSender, text: string, r: Claimed): Promise<void> {
  const cfg = deps.config.chat;
  let ts: string;
  try {
    ts = (await sender.sendDirect(r.chat_user_id, text)).ts;
  } catch (error) {
    const failure = classifyChatError(error);
    const attempts = r.attempts + 1;
    if (failure.kind === 'rate_limited') {
      await deps.db.execute(sql`UPDATE chat_blast_recipients
         SET claimed_at = NULL, error = ${failure.reason},
             available_at = now() + make_interval(secs => ${failure.retryAfterMs / 1000})
       WHERE id = ${r.id} AND status = 'pending'`);
    } else if (failure.kind === 'permanent' || attempts >= cfg.maxAttempts) {
      await deps.db.execute(sql`UPDATE chat_blast_recipients
         SET status = 'failed', attempts = ${attempts}, error = ${failure.reason}, claimed_at = NULL
       WHERE id = ${r.id} AND status = 'pending'`);
    } else {
      const backoff =
        Math.min(cfg.retryBaseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS) * (0.5 + Math.random() / 2);
      await deps.db.execute(sql`UPDATE chat_blast_recipients
         SET attempts = ${attempts}, error = ${failure.reason}, claimed_at = NULL,
             available_at = now() + make_interval(secs => ${backoff / 1000})
       WHERE id = ${r.id} AND status = 'pending'`);
    }
    return;
  }
  await deps.db.execute(sql`UPDATE chat_blast_recipients
     SET status = 'sent', message_ts = ${ts}, sent_at = now(), attempts = ${r.attempts + 1},
         error = NULL, claimed_at = NULL
   WHERE id = ${r.id} AND status = 'pending'`);
}
