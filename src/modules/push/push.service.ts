/**
 * Staff push notifications through Expo's push service.
 *
 * 1. `enqueueStaffPush(deps, tx, …)` enqueues a `push-send` job in the caller's transaction: a
 *    rolled-back change notifies nobody.
 * 2. `push-send` resolves the event's staff devices — users holding any event role on the event or a
 *    series role on its series (global admins without a role are not staff of every event), minus
 *    `excludeUserIds` — keeps their Expo tokens (APNs/FCM device tokens cannot go through Expo's
 *    service), and enqueues one `push-deliver` job per 100 tokens, so a retried request re-sends
 *    only its own chunk.
 * 3. `push-deliver` sends the chunk (integrations/expo-push.ts); a ticket `DeviceNotRegistered`
 *    deletes that token from `push_tokens`; an `ok` ticket stamps the token's `last_used_at`.
 *    Network errors, 429 and 5xx are retried by the queue; other refusals are logged and dropped.
 * Delivery is at least once per chunk. Push payloads pass through Expo, Apple and Google, so callers
 * put no personal data in title, body or data (ids only).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import {
  EXPO_CHUNK_LIMIT,
  type ExpoMessage,
  ExpoPermanentError,
  sendExpoChunk,
} from '../../integrations/expo-push.js';
import type { JobPayloads } from '../../jobs/definitions.js';
import { scheduleReceiptCheck } from './push-receipts.js';

/** What happened, sent as `data.kind`. `blast_finished` is wired by the chat-blast worker. */
export type StaffPushKind = 'travel_pickup' | 'blast_finished';

/**
 * `data.type` beside `data.kind` (docs/decisions.md "Messaging"): the field the deployed mobile app switches on when
 * a notification is tapped (it knows `message`, which opens a participant's tickets; other values
 * open nothing in particular).
 */
export const PUSH_TYPE: Readonly<Record<string, string>> = {
  travel_pickup: 'pickup',
  blast_finished: 'blast',
};

export interface StaffPushInput {
  eventId: number;
  kind: StaffPushKind;
  /** Short, no personal data (e.g. "Traveller collected"). */
  title: string;
  body: string;
  /** Extra ids for the app; `kind`, `type` and `event_id` are added. */
  data?: Record<string, unknown>;
  /** Users not to notify, e.g. the staff member whose scan caused it. */
  excludeUserIds?: number[];
}

/**
 * Enqueues a push to the staff devices of `eventId`, inside `tx` (architecture: side effects are
 * jobs enqueued in the writing transaction). Returns at once; delivery happens in the worker.
 */
export async function enqueueStaffPush(
  deps: Pick<Deps, 'jobs'>,
  tx: Tx,
  input: StaffPushInput,
): Promise<void> {
  await deps.jobs.enqueue(tx, 'push-send', {
    event_id: input.eventId,
    kind: input.kind,
    title: input.title,
    body: input.body,
    data: input.data ?? {},
    exclude_user_ids: input.excludeUserIds ?? [],
  });
}

/** Job `push-send`: the event's staff Expo tokens, fanned out in chunks of 100 as `push-deliver` jobs. */
export async function fanOutStaffPush(deps: Deps, job: JobPayloads['push-send']): Promise<void> {
  const exclude = job.exclude_user_ids.length > 0 ? job.exclude_user_ids : [0];
  const res = await deps.db.execute<{ id: number; token: string }>(sql`
    SELECT pt.id, pt.token FROM push_tokens pt
     WHERE pt.platform = 'expo'
       AND pt.user_id IN (
         SELECT er.user_id FROM event_roles er WHERE er.event_id = ${job.event_id}
         UNION
         SELECT sr.user_id FROM series_roles sr JOIN events e ON e.series_id = sr.series_id
          WHERE e.id = ${job.event_id})
       AND pt.user_id NOT IN (${sql.join(
         exclude.map((id) => sql`${id}`),
         sql`, `,
       )})
     ORDER BY pt.id`);
  if (res.rows.length === 0) return;
  const data = { ...job.data, kind: job.kind, type: PUSH_TYPE[job.kind] ?? job.kind, event_id: job.event_id };
  await deps.db.transaction(async (tx) => {
    for (let i = 0; i < res.rows.length; i += EXPO_CHUNK_LIMIT) {
      const tokens = res.rows.slice(i, i + EXPO_CHUNK_LIMIT);
      await deps.jobs.enqueue(tx, 'push-deliver', { tokens, title: job.title, body: job.body, data });
    }
  });
}

/** Job `push-deliver`: one Expo request; prunes tokens Expo reports as `DeviceNotRegistered`. */
export async function deliverPushChunk(deps: Deps, job: JobPayloads['push-deliver']): Promise<void> {
  const messages: ExpoMessage[] = job.tokens.map((t) => ({
    to: t.token,
    title: job.title,
    body: job.body,
    data: job.data,
    sound: 'default',
    priority: 'high',
  }));
  let tickets: Awaited<ReturnType<typeof sendExpoChunk>>;
  try {
    tickets = await sendExpoChunk(
      { baseUrl: deps.config.expoPushUrl, accessToken: deps.config.expoAccessToken },
      messages,
    );
  } catch (error) {
    if (!(error instanceof ExpoPermanentError)) throw error;
    deps.log.error({ err: error, kind: job.data.kind }, 'push notification refused by Expo; not retried');
    return;
  }
  const gone: number[] = [];
  const sent: number[] = [];
  const receipts: { ticket_id: string; push_token_id: number; token: string }[] = [];
  tickets.forEach((ticket, i) => {
    const token = job.tokens[i]!;
    if (ticket.status === 'ok') {
      sent.push(token.id);
      receipts.push({ ticket_id: ticket.id, push_token_id: token.id, token: token.token });
    } else if (ticket.details?.error === 'DeviceNotRegistered') gone.push(token.id);
    else deps.log.warn({ push_token_id: token.id, error: ticket.details?.error }, 'push ticket error');
  });
  const ids = (list: number[]) =>
    sql.join(
      list.map((id) => sql`${id}`),
      sql`, `,
    );
  for (const id of gone) {
    const token = job.tokens.find((t) => t.id === id)!.token;
    await deps.db.execute(sql`DELETE FROM push_tokens WHERE id = ${id} AND token = ${token}`);
  }
  if (sent.length > 0)
    await deps.db.execute(sql`UPDATE push_tokens SET last_used_at = now() WHERE id IN (${ids(sent)})`);
  if (gone.length > 0) deps.log.info({ pruned: gone.length }, 'pruned unregistered push tokens');
  // Whether Apple or Google accepted each message is in its receipt, minutes later.
  await scheduleReceiptCheck(deps, receipts);
}
