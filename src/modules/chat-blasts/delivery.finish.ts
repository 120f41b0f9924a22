/**
 * End of a chat blast's delivery (docs/decisions.md "Messaging") and resumption after a restart: finishing is one
 * guarded UPDATE (no recipient pending, blast not yet finished) so exactly one worker finishes a
 * blast and notifies the event's staff devices (push kind `blast_finished`) in that transaction.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { enqueueStaffPush } from '../push/push.service.js';

/**
 * Milliseconds until a pending recipient of `blastId` may be claimed (backoff over, or another
 * worker's lease expired); `null` when no recipient is pending.
 */
export async function nextWakeMs(db: Db, blastId: number, leaseSeconds: number): Promise<number | null> {
  const res = await db.execute<{ wait_ms: number | null; pending: number }>(sql`
    SELECT count(*)::int AS pending,
           (EXTRACT(EPOCH FROM min(greatest(available_at,
              coalesce(claimed_at + make_interval(secs => ${leaseSeconds}), available_at))) - clock_timestamp()) * 1000)::float8 AS wait_ms
      FROM chat_blast_recipients WHERE blast_id = ${blastId} AND status = 'pending'`);
  const row = one(res.rows);
  if (row.pending === 0) return null;
  return Math.max(0, Number(row.wait_ms ?? 0));
}

/** Moves the blast to `completed` (`failed` if nothing was sent) when no recipient is pending. */
export async function finishBlastIfDone(deps: Deps, blastId: number): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const res = await tx.execute<{ event_id: number; status: string; sent: number; total: number }>(sql`
      UPDATE chat_blasts b
         SET status = CASE WHEN EXISTS (SELECT 1 FROM chat_blast_recipients r
                                         WHERE r.blast_id = b.id AND r.status = 'sent')
                           THEN 'completed' ELSE 'failed' END,
             completed_at = now()
       WHERE b.id = ${blastId} AND b.status IN ('pending', 'in_progress')
         AND NOT EXISTS (SELECT 1 FROM chat_blast_recipients r WHERE r.blast_id = b.id AND r.status = 'pending')
      RETURNING b.event_id, b.status,
        (SELECT count(*) FROM chat_blast_recipients r WHERE r.blast_id = b.id AND r.status = 'sent')::int AS sent,
        (SELECT count(*) FROM chat_blast_recipients r WHERE r.blast_id = b.id)::int AS total`);
    const done = res.rows[0];
    if (!done) return false;
    await enqueueStaffPush(deps, tx, {
      eventId: done.event_id,
      kind: 'blast_finished',
      title: done.status === 'completed' ? 'Chat blast delivered' : 'Chat blast failed',
      body: `Sent to ${done.sent} of ${done.total} participants`,
      data: {
        chat_blast_id: blastId,
        status: done.status,
        sent_count: done.sent,
        recipient_count: done.total,
      },
    });
    deps.log.info(
      { chat_blast_id: blastId, status: done.status, sent: done.sent, total: done.total },
      'chat blast finished',
    );
    return true;
  });
}

/**
 * Enqueues delivery of every unfinished blast without a waiting job (called when a worker starts):
 * blasts whose job died with a crashed worker (left `active`) resume at once instead of waiting for
 * the queue's expiry. Returns how many were enqueued.
 */
export async function resumeChatBlasts(deps: Deps, db: Db = deps.db): Promise<number> {
  const res = await db.execute<{ id: number }>(
    sql`SELECT b.id FROM chat_blasts b
         WHERE b.status IN ('pending', 'in_progress')
           AND NOT EXISTS (SELECT 1 FROM pgboss.job j
                            WHERE j.name = 'chat-blast-deliver' AND j.state IN ('created', 'retry')
                              AND j.data->>'blast_id' = b.id::text)
         ORDER BY b.id`,
  );
  if (res.rows.length === 0) return 0;
  await db.transaction(async (tx) => {
    for (const { id } of res.rows) await deps.jobs.enqueue(tx, 'chat-blast-deliver', { blast_id: id });
  });
  return res.rows.length;
}
