/**
 * Runs the operations rows (test/access/rows/operations.ts): every principal's own credential is
 * refused by `GET /metrics` (401 `{"error":"Unauthorized"}`), and the metrics token is accepted.
 * A scrape changes no table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsRows } from '../access/rows/operations.js';
import { get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

const TOKEN = 'operations-rows-metrics-token-42';
let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp({ MUSTER_METRICS_TOKEN: TOKEN });
  world = await buildWorld(t.deps);
}, 120_000);
afterAll(async () => t?.close());

describe('operations rows', () => {
  it('cover every principal', () => {
    expect(operationsRows).toHaveLength(PRINCIPALS.length * 2);
  });

  it('answer as the rows say, and change nothing', async () => {
    const before = await snapshotDb(t.deps);
    for (const row of operationsRows) {
      const secret = row.credential === 'metrics_token' ? TOKEN : world.secrets[row.principal];
      const res = await get(t.app, '/metrics', secret);
      expect({ principal: row.principal, credential: row.credential, status: res.statusCode }).toEqual({
        principal: row.principal,
        credential: row.credential,
        status: row.expected.status,
      });
      if (row.expected.error) expect(res.json()).toEqual({ error: row.expected.error });
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 120_000);
});
