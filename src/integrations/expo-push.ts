/**
 * Expo's push service protocol (https://docs.expo.dev/push-notifications/sending-notifications/):
 * `POST {base}/--/api/v2/push/send` with a JSON array of at most 100 messages; the answer's `data`
 * holds one ticket per message, in order: `{status:"ok", id}` or `{status:"error", message,
 * details:{error}}` (e.g. `DeviceNotRegistered`). Spoken with fetch rather than expo-server-sdk:
 * the SDK reads its base URL only from `process.env.EXPO_BASE_URL` when it is first imported, so
 * it cannot follow Muster's validated configuration (MUSTER_EXPO_PUSH_URL) or a per-test fake
 * server; the protocol itself is one POST. Message bodies and the access token are never logged.
 */
import { errorMessage, propOf } from '../lib/narrow.js';

export const EXPO_CHUNK_LIMIT = 100;

export interface ExpoMessage {
  to: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  sound: 'default';
  priority: 'high';
}

export type ExpoTicket =
  | { status: 'ok'; id: string }
  | { status: 'error'; message?: string; details?: { error?: string } };

/** A failure worth retrying (network error, 429, 5xx). Other failures are permanent. */
export class ExpoTransientError extends Error {}
export class ExpoPermanentError extends Error {}

export interface ExpoPushConfig {
  baseUrl: string;
  accessToken?: string | undefined;
  timeoutMs?: number;
}

/**
 * POSTs `body` as JSON to `{base}{path}` and returns the answer's `data`. Network errors, 429, 5xx
 * and malformed JSON → ExpoTransientError (retry); other refusals → ExpoPermanentError.
 */
async function postExpo(config: ExpoPushConfig, path: string, body: unknown): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (config.accessToken) headers.authorization = `Bearer ${config.accessToken}`;
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(config.timeoutMs ?? 15_000),
    });
  } catch (error) {
    throw new ExpoTransientError(`Expo push request failed: ${errorMessage(error)}`);
  }
  const text = await response.text();
  if (response.status === 429 || response.status >= 500) {
    throw new ExpoTransientError(`Expo push service answered ${response.status}`);
  }
  if (!response.ok)
    throw new ExpoPermanentError(`Expo push service refused the request (${response.status})`);
  try {
    return propOf(JSON.parse(text), 'data');
  } catch {
    throw new ExpoTransientError('Expo push service answered with malformed JSON');
  }
}

/** Sends one chunk (≤ 100 messages) and returns its tickets, one per message, in order. */
export async function sendExpoChunk(config: ExpoPushConfig, messages: ExpoMessage[]): Promise<ExpoTicket[]> {
  if (messages.length === 0) return [];
  if (messages.length > EXPO_CHUNK_LIMIT) throw new Error(`At most ${EXPO_CHUNK_LIMIT} messages per request`);
  const tickets = await postExpo(config, '/--/api/v2/push/send', messages);
  if (!Array.isArray(tickets) || tickets.length !== messages.length) {
    throw new ExpoPermanentError('Expo push service answered without one ticket per message');
  }
  return tickets as ExpoTicket[];
}

/** Receipt ids per getReceipts request (Expo's SDKs send at most 300). */
export const EXPO_RECEIPT_CHUNK_LIMIT = 300;

export type ExpoReceipt =
  | { status: 'ok' }
  | { status: 'error'; message?: string; details?: { error?: string } };

/**
 * Fetches the receipts of earlier tickets (`POST {base}/--/api/v2/push/getReceipts {ids}` →
 * `{data: {<id>: receipt}}`). A receipt exists once Expo has handed the message to Apple or Google
 * (usually quickly, up to 30 minutes under load) and for about a day after; ids without one yet
 * are absent from the answer. Same transient/permanent errors as sendExpoChunk().
 */
export async function getExpoReceipts(
  config: ExpoPushConfig,
  ids: string[],
): Promise<Record<string, ExpoReceipt>> {
  if (ids.length === 0) return {};
  if (ids.length > EXPO_RECEIPT_CHUNK_LIMIT)
    throw new Error(`At most ${EXPO_RECEIPT_CHUNK_LIMIT} ids per request`);
  const data = await postExpo(config, '/--/api/v2/push/getReceipts', { ids });
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ExpoPermanentError('Expo push service answered receipts without a data object');
  }
  return data as Record<string, ExpoReceipt>;
}
