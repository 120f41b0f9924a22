/**
 * The chat provider adapter (docs/decisions.md "Messaging"): a Slack-compatible Web API spoken through the
 * official `@slack/web-api` WebClient with `slackApiUrl` = MUSTER_CHAT_BASE_URL. A direct message is
 * `conversations.open {users}` → channel id, then `chat.postMessage {channel, text}` → `ts`.
 *
 * Retries inside the client (per API call): HTTP 429 with `Retry-After` pauses the client's whole
 * request queue for that many seconds and then retries (Slack's documented behaviour); network
 * errors and HTTP 5xx are retried `CLIENT_RETRIES` times with exponential backoff from
 * `retryBaseMs`. What is left over is classified for the delivery worker by `classifyChatError`.
 * The bot token is sent as a bearer header by the client and never logged (the client's own logger
 * is routed to pino at debug level and redacts tokens).
 */
import { LogLevel, type Logger as SlackLogger, WebClient } from '@slack/web-api';
import type { FastifyBaseLogger } from 'fastify';
import type { ChatConfig } from '../config.js';
import { errorCode, numberProp, propOf, stringProp } from '../lib/narrow.js';

export const CLIENT_RETRIES = 2;
export const REQUEST_TIMEOUT_MS = 15_000;

/** Provider error codes worth another attempt later. Unknown codes are permanent. */
const TRANSIENT_ERRORS = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

export type ChatFailure =
  | { kind: 'permanent'; reason: string }
  | { kind: 'transient'; reason: string }
  /** Still rate limited after the client's own waits: retry after `retryAfterMs`, not an attempt. */
  | { kind: 'rate_limited'; reason: string; retryAfterMs: number };

/** `metadata.event_type` of Muster's messages; `event_payload.recipient_id` names the recipient row. */
export const MESSAGE_EVENT_TYPE = 'muster_chat_blast';

export interface ChatSender {
  /**
   * Opens (or reuses) the DM with `chatUserId` and posts `text`, tagged with message metadata
   * `{event_type: muster_chat_blast, event_payload: {recipient_id}}`; returns the message `ts`.
   */
  sendDirect(chatUserId: string, text: string, recipientId: number): Promise<{ channel: string; ts: string }>;
  /**
   * The `ts` of a message Muster already posted to `chatUserId` for `recipientId` since
   * `oldestEpoch` (seconds), read back with `conversations.history` (needs the `im:history`
   * scope), or null when there is none.
   */
  findPosted(chatUserId: string, recipientId: number, oldestEpoch: number): Promise<string | null>;
}

function slackLogger(log: FastifyBaseLogger): SlackLogger {
  let level = LogLevel.DEBUG;
  return {
    debug: () => undefined,
    info: (...msg: unknown[]) => log.debug({ provider: 'chat' }, msg.map(String).join(' ')),
    warn: (...msg: unknown[]) => log.debug({ provider: 'chat' }, msg.map(String).join(' ')),
    error: (...msg: unknown[]) => log.warn({ provider: 'chat' }, msg.map(String).join(' ')),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/** A sender for `config`; throws if no bot token is configured (callers check first). */
export function createChatSender(config: ChatConfig, log: FastifyBaseLogger): ChatSender {
  if (!config.botToken) throw new Error('Chat provider is not configured');
  const client = new WebClient(config.botToken, {
    slackApiUrl: config.baseUrl,
    logger: slackLogger(log),
    maxRequestConcurrency: config.concurrency * 2,
    timeout: REQUEST_TIMEOUT_MS,
    rejectRateLimitedCalls: false,
    allowAbsoluteUrls: false,
    retryConfig: {
      retries: CLIENT_RETRIES,
      factor: 2,
      minTimeout: config.retryBaseMs,
      maxTimeout: config.retryBaseMs * 8,
      randomize: true,
    },
  });
  const openDm = async (chatUserId: string) => {
    const opened = await client.conversations.open({ users: chatUserId });
    const channel = opened.channel?.id;
    if (!channel) throw new ChatProtocolError('conversations.open returned no channel');
    return channel;
  };
  return {
    async sendDirect(chatUserId, text, recipientId) {
      const channel = await openDm(chatUserId);
      const posted = await client.chat.postMessage({
        channel,
        text,
        unfurl_links: false,
        unfurl_media: false,
        metadata: { event_type: MESSAGE_EVENT_TYPE, event_payload: { recipient_id: recipientId } },
      });
      if (!posted.ts) throw new ChatProtocolError('chat.postMessage returned no ts');
      return { channel, ts: posted.ts };
    },
    async findPosted(chatUserId, recipientId, oldestEpoch) {
      const channel = await openDm(chatUserId);
      const history = await client.conversations.history({
        channel,
        oldest: String(oldestEpoch),
        include_all_metadata: true,
        limit: 200,
      });
      const mine = (history.messages ?? []).find(
        (m) =>
          m.metadata?.event_type === MESSAGE_EVENT_TYPE &&
          Number(propOf(m.metadata.event_payload, 'recipient_id')) === recipientId,
      );
      return mine?.ts ?? null;
    },
  };
}

/** The provider answered `ok` without the field Muster needs: treated as permanent. */
export class ChatProtocolError extends Error {}

const RATE_LIMIT_MESSAGE = /rate limit was exceeded.*retry-after: (\d+)/i;

/** Maps what `sendDirect` threw to permanent / transient / rate-limited, with a short reason. */
export function classifyChatError(error: unknown): ChatFailure {
  if (error instanceof ChatProtocolError) return { kind: 'permanent', reason: error.message };
  const errorKind = errorCode(error);
  if (errorKind === 'slack_webapi_platform_error') {
    const code = stringProp(propOf(error, 'data'), 'error') ?? 'unknown_error';
    return TRANSIENT_ERRORS.has(code)
      ? { kind: 'transient', reason: code }
      : { kind: 'permanent', reason: code };
  }
  if (errorKind === 'slack_webapi_http_error') {
    const status = numberProp(error, 'statusCode') ?? 0;
    const reason = `http_${status}`;
    return status >= 500 || status === 408 ? { kind: 'transient', reason } : { kind: 'permanent', reason };
  }
  if (errorKind === 'slack_webapi_rate_limited_error') {
    const seconds = numberProp(error, 'retryAfter') ?? 30;
    return { kind: 'rate_limited', reason: 'ratelimited', retryAfterMs: seconds * 1000 };
  }
  const match = RATE_LIMIT_MESSAGE.exec(stringProp(error, 'message') ?? '');
  if (match) return { kind: 'rate_limited', reason: 'ratelimited', retryAfterMs: Number(match[1]) * 1000 };
  return {
    kind: 'transient',
    reason: errorKind === 'slack_webapi_request_error' ? 'network_error' : 'unknown_error',
  };
}
