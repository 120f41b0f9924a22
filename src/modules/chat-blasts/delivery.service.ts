/**
 * Chat blast delivery (docs/decisions.md "Messaging"), the `chat-blast-deliver` job.
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
 * - Crash between post and record: `message_ts` and `sent` are written right after the provider
 *   accepts the message; a recipient recorded `sent` is never sent again. Every message carries
 *   metadata naming its recipient row, and a recipient that may already have been posted (its claim
 *   retaken, or retried after an error) is first looked up in the DM's history
 *   (`conversations.history`): found → recorded `sent` with that `ts`, not posted again. Only when
 *   that lookup fails (e.g. the token lacks `im:history`) does delivery fall back to at least once.
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
  /** Claimed before by a worker that did not finish it (crashed, or lease lost): maybe posted. */
  retaken: boolean;
};

const MAX_BACKOFF_MS = 5 * 60_000;
const MAX_IDLE_WAIT_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Claims up to `limit` deliverable recipients of `blastId` (unclaimed or lease expired). */
export async function claimRecipients(db: Db, blastId: number, limit: number, leaseSeconds: number) {
  const res = await db.execute<Claimed>(sql`
    WITH c AS (
      SELECT id, claimed_at IS NOT NULL AS retaken FROM chat_blast_recipients
       WHERE blast_id = ${blastId} AND status = 'pending' AND available_at <= now()
         AND (claimed_at IS NULL OR claimed_at < clock_timestamp() - make_interval(secs => ${leaseSeconds}))
       ORDER BY id LIMIT ${limit}
       FOR UPDATE SKIP LOCKED)
    UPDATE chat_blast_recipients r SET claimed_at = clock_timestamp() FROM c WHERE r.id = c.id
    RETURNING r.id::int AS id, r.chat_user_id, r.attempts, c.retaken`);
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
  const found = await deps.db.execute<{ message: string; status: string; since: number }>(
    sql`SELECT message, status, floor(EXTRACT(EPOCH FROM created_at))::float8 - 1 AS since
          FROM chat_blasts WHERE id = ${blastId}`,
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
  // On shutdown the job stops between recipients and fails, so the queue retries it on another
  // worker (or this one's successor resumes it at start-up); the blast stays in_progress.
  while (!deps.jobs.stopping) {
    const batch = await claimRecipients(deps.db, blastId, batchSize, cfg.leaseSeconds);
    if (batch.length > 0) {
      await deliverBatch(deps, sender, { text: blast.message, since: Number(blast.since) }, batch);
      continue;
    }
    const wake = await nextWakeMs(deps.db, blastId, cfg.leaseSeconds);
    if (wake === null) {
      await finishBlastIfDone(deps, blastId);
      return;
    }
    await sleep(Math.min(Math.max(wake, 50), MAX_IDLE_WAIT_MS));
  }
  throw new Error(`worker stopping: chat blast ${blastId} will resume on another worker`);
}

/**
 * Sends a claimed batch with bounded concurrency, renewing the lease of the batch's unsettled
 * recipients while it runs. On shutdown, recipients not yet started are released at once; a
 * recipient whose outcome could not be recorded keeps its claim, so whoever retakes it after the
 * lease first looks it up in the provider's history.
 */
async function deliverBatch(deps: Deps, sender: ChatSender, msg: Message, batch: Claimed[]): Promise<void> {
  const cfg = deps.config.chat;
  const unsettled = new Set(batch.map((r) => r.id));
  const notStarted = new Set(batch.map((r) => r.id));
  const heartbeat = setInterval(
    () => {
      if (unsettled.size === 0) return;
      deps.db
        .execute(
          sql`UPDATE chat_blast_recipients SET claimed_at = clock_timestamp()
               WHERE id IN (${idList(unsettled)}) AND status = 'pending' AND claimed_at IS NOT NULL`,
        )
        .catch((err: unknown) => deps.log.warn({ err }, 'chat blast lease renewal failed'));
    },
    Math.max(500, (cfg.leaseSeconds * 1000) / 3),
  );
  try {
    let next = 0;
    const lane = async () => {
      while (next < batch.length && !deps.jobs.stopping) {
        const recipient = batch[next++]!;
        notStarted.delete(recipient.id);
        await deliverOne(deps, sender, msg, recipient);
        unsettled.delete(recipient.id);
      }
    };
    const lanes = await Promise.allSettled(
      Array.from({ length: Math.min(cfg.concurrency, batch.length) }, lane),
    );
    const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    clearInterval(heartbeat);
    if (notStarted.size > 0)
      await deps.db
        .execute(
          sql`UPDATE chat_blast_recipients SET claimed_at = NULL WHERE id IN (${idList(notStarted)}) AND status = 'pending'`,
        )
        .catch(() => undefined);
  }
}

interface Message {
  text: string;
  /** Epoch seconds before the blast was created: where a history lookup starts. */
  since: number;
}

/**
 * A recipient that may already have been posted (claim retaken from a crashed worker, or a retry
 * after an ambiguous error) is first looked up in the DM's history by its metadata; found → `ts`.
 * A failed lookup (e.g. no `im:history` scope) falls back to posting: at least once.
 */
async function alreadyPosted(
  deps: Deps,
  sender: ChatSender,
  msg: Message,
  r: Claimed,
): Promise<string | null> {
  if (!r.retaken && r.attempts === 0) return null;
  try {
    return await sender.findPosted(r.chat_user_id, r.id, msg.since);
  } catch (error) {
    deps.log.debug({ err: error, recipient_id: r.id }, 'chat history lookup failed; posting again');
    return null;
  }
}

/** One recipient: post (unless already posted), then record the outcome at once (only while `pending`). */
async function deliverOne(deps: Deps, sender: ChatSender, msg: Message, r: Claimed): Promise<void> {
  const cfg = deps.config.chat;
  let ts: string;
  try {
    ts =
      (await alreadyPosted(deps, sender, msg, r)) ??
      (await sender.sendDirect(r.chat_user_id, msg.text, r.id)).ts;
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
