/**
 * Runs the outbound-webhook authorization-matrix rows (test/access/rows/outbound-webhooks.ts)
 * against the real database: exact status and error body per cell, and for every refused cell the
 * webhook tables and the audit log unchanged. Each cell that names a webhook gets its own fixture
 * (endpoint and one delivery) on the cell's target, so an allowed DELETE never finds it gone. No
 * dispatcher runs: nothing is delivered; created URLs are public literal addresses (no DNS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  type OutboundWebhookRow,
  outboundWebhookRouteKeys,
  outboundWebhookRows,
} from '../access/rows/outbound-webhooks.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await startTestApp();
  w = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';

async function fixture(owner: { eventId: number | null; seriesId: string | null }) {
  const pool = t.deps.database.pool;
  const hook = await pool.query<{ id: number }>(
    `INSERT INTO webhook_endpoints (event_id, series_id, url, event_types, secret_sealed)
     VALUES ($1, $2, 'https://93.184.216.34/hook', ARRAY['scan.created'], 'v1.x.y.z') RETURNING id`,
    [owner.eventId, owner.seriesId],
  );
  const msg = await pool.query<{ id: number }>(
    `INSERT INTO webhook_messages (msg_id, event_id, type, body) VALUES ('msg_' || md5(random()::text), $1, 'ping', '{}') RETURNING id`,
    [owner.eventId],
  );
  const delivery = await pool.query<{ id: number }>(
    `INSERT INTO webhook_deliveries (endpoint_id, message_id, status, next_attempt_at) VALUES ($1, $2, 'failed', now()) RETURNING id`,
    [hook.rows[0]!.id, msg.rows[0]!.id],
  );
  return { id: hook.rows[0]!.id, deliveryId: Number(delivery.rows[0]!.id) };
}

async function prepare(row: OutboundWebhookRow) {
  const [name, form] = row.target.split(':') as [string, string];
  let base: string;
  let owner: { eventId: number | null; seriesId: string | null };
  if (row.kind === 'event') {
    const event = name === 'X' ? null : w.events[name as 'A' | 'B' | 'C'];
    base = `/api/v1/events/${event ? (form === 'uuid' ? event.uuid : event.id) : '99999999'}/webhooks`;
    owner = { eventId: event?.id ?? w.events.A.id, seriesId: null };
  } else {
    const series = name === 'X' ? null : w.series[name as 'S1' | 'S2'];
    base = `/api/v1/series/${series ? (form === 'slug' ? series.slug : series.id) : MISSING_UUID}/webhooks`;
    owner = { eventId: null, seriesId: series?.id ?? w.series.S1.id };
  }
  const f = row.suffix.includes(':id') ? await fixture(owner) : { id: 1, deliveryId: 1 };
  const url = base + row.suffix.replace(':id', String(f.id)).replace(':delivery_id', String(f.deliveryId));
  const payload =
    row.method === 'POST' && row.suffix === ''
      ? { url: 'https://93.184.216.34/hook', event_types: ['scan.created'] }
      : row.method === 'PATCH'
        ? { description: 'Matrix' }
        : undefined;
  return { method: row.method, url, ...(payload ? { payload } : {}) };
}

async function counts(): Promise<string> {
  const { rows } = await t.deps.database.pool.query(
    `SELECT (SELECT count(*) FROM webhook_endpoints) e, (SELECT count(*) FROM webhook_messages) m,
            (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') d, (SELECT count(*) FROM audit_log) a,
            (SELECT coalesce(string_agg(description || secret_sealed || enabled, ',' ORDER BY id), '') FROM webhook_endpoints) s`,
  );
  return JSON.stringify(rows[0]);
}

describe('outbound webhook rows', () => {
  it('cover every registered outbound webhook route', () => {
    const registered = registeredRoutes(t.app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => /^[A-Z]+ \/api\/v1\/(events|series)\/:[a-z_]+\/webhooks/.test(k))
      .sort();
    expect(registered).toEqual([...outboundWebhookRouteKeys].sort());
  });

  it.each(
    outboundWebhookRows.map(
      (r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const,
    ),
  )('%s', async (_name, row) => {
    const request = await prepare(row);
    const before = row.expected.status >= 400 ? await counts() : '';
    const res = await t.app.inject({ ...request, headers: bearer(w.secrets[row.principal]) });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    if (row.expected.error !== undefined) expect(res.json()).toEqual({ error: row.expected.error });
    if (row.expected.status >= 400) expect(await counts()).toBe(before);
  });
});
