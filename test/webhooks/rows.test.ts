/**
 * Runs the inbound-receiver matrix rows (test/access/rows/webhooks.ts): every principal's bearer
 * credential is sent along and changes nothing; refused cells, replayed, leave the database and the
 * job queue unchanged.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailLogRows, type SuppressionMatrixRow, suppressionRows } from '../access/rows/email-log.js';
import { type WebhookMatrixRow, webhookRows } from '../access/rows/webhooks.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';
import { SECRETS, signedRequest, webhookJobCount } from './helpers.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp(SECRETS);
  world = await buildWorld(t.deps);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

let n = 0;
function bodyFor(row: WebhookMatrixRow): string {
  n += 1;
  const id = `${row.principal}-${row.target}-${n}`;
  switch (row.provider) {
    case 'email':
      return JSON.stringify({ RecordType: 'Delivery', MessageID: id, Recipient: `${n}@example.org` });
    case 'helpdesk':
      return JSON.stringify({ id, subject: 'Matrix' });
    case 'esign':
      return JSON.stringify({ event_type: 'form.viewed', timestamp: '2026-11-24T10:00:00Z', data: { id } });
    case 'chat':
      return JSON.stringify({ type: 'event_callback', event_id: id, event: { type: 'message' } });
  }
}

function send(row: WebhookMatrixRow) {
  const body = bodyFor(row);
  const auth = bearer(world.secrets[row.principal]);
  const signed =
    row.target === 'stale'
      ? row.provider === 'helpdesk'
        ? signedRequest(row.provider, body, { secret: 'wrong-secret-value', headers: auth })
        : signedRequest(row.provider, body, { timestamp: Math.floor(Date.now() / 1000) - 600, headers: auth })
      : signedRequest(row.provider, body, { headers: auth });
  if (row.target === 'unsigned')
    return t.app.inject({ ...signed, headers: { 'content-type': 'application/json', ...auth } });
  return t.app.inject(signed);
}

describe('inbound receiver rows', () => {
  it('cover every principal on every receiver', () => {
    expect(webhookRows).toHaveLength(PRINCIPALS.length * 4 * 3);
  });

  it.each(
    webhookRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body).toBe(row.expected.status);
    if (row.expected.error !== undefined) expect(res.json()).toEqual({ error: row.expected.error });
    else expect(res.json()).toEqual({ received: true, duplicate: false });
  });

  it('replaying every refused cell leaves the database and the queue unchanged', async () => {
    const before = await snapshotDb(t.deps);
    const jobs = await webhookJobCount(t);
    for (const row of webhookRows.filter((r) => r.expected.status >= 400)) {
      expect((await send(row)).statusCode).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
    expect(await webhookJobCount(t)).toBe(jobs);
  }, 120_000);
});

describe('email log rows', () => {
  it('cover every principal', () => {
    expect(emailLogRows).toHaveLength(PRINCIPALS.length * 3);
  });

  it.each(
    emailLogRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await t.app.inject({
      method: 'GET',
      url: row.url,
      headers: bearer(world.secrets[row.principal]),
    });
    expect(res.statusCode, res.body).toBe(row.expected.status);
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
    else if (row.expected.status >= 400) expect(Object.keys(body)).toEqual(['error']);
    else expect(Object.keys(body).sort()).toEqual(['email_log', 'has_more']);
  });

  it('refused reads leave the database unchanged', async () => {
    const before = await snapshotDb(t.deps, { ignoreColumns: ['last_used_at'] });
    for (const row of emailLogRows.filter((r) => r.expected.status >= 400)) {
      const res = await t.app.inject({
        method: 'GET',
        url: row.url,
        headers: bearer(world.secrets[row.principal]),
      });
      expect(res.statusCode).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps, { ignoreColumns: ['last_used_at'] })).toEqual(before);
  }, 120_000);
});

describe('email suppression rows', () => {
  const send = (row: SuppressionMatrixRow) =>
    t.app.inject({ method: row.method, url: row.url, headers: bearer(world.secrets[row.principal]) });

  it('cover every principal on both routes', () => {
    expect(suppressionRows).toHaveLength(PRINCIPALS.length * 3);
  });

  it.each(
    suppressionRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body).toBe(row.expected.status);
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
    else if (row.expected.status >= 400) expect(Object.keys(body)).toEqual(['error']);
    else expect(Object.keys(body).sort()).toEqual(['email_suppressions', 'has_more']);
  });

  it('refused cells leave the database unchanged', async () => {
    await t.deps.db.execute(
      sql`INSERT INTO email_suppressions (email, reason) VALUES ('nobody@example.org', 'matrix') ON CONFLICT DO NOTHING`,
    );
    const before = await snapshotDb(t.deps, { ignoreColumns: ['last_used_at'] });
    for (const row of suppressionRows.filter((r) => r.expected.status >= 400 && r.expected.status !== 404)) {
      expect((await send(row)).statusCode).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps, { ignoreColumns: ['last_used_at'] })).toEqual(before);
    await t.deps.db.execute(sql`DELETE FROM email_suppressions WHERE email = 'nobody@example.org'`);
  }, 120_000);
});
