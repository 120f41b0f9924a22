/**
 * Expo push receipts (https://docs.expo.dev/push-notifications/sending-notifications/): a ticket
 * `ok` only means Expo accepted the message; whether Apple or Google took it is in the receipt,
 * available some minutes later. deliverPushChunk() enqueues a `push-receipts` job per chunk,
 * `MUSTER_EXPO_RECEIPT_DELAY_SECONDS` (15 min) after sending; this handler fetches the receipts
 * (≤ 300 ids per request) and deletes the tokens whose receipt says `DeviceNotRegistered` (the app
 * was uninstalled or notifications revoked; Apple and Google penalise senders who keep sending).
 * Other receipt errors are logged without message text. Receipts not available yet are checked
 * again after the same delay, up to 3 checks in all.
 */
import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps.js';
import {
  EXPO_RECEIPT_CHUNK_LIMIT,
  ExpoPermanentError,
  type ExpoReceipt,
  getExpoReceipts,
} from '../../integrations/expo-push.js';
import type { JobPayloads } from '../../jobs/definitions.js';

const MAX_CHECKS = 3;

type Pending = JobPayloads['push-receipts']['receipts'];

/** Enqueues the receipt check of sent tickets (outside any transaction: the messages are sent). */
export async function scheduleReceiptCheck(deps: Deps, receipts: Pending, attempt = 1): Promise<void> {
  if (receipts.length === 0) return;
  await deps.jobs.enqueue(
    deps.db,
    'push-receipts',
    { receipts, attempt },
    { startAfter: deps.config.expoReceiptDelaySeconds },
  );
}

/** The `push-receipts` job: prune tokens Expo reports as unregistered; re-check missing receipts. */
export async function checkPushReceipts(deps: Deps, job: JobPayloads['push-receipts']): Promise<void> {
  const config = { baseUrl: deps.config.expoPushUrl, accessToken: deps.config.expoAccessToken };
  const missing: Pending = [];
  let pruned = 0;
  for (let i = 0; i < job.receipts.length; i += EXPO_RECEIPT_CHUNK_LIMIT) {
    const chunk = job.receipts.slice(i, i + EXPO_RECEIPT_CHUNK_LIMIT);
    let receipts: Record<string, ExpoReceipt>;
    try {
      receipts = await getExpoReceipts(
        config,
        chunk.map((r) => r.ticket_id),
      );
    } catch (error) {
      // Refused (e.g. bad credentials): retrying will not help; transient errors retry the job.
      if (!(error instanceof ExpoPermanentError)) throw error;
      deps.log.error({ err: error }, 'Expo refused the receipts request; not retried');
      return;
    }
    for (const pending of chunk) {
      const receipt = receipts[pending.ticket_id];
      if (!receipt) missing.push(pending);
      else if (receipt.status === 'error' && receipt.details?.error === 'DeviceNotRegistered') {
        const res = await deps.db.execute(
          sql`DELETE FROM push_tokens WHERE id = ${pending.push_token_id} AND token = ${pending.token}`,
        );
        pruned += res.rowCount ?? 0;
      } else if (receipt.status === 'error') {
        deps.log.warn(
          { push_token_id: pending.push_token_id, error: receipt.details?.error },
          'push receipt error',
        );
      }
    }
  }
  if (pruned > 0) deps.log.info({ pruned }, 'pruned push tokens Expo reported unregistered');
  if (missing.length > 0 && job.attempt < MAX_CHECKS)
    await scheduleReceiptCheck(deps, missing, job.attempt + 1);
}
