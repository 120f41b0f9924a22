/**
 * A real local HTTP server speaking the Slack Web API subset Muster uses (`POST {base}/api/
 * conversations.open {users}` → `{ok, channel:{id}}`; `POST {base}/api/chat.postMessage {channel,
 * text}` → `{ok, channel, ts}`), with form-encoded or JSON bodies and a bearer token. Slack answers
 * HTTP 200 with `{ok:false, error}` for API errors, 429 + `Retry-After` when rate limited.
 *
 * Injection: `permanent` (chat user id → error code, answered by conversations.open),
 * `transient` (chat user id → how many of its next requests answer HTTP 503), `rateLimitNext(n,
 * seconds)` (the next n requests answer 429 `ratelimited`). `deliveries` records every posted
 * message; `maxInFlight` the highest number of concurrent requests seen.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackDelivery {
  user: string;
  channel: string;
  text: string;
  ts: string;
  metadata: { event_type: string; event_payload: Record<string, unknown> } | null;
}

export interface FakeSlack {
  /** Base URL to configure as MUSTER_CHAT_BASE_URL (ends in `/api/`). */
  apiUrl: string;
  token: string;
  deliveries: SlackDelivery[];
  permanent: Map<string, string>;
  transient: Map<string, number>;
  rateLimitNext(n: number, retryAfterSeconds: number): void;
  /** Requests answered 429 / 503 so far. */
  stats: {
    requests: number;
    rateLimited: number;
    serverErrors: number;
    maxInFlight: number;
    historyLookups: number;
  };
  /** Requests after each 429, with the ms elapsed since that 429 (pause evidence). */
  afterRateLimit: number[];
  /** Per-request artificial latency (ms). */
  latencyMs: number;
  /** When set, conversations.history answers this error (e.g. `missing_scope`). */
  historyError: string | null;
  sentTo(user: string): number;
  waitFor(test: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const METHODS = ['conversations.open', 'chat.postMessage', 'conversations.history'];

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/json')) return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  const form: Record<string, unknown> = Object.fromEntries(new URLSearchParams(raw));
  // The WebClient form-encodes nested objects as JSON strings.
  if (typeof form.metadata === 'string') form.metadata = JSON.parse(form.metadata);
  return form;
}

export async function startFakeSlack(token = 'xoxb-test-token'): Promise<FakeSlack> {
  let rateLimited = 0;
  let retryAfter = 1;
  let lastRateLimitAt = 0;
  let seq = 0;
  let inFlight = 0;
  const counts = new Map<string, number>();
  const fake = {
    token,
    deliveries: [] as SlackDelivery[],
    permanent: new Map<string, string>(),
    transient: new Map<string, number>(),
    stats: { requests: 0, rateLimited: 0, serverErrors: 0, maxInFlight: 0, historyLookups: 0 },
    afterRateLimit: [] as number[],
    latencyMs: 0,
    historyError: null as string | null,
  };
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown, headers = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  const server = createServer(async (req, res) => {
    inFlight++;
    fake.stats.maxInFlight = Math.max(fake.stats.maxInFlight, inFlight);
    try {
      const body = await readBody(req);
      fake.stats.requests++;
      if (lastRateLimitAt > 0 && rateLimited === 0) {
        fake.afterRateLimit.push(Date.now() - lastRateLimitAt);
        lastRateLimitAt = 0;
      }
      if (fake.latencyMs > 0) await new Promise((r) => setTimeout(r, fake.latencyMs));
      const method = req.url?.replace(/^\/api\//, '') ?? '';
      if (req.method !== 'POST' || !METHODS.includes(method))
        return json(res, 404, { ok: false, error: 'unknown_method' });
      const auth = req.headers.authorization;
      if (!auth) return json(res, 200, { ok: false, error: 'not_authed' });
      if (auth !== `Bearer ${token}`) return json(res, 200, { ok: false, error: 'invalid_auth' });
      if (rateLimited > 0) {
        rateLimited--;
        fake.stats.rateLimited++;
        lastRateLimitAt = Date.now();
        return json(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(retryAfter) });
      }
      const user = String(
        method === 'conversations.open' ? (body.users ?? '') : (body.channel ?? ''),
      ).replace(/^D/, '');
      if (!user) return json(res, 200, { ok: false, error: 'invalid_arguments' });
      const failures = fake.transient.get(user) ?? 0;
      if (failures > 0) {
        fake.transient.set(user, failures - 1);
        fake.stats.serverErrors++;
        return json(res, 503, { ok: false, error: 'service_unavailable' });
      }
      if (method === 'conversations.open') {
        const error = fake.permanent.get(user);
        if (error) return json(res, 200, { ok: false, error });
        return json(res, 200, { ok: true, channel: { id: `D${user}` } });
      }
      if (method === 'conversations.history') {
        if (fake.historyError) return json(res, 200, { ok: false, error: fake.historyError });
        const oldest = Number(body.oldest ?? 0);
        const messages = fake.deliveries
          .filter((d) => d.channel === body.channel && Number(d.ts) > oldest)
          .reverse()
          .map((d) => ({
            type: 'message',
            ts: d.ts,
            text: d.text,
            ...(body.include_all_metadata && d.metadata ? { metadata: d.metadata } : {}),
          }));
        fake.stats.historyLookups++;
        return json(res, 200, { ok: true, messages, has_more: false });
      }
      if (!body.text) return json(res, 200, { ok: false, error: 'no_text' });
      const ts = `${Math.floor(Date.now() / 1000)}.${String(++seq).padStart(6, '0')}`;
      const metadata = (body.metadata ?? null) as SlackDelivery['metadata'];
      fake.deliveries.push({ user, channel: String(body.channel), text: String(body.text), ts, metadata });
      counts.set(user, (counts.get(user) ?? 0) + 1);
      return json(res, 200, { ok: true, channel: body.channel, ts });
    } catch {
      return json(res, 400, { ok: false, error: 'invalid_json' });
    } finally {
      inFlight--;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    rateLimitNext(n: number, seconds: number) {
      rateLimited = n;
      retryAfter = seconds;
    },
    sentTo: (user: string) => counts.get(user) ?? 0,
    async waitFor(test: () => boolean, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!test()) {
        if (Date.now() > deadline) throw new Error('fake Slack: condition not met in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
