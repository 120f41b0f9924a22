/**
 * Crash safety of outbound webhooks (issue 29 "Done when"; docs/webhooks.md "Outbound", "Delivery
 * that loses nothing"): 5,000 scans posted through the HTTP API of a real `muster serve` process
 * (with its worker) while that process is SIGKILLed twice mid-delivery and started again each
 * time. Scans whose request died with the server are posted again with the same `client_scan_id`
 * (the door's offline-replay rule), so the database ends with exactly 5,000 scans. A real local
 * receiver verifies every delivery with the `standardwebhooks` package; after deduplication by
 * `webhook-id` it holds exactly one `scan.created` per stored scan, none missing, none for a scan
 * that does not exist, and every repeat of a `webhook-id` carries the same body.
 *
 * PostgreSQL only: the embedded database is a single-process folder (skipped without DATABASE_URL),
 * as the chat blast's crash test (test/messaging/crash.test.ts) whose process helpers it shares.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { freePort, killAll, type MusterProcess, startMuster } from '../support/processes.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { buildWorld, type World } from '../support/world.js';

const SCANS = 5000;
const KILL_AT = [1200, 3000]; // deliveries received before each SIGKILL
const POSTERS = 16; // scans in flight at once
const onPostgres = Boolean(process.env.DATABASE_URL);
const SECRET_KEY = Buffer.alloc(32, 13).toString('base64');

let t: TestApp;
let w: World;
let rx: Receiver;
let env: Record<string, string>;
let base: string;

afterAll(killAll);

beforeAll(async () => {
  if (!onPostgres) return;
  rx = await startReceiver();
  const hooks = {
    MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true',
    MUSTER_WEBHOOKS_RETRY_SCHEDULE: '0,0.5,1,1,1,1,1,1',
    MUSTER_WEBHOOKS_POLL_MS: '50',
    MUSTER_WEBHOOKS_TIMEOUT_MS: '2000', // lease = 12 s: a killed worker's claims are due again then
  };
  t = await startTestApp({ ...hooks, MUSTER_SECRET_KEY: SECRET_KEY });
  w = await buildWorld(t.deps);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
    ...(process.env as Record<string, string>),
    ...hooks,
    DATABASE_URL: String(t.deps.config.databaseUrl ?? ''),
    MUSTER_SECRET_KEY: SECRET_KEY,
    MUSTER_BASE_URL: base,
    PORT: String(port),
    LOG_LEVEL: 'silent',
  };
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rx?.close();
});

async function until(test: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!onPostgres)('5,000 scans with the server SIGKILLed twice mid-delivery (PostgreSQL)', () => {
  it('the receiver ends with exactly one delivery per scan after deduplication by webhook-id', async () => {
    const auth = { authorization: `Bearer ${w.users.eventAdmin.mobile}`, 'content-type': 'application/json' };
    const api = `${base}/api/v1/events/${w.events.A.id}`;
    let server: MusterProcess = startMuster(['serve', '--json'], env);
    await server.started();
    const created = await fetch(`${api}/webhooks`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: rx.url, event_types: ['scan.created'] }),
    });
    expect(created.status).toBe(201);
    const secret = ((await created.json()) as { webhook: { secret: string } }).webhook.secret;

    // The door: POSTERS loops posting scans; a request that fails (the server is down) is posted
    // again with the same client_scan_id until it is acknowledged.
    const participants = [w.regs.adultA.id];
    let next = 0;
    let retried = 0;
    const postOne = async (i: number) => {
      for (;;) {
        try {
          const res = await fetch(`${api}/scans`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({
              participant_id: String(participants[i % participants.length]),
              scan_context_id: w.contexts.lunchA,
              client_scan_id: `crash-${i}`,
            }),
          });
          if (res.status === 200) return;
          if (res.status < 500) throw new Error(`scan ${i}: ${res.status} ${await res.text()}`);
        } catch (error) {
          if (error instanceof Error && error.message.startsWith('scan ')) throw error;
        }
        retried++;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const door = Promise.all(
      Array.from({ length: POSTERS }, async () => {
        while (next < SCANS) await postOne(next++);
      }),
    );

    const started = Date.now();
    for (const threshold of KILL_AT) {
      await until(() => rx.received.length >= threshold, 300_000, `${threshold} deliveries`);
      await server.stop('SIGKILL');
      server = startMuster(['serve', '--json'], env);
      await server.started();
    }
    await door;
    const pool = t.deps.database.pool;
    const pending = async () =>
      (
        await pool.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded')::int
                + (SELECT count(*) FROM webhook_messages WHERE awaiting_fanout)::int AS n`,
        )
      ).rows[0]!.n;
    await until(async () => (await pending()) === 0, 300_000, 'every delivery to succeed');
    const seconds = (Date.now() - started) / 1000;
    await server.stop('SIGTERM');

    const scans = (
      await pool.query<{ id: number }>(
        "SELECT id::int AS id FROM scans WHERE client_scan_id LIKE 'crash-%' ORDER BY id",
      )
    ).rows.map((r) => r.id);
    expect(scans).toHaveLength(SCANS);

    // Every delivery verifies; repeats of a webhook-id are the same message.
    const byId = new Map<string, string>();
    for (const r of rx.received) {
      expect(() => rx.verify(r, secret)).not.toThrow();
      const seen = byId.get(r.id);
      if (seen !== undefined) expect(r.body).toBe(seen);
      byId.set(r.id, r.body);
    }
    const scanIds = [...byId.values()]
      .map((b) => JSON.parse(b) as { type: string; data: { scan_id: number } })
      .filter((m) => m.type === 'scan.created')
      .map((m) => m.data.scan_id)
      .sort((a, b) => a - b);
    expect(scanIds).toHaveLength(SCANS); // one webhook-id per scan…
    expect(scanIds).toEqual(scans); // …for exactly the stored scans, none missing
    const repeats = rx.received.length - byId.size;
    console.log(
      `webhook crash test: ${SCANS} scans, ${KILL_AT.length} SIGKILLs, ${rx.received.length} deliveries ` +
        `(${repeats} repeated webhook-ids), ${retried} scan requests retried, ${seconds.toFixed(1)} s`,
    );
  }, 900_000);
});
