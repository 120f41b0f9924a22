/**
 * Configuration: every environment variable Muster reads, validated once at start-up into a frozen
 * object. An invalid value stops the process with a message naming the variable (never a stack).
 * The README's "Configuration" table documents the same list.
 */

import os from 'node:os';
import path from 'node:path';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { type FlightsConfig, parseFlights } from './lib/flights-config.js';
import { propOf } from './lib/narrow.js';
import { type BackupConfig, type MetricsConfig, parseMetricsListen } from './lib/ops-config.js';
import {
  OUTBOUND_WEBHOOKS_ENV,
  type OutboundWebhooksConfig,
  parseOutboundWebhooks,
} from './lib/outbound-webhooks-config.js';

const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  MUSTER_DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  MUSTER_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  MUSTER_OPERATOR_DOMAINS: Type.String({ default: 'muster.example,events.muster.example' }),
  MUSTER_DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ minLength: 3, default: 'Muster <no-reply@muster.example>' }),
  MUSTER_OUTBOX_DIR: Type.Optional(Type.String({ minLength: 1 })),
  MUSTER_SECRET_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/=_-]{43,88}$' })),
  MUSTER_SECRET_KEY_PREVIOUS: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/=_-]{43,88}$' })),
  MUSTER_TRUST_PROXY: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
  MUSTER_WORKER: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'true' }),
  // Nice value `muster worker` sets on itself at start (lib/worker-nice.ts; docs/operations.md).
  MUSTER_WORKER_NICE: Type.Integer({ minimum: 0, maximum: 19, default: 0 }),
  MUSTER_OIDC_ISSUER: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  MUSTER_OIDC_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  MUSTER_OIDC_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  // POST /session with an upstream provider's authorization code (the deployed mobile app's sign-in).
  MUSTER_UPSTREAM_TOKEN_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  MUSTER_UPSTREAM_USERINFO_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  MUSTER_UPSTREAM_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  MUSTER_UPSTREAM_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  MUSTER_UPSTREAM_REDIRECT_URIS: Type.Optional(Type.String({ minLength: 1, maxLength: 20000 })),
  MUSTER_DEV_SIGN_IN: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
  MUSTER_EXPO_PUSH_URL: Type.String({ pattern: '^https?://[^\\s]+$', default: 'https://exp.host' }),
  MUSTER_EXPO_ACCESS_TOKEN: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  MUSTER_EXPO_RECEIPT_DELAY_SECONDS: Type.Integer({ minimum: 0, maximum: 86400, default: 900 }),
  // Check-in live scan stream (GET /events/{e}/scans/stream)
  MUSTER_SCAN_STREAM_POLL_MS: Type.Integer({ minimum: 20, maximum: 60000, default: 300 }),
  MUSTER_SCAN_STREAM_HEARTBEAT_MS: Type.Integer({ minimum: 100, maximum: 300000, default: 15000 }),
  // Retention (jobs/runner.ts, modules/retention): processed webhook dedupe rows and scan-feed entries.
  MUSTER_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  // Operations (docs/operations.md): metrics and backups.
  MUSTER_METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, maxLength: 500 })),
  MUSTER_METRICS_LISTEN: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F.:\\[\\]]+:[0-9]{1,5}$' })),
  MUSTER_BACKUP_DIR: Type.Optional(Type.String({ minLength: 1 })),
  MUSTER_BACKUP_INTERVAL_HOURS: Type.Number({ exclusiveMinimum: 0, maximum: 576, default: 24 }),
  MUSTER_BACKUP_KEEP: Type.Integer({ minimum: 1, maximum: 10000, default: 7 }),
  MUSTER_BACKUP_PASSPHRASE: Type.Optional(Type.String({ minLength: 12, maxLength: 1000 })),
  // Chat blasts: Slack-compatible Web API.
  MUSTER_CHAT_BASE_URL: Type.String({ pattern: '^https?://[^\\s]+$', default: 'https://slack.com/api/' }),
  MUSTER_CHAT_BOT_TOKEN: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  MUSTER_CHAT_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 50, default: 4 }),
  MUSTER_CHAT_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 50, default: 5 }),
  MUSTER_CHAT_LEASE_SECONDS: Type.Integer({ minimum: 2, maximum: 3600, default: 120 }),
  MUSTER_CHAT_RETRY_BASE_MS: Type.Integer({ minimum: 1, maximum: 600_000, default: 1000 }),
  // Inbound receivers and the e-signature client (docs/decisions.md "Messaging"; README "Provider webhooks").
  MUSTER_EMAIL_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 16, maxLength: 500 })),
  MUSTER_HELPDESK_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 8, maxLength: 500 })),
  MUSTER_ESIGN_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 16, maxLength: 500 })),
  MUSTER_CHAT_SIGNING_SECRET: Type.Optional(Type.String({ minLength: 8, maxLength: 500 })),
  MUSTER_ESIGN_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  MUSTER_ESIGN_API_KEY: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  MUSTER_ESIGN_TEMPLATES: Type.Optional(
    Type.String({
      pattern: '^\\s*[a-z_]+\\s*=\\s*[A-Za-z0-9_-]+\\s*(,\\s*[a-z_]+\\s*=\\s*[A-Za-z0-9_-]+\\s*)*$',
    }),
  ),
  // Flight-data provider (lib/flights-config.ts; docs/travel.md "Configuration").
  MUSTER_FLIGHTS_PROVIDER: Type.Optional(Type.String({ pattern: '^(none|demo|aerodatabox)$' })),
  MUSTER_FLIGHTS_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  MUSTER_FLIGHTS_API_KEY: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  MUSTER_FLIGHTS_BUDGET_PER_HOUR: Type.Integer({ minimum: 0, maximum: 100_000, default: 60 }),
  MUSTER_FLIGHTS_BUDGET_PER_DAY: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 600 }),
  MUSTER_FLIGHTS_POLL_MINUTES: Type.Integer({ minimum: 1, maximum: 60, default: 5 }),
  MUSTER_FLIGHTS_TIMEOUT_MS: Type.Integer({ minimum: 200, maximum: 60_000, default: 8000 }),
  // Outbound webhooks (docs/webhooks.md "Outbound").
  ...OUTBOUND_WEBHOOKS_ENV,
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  /** PostgreSQL connection string; when absent the embedded database in `dataDir` is used. */
  readonly databaseUrl: string | undefined;
  /** Folder of the embedded PGlite database (`memory://` keeps it in memory, for tests). */
  readonly dataDir: string;
  /** Public base URL used in links (emails, docs); defaults to http://HOST:PORT. */
  readonly baseUrl: string;
  /** Lower-cased domains an event `support_email` may use (spec: operator-controlled domains). */
  readonly operatorDomains: readonly string[];
  readonly dbPoolSize: number;
  readonly logLevel: string;
  /** SMTP server URL (`smtp://user:pass@host:587`); when absent, emails go to `outboxDir`. */
  readonly smtpUrl: string | undefined;
  /** Default sender of system emails (sign-in codes, key notices). */
  readonly mailFrom: string;
  /** Folder for .eml files when no SMTP server is configured. */
  readonly outboxDir: string;
  /** 32-byte key (base64) sealing secrets inside queued jobs; see lib/sealed.ts for the fallback. */
  readonly secretKey: string | undefined;
  /** The key being rotated out (MUSTER_SECRET_KEY_PREVIOUS): opens and verifies, never seals. */
  readonly previousSecretKey: string | undefined;
  /** Trust X-Forwarded-For (behind a reverse proxy) for client IPs used by rate limits. */
  readonly trustProxy: boolean;
  /** Whether `muster serve` also runs the job worker in-process. */
  readonly runWorker: boolean;
  /** MUSTER_WORKER_NICE: the CPU nice value (0–19) `muster worker` sets on itself at start. */
  readonly workerNice: number;
  /** Upstream OpenID Connect provider offered on the sign-in page; null when not configured. */
  readonly oidc: OidcConfig | null;
  /** Upstream authorization codes accepted by POST /session (MUSTER_UPSTREAM_*); null when not configured. */
  readonly upstreamExchange: UpstreamExchangeConfig | null;
  /** MUSTER_DEV_SIGN_IN: POST /session accepts `{dev_email}` (development only; default off). */
  readonly devSignIn: boolean;
  /** Base URL of Expo's push service (`{base}/--/api/v2/push/send`); a local fake in tests. */
  readonly expoPushUrl: string;
  /** Expo access token (enhanced push security); sent as a bearer token when set. */
  readonly expoAccessToken: string | undefined;
  /** Seconds between sending a push and checking its Expo receipt (push-receipts job). */
  readonly expoReceiptDelaySeconds: number;
  /** Check-in live stream: feed poll interval and SSE heartbeat comment interval (ms). */
  readonly scanStreamPollMs: number;
  /** Days a processed webhook_events row and a scan_feed entry are kept (daily prune job). */
  readonly retentionDays: number;
  readonly scanStreamHeartbeatMs: number;
  /** Chat blasts: the Slack-compatible provider and the delivery worker's tuning. */
  readonly chat: ChatConfig;
  /** Shared secrets of the inbound receivers; a receiver whose secret is unset answers 503. */
  readonly webhookSecrets: WebhookSecrets;
  /** DocuSeal-style e-signature API; null when MUSTER_ESIGN_URL / MUSTER_ESIGN_API_KEY are unset. */
  readonly esign: EsignConfig | null;
  /** Prometheus metrics (docs/operations.md "Metrics"). */
  readonly metrics: MetricsConfig;
  /** Backups of the database (docs/operations.md "Backups"). */
  readonly backup: BackupConfig;
  /** Flight-data provider for flight checks and live tracking (MUSTER_FLIGHTS_*). */
  readonly flights: FlightsConfig;
  /** Outbound webhooks: target rules and the dispatcher's tuning (lib/outbound-webhooks-config.ts). */
  readonly outboundWebhooks: OutboundWebhooksConfig;
}

export interface ChatConfig {
  /** Web API base URL, ending in `/` (`{base}conversations.open`); Slack's by default. */
  readonly baseUrl: string;
  /** Bot token (secret, never logged); absent → POST chat_blasts answers 503. */
  readonly botToken: string | undefined;
  /** Recipients in flight at once per worker. */
  readonly concurrency: number;
  /** Delivery attempts per recipient before a transient error becomes `failed`. */
  readonly maxAttempts: number;
  /** A claim older than this (seconds) is retaken by another worker (crash recovery). */
  readonly leaseSeconds: number;
  /** Base delay (ms) of the provider client's retries and of the per-recipient backoff. */
  readonly retryBaseMs: number;
}

export interface WebhookSecrets {
  readonly email: string | undefined;
  readonly helpdesk: string | undefined;
  readonly esign: string | undefined;
  readonly chat: string | undefined;
}

export interface EsignConfig {
  readonly url: string;
  readonly apiKey: string;
  /** Consent type (`waiver`, `freedom_waiver`, `code_of_conduct`) → provider template id. */
  readonly templates: Readonly<Record<string, string>>;
}

export interface OidcConfig {
  readonly issuer: string;
  readonly clientId: string;
  /** Absent: a public client (PKCE only, no client authentication). */
  readonly clientSecret: string | undefined;
}

/**
 * The upstream OAuth 2.0 provider whose authorization codes POST /session exchanges server-side
 * (modules/signin/upstream-exchange.service.ts): its token and userinfo endpoints, Muster's client
 * there, and the redirect URIs the app may have used (exact strings).
 */
export interface UpstreamExchangeConfig {
  tokenUrl: string;
  userinfoUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUris: readonly string[];
}

export class ConfigError extends Error {}

/** Parses `env` (default `process.env`) into a frozen Config; throws ConfigError naming the bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(EnvSchema.properties)) {
    const value = env[key];
    if (value === undefined || value === '') continue;
    // The conversion below would truncate "2.5" to 2: a whole-number setting must be written as one.
    if (propOf(schema, 'type') === 'integer' && !/^-?\d+$/.test(value.trim()))
      throw new ConfigError(`Invalid configuration: ${key} must be a whole number (got "${value}")`);
    raw[key] = value;
  }
  const converted = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  const errors = [...Value.Errors(EnvSchema, converted)];
  if (errors.length > 0) {
    const first = errors[0]!;
    const name = first.instancePath.replace(/^\//, '') || 'environment';
    throw new ConfigError(`Invalid configuration: ${name} ${first.message}`);
  }
  const e = converted as Static<typeof EnvSchema>;
  const operatorDomains = e.MUSTER_OPERATOR_DOMAINS.split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  if (operatorDomains.length === 0)
    throw new ConfigError('Invalid configuration: MUSTER_OPERATOR_DOMAINS is empty');
  const oidc = parseOidc(e);
  const esign = parseEsign(e);
  const flights = parseFlights(e as Parameters<typeof parseFlights>[0], !e.DATABASE_URL);
  if (typeof flights === 'string') throw new ConfigError(`Invalid configuration: ${flights}`);
  const metricsListen = parseMetricsListen(e.MUSTER_METRICS_LISTEN);
  if (typeof metricsListen === 'string') throw new ConfigError(`Invalid configuration: ${metricsListen}`);
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.MUSTER_DATA_DIR,
    baseUrl: (e.MUSTER_BASE_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/$/, ''),
    operatorDomains: Object.freeze(operatorDomains),
    dbPoolSize: e.MUSTER_DB_POOL_SIZE,
    logLevel: e.LOG_LEVEL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    outboxDir:
      e.MUSTER_OUTBOX_DIR ??
      (e.MUSTER_DATA_DIR === 'memory://'
        ? path.join(os.tmpdir(), 'muster-outbox')
        : path.join(e.MUSTER_DATA_DIR, 'outbox')),
    secretKey: e.MUSTER_SECRET_KEY,
    previousSecretKey: e.MUSTER_SECRET_KEY_PREVIOUS,
    runWorker: e.MUSTER_WORKER === 'true',
    workerNice: e.MUSTER_WORKER_NICE,
    trustProxy: e.MUSTER_TRUST_PROXY === 'true',
    oidc,
    upstreamExchange: parseUpstreamExchange(e),
    devSignIn: e.MUSTER_DEV_SIGN_IN === 'true',
    expoPushUrl: e.MUSTER_EXPO_PUSH_URL.replace(/\/+$/, ''),
    expoAccessToken: e.MUSTER_EXPO_ACCESS_TOKEN,
    expoReceiptDelaySeconds: e.MUSTER_EXPO_RECEIPT_DELAY_SECONDS,
    scanStreamPollMs: e.MUSTER_SCAN_STREAM_POLL_MS,
    retentionDays: e.MUSTER_RETENTION_DAYS,
    scanStreamHeartbeatMs: e.MUSTER_SCAN_STREAM_HEARTBEAT_MS,
    chat: Object.freeze({
      baseUrl: `${e.MUSTER_CHAT_BASE_URL.replace(/\/+$/, '')}/`,
      botToken: e.MUSTER_CHAT_BOT_TOKEN,
      concurrency: e.MUSTER_CHAT_CONCURRENCY,
      maxAttempts: e.MUSTER_CHAT_MAX_ATTEMPTS,
      leaseSeconds: e.MUSTER_CHAT_LEASE_SECONDS,
      retryBaseMs: e.MUSTER_CHAT_RETRY_BASE_MS,
    }),
    webhookSecrets: Object.freeze({
      email: e.MUSTER_EMAIL_WEBHOOK_SECRET,
      helpdesk: e.MUSTER_HELPDESK_WEBHOOK_SECRET,
      esign: e.MUSTER_ESIGN_WEBHOOK_SECRET,
      chat: e.MUSTER_CHAT_SIGNING_SECRET,
    }),
    esign,
    metrics: Object.freeze({
      token: e.MUSTER_METRICS_TOKEN,
      listen: metricsListen,
    }),
    backup: Object.freeze({
      dir: e.MUSTER_BACKUP_DIR ?? null,
      intervalHours: e.MUSTER_BACKUP_INTERVAL_HOURS,
      keep: e.MUSTER_BACKUP_KEEP,
      passphrase: e.MUSTER_BACKUP_PASSPHRASE,
    }),
    flights,
    outboundWebhooks: parseOutboundWebhooks(e),
  });
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Issuer and client id come together; plain http only for a loopback issuer (development, tests). */
function parseOidc(e: Static<typeof EnvSchema>): OidcConfig | null {
  const issuer = e.MUSTER_OIDC_ISSUER;
  if (!issuer) {
    if (e.MUSTER_OIDC_CLIENT_ID || e.MUSTER_OIDC_CLIENT_SECRET)
      throw new ConfigError(
        'Invalid configuration: MUSTER_OIDC_ISSUER is required with MUSTER_OIDC_CLIENT_ID',
      );
    return null;
  }
  if (!e.MUSTER_OIDC_CLIENT_ID)
    throw new ConfigError('Invalid configuration: MUSTER_OIDC_CLIENT_ID is required with MUSTER_OIDC_ISSUER');
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError('Invalid configuration: MUSTER_OIDC_ISSUER is not a URL');
  }
  if (url.protocol !== 'https:' && !LOOPBACK_HOSTS.has(url.hostname))
    throw new ConfigError(
      'Invalid configuration: MUSTER_OIDC_ISSUER must use https (http only for localhost)',
    );
  return Object.freeze({
    issuer,
    clientId: e.MUSTER_OIDC_CLIENT_ID,
    clientSecret: e.MUSTER_OIDC_CLIENT_SECRET,
  });
}

const UPSTREAM_VARS = [
  'MUSTER_UPSTREAM_TOKEN_URL',
  'MUSTER_UPSTREAM_USERINFO_URL',
  'MUSTER_UPSTREAM_CLIENT_ID',
  'MUSTER_UPSTREAM_CLIENT_SECRET',
  'MUSTER_UPSTREAM_REDIRECT_URIS',
] as const;

/** All five MUSTER_UPSTREAM_* together or none; https endpoints (http only for a loopback host). */
function parseUpstreamExchange(e: Static<typeof EnvSchema>): UpstreamExchangeConfig | null {
  const missing = UPSTREAM_VARS.filter((name) => !e[name]);
  if (missing.length === UPSTREAM_VARS.length) return null;
  if (missing.length > 0)
    throw new ConfigError(
      `Invalid configuration: ${missing.join(', ')} required with ${UPSTREAM_VARS.filter((n) => !missing.includes(n)).join(', ')}`,
    );
  for (const name of ['MUSTER_UPSTREAM_TOKEN_URL', 'MUSTER_UPSTREAM_USERINFO_URL'] as const) {
    const url = URL.parse(e[name]!);
    if (!url) throw new ConfigError(`Invalid configuration: ${name} is not a URL`);
    if (url.protocol !== 'https:' && !LOOPBACK_HOSTS.has(url.hostname))
      throw new ConfigError(`Invalid configuration: ${name} must use https (http only for localhost)`);
  }
  const redirectUris = e
    .MUSTER_UPSTREAM_REDIRECT_URIS!.split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (redirectUris.length === 0 || redirectUris.some((u) => !URL.canParse(u)))
    throw new ConfigError(
      'Invalid configuration: MUSTER_UPSTREAM_REDIRECT_URIS must be a comma-separated list of URIs',
    );
  return Object.freeze({
    tokenUrl: e.MUSTER_UPSTREAM_TOKEN_URL!,
    userinfoUrl: e.MUSTER_UPSTREAM_USERINFO_URL!,
    clientId: e.MUSTER_UPSTREAM_CLIENT_ID!,
    clientSecret: e.MUSTER_UPSTREAM_CLIENT_SECRET!,
    redirectUris: Object.freeze(redirectUris),
  });
}

/** The e-signature API needs both URL and key; templates are `type=id` pairs. */
function parseEsign(e: Static<typeof EnvSchema>): EsignConfig | null {
  if (!e.MUSTER_ESIGN_URL && !e.MUSTER_ESIGN_API_KEY) return null;
  if (!e.MUSTER_ESIGN_URL || !e.MUSTER_ESIGN_API_KEY)
    throw new ConfigError('Invalid configuration: MUSTER_ESIGN_URL and MUSTER_ESIGN_API_KEY go together');
  const templates: Record<string, string> = {};
  for (const pair of (e.MUSTER_ESIGN_TEMPLATES ?? '').split(',')) {
    const [type, id] = pair.split('=').map((s) => s.trim());
    if (type && id) templates[type] = id;
  }
  return Object.freeze({
    url: e.MUSTER_ESIGN_URL.replace(/\/+$/, ''),
    apiKey: e.MUSTER_ESIGN_API_KEY,
    templates: Object.freeze(templates),
  });
}
