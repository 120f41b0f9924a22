/**
 * Outbound webhooks configuration (docs/webhooks.md "Outbound", table of variables): the
 * environment variables, validated with the rest in config.ts, and their parsed form.
 */
import { Type } from 'typebox';

/** The Standard Webhooks retry schedule (seconds before each attempt): 8 attempts over ~27.6 h. */
export const STANDARD_SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 36000] as const;

export const OUTBOUND_WEBHOOKS_ENV = {
  MUSTER_WEBHOOKS_ALLOW_PRIVATE: Type.Union([Type.Literal('true'), Type.Literal('false')], {
    default: 'false',
  }),
  MUSTER_WEBHOOKS_RETRY_SCHEDULE: Type.Optional(
    Type.String({ pattern: '^\\s*\\d+(\\.\\d+)?\\s*(,\\s*\\d+(\\.\\d+)?\\s*){0,19}$' }),
  ),
  MUSTER_WEBHOOKS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 15_000 }),
  MUSTER_WEBHOOKS_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 200, default: 16 }),
  MUSTER_WEBHOOKS_POLL_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 200 }),
  MUSTER_WEBHOOKS_DISABLE_AFTER_HOURS: Type.Number({ minimum: 0, maximum: 8760, default: 120 }),
  MUSTER_WEBHOOKS_MAX_DEFER_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 10_000 }),
  MUSTER_WEBHOOKS_GIVE_WAY_AT: Type.Integer({ minimum: 1, maximum: 100_000, default: 16 }),
  MUSTER_WEBHOOKS_DNS_SERVERS: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F:.\\[\\],\\s]+$' })),
};

export interface OutboundWebhooksConfig {
  /** http to loopback hosts and private/loopback/link-local addresses allowed (development, tests). */
  readonly allowPrivate: boolean;
  /** Seconds to wait before attempt n+1 (index 0: the first attempt); its length = attempts in all. */
  readonly retrySchedule: readonly number[];
  /** An attempt that has no complete answer after this long fails (ms). */
  readonly timeoutMs: number;
  /** Deliveries in flight at once per worker process. */
  readonly concurrency: number;
  /** How often the dispatcher looks for due deliveries when idle (ms). */
  readonly pollMs: number;
  /** An endpoint failing for this long is switched off and its creator emailed (hours). */
  readonly disableAfterHours: number;
  /**
   * Longest wait in a row (ms) for deliveries while the process is busy serving the API
   * (give-way.ts); 0: never wait.
   */
  readonly maxDeferMs: number;
  /** API requests in progress in this process at which deliveries wait (give-way.ts). */
  readonly giveWayAt: number;
  /** DNS servers for resolving endpoint hosts (`ip[:port]`, comma separated); unset: the system resolver. */
  readonly dnsServers: readonly string[];
}

export function parseOutboundWebhooks(e: {
  MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true' | 'false';
  MUSTER_WEBHOOKS_RETRY_SCHEDULE?: string | undefined;
  MUSTER_WEBHOOKS_TIMEOUT_MS: number;
  MUSTER_WEBHOOKS_CONCURRENCY: number;
  MUSTER_WEBHOOKS_POLL_MS: number;
  MUSTER_WEBHOOKS_DISABLE_AFTER_HOURS: number;
  MUSTER_WEBHOOKS_MAX_DEFER_MS: number;
  MUSTER_WEBHOOKS_GIVE_WAY_AT: number;
  MUSTER_WEBHOOKS_DNS_SERVERS?: string | undefined;
}): OutboundWebhooksConfig {
  const schedule = e.MUSTER_WEBHOOKS_RETRY_SCHEDULE?.split(',').map((s) => Number(s.trim()));
  return Object.freeze({
    allowPrivate: e.MUSTER_WEBHOOKS_ALLOW_PRIVATE === 'true',
    retrySchedule: Object.freeze(schedule ?? [...STANDARD_SCHEDULE]),
    timeoutMs: e.MUSTER_WEBHOOKS_TIMEOUT_MS,
    concurrency: e.MUSTER_WEBHOOKS_CONCURRENCY,
    pollMs: e.MUSTER_WEBHOOKS_POLL_MS,
    disableAfterHours: e.MUSTER_WEBHOOKS_DISABLE_AFTER_HOURS,
    maxDeferMs: e.MUSTER_WEBHOOKS_MAX_DEFER_MS,
    giveWayAt: e.MUSTER_WEBHOOKS_GIVE_WAY_AT,
    dnsServers: Object.freeze(
      (e.MUSTER_WEBHOOKS_DNS_SERVERS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  });
}
