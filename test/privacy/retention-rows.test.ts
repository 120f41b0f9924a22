/**
 * Runs the retention rows (test/access/rows/retention.ts): exact status and error per cell, and
 * the database unchanged afterwards (no row stores a policy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RetentionRow, retentionRows } from '../access/rows/retention.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);
afterAll(async () => t?.close());

function url(row: RetentionRow): string {
  const [name, form] = row.target.split(':') as ['A' | 'B' | 'C' | 'X', string];
  const event = name === 'X' ? null : world.events[name];
  const segment = event === null ? '99999999' : form === 'uuid' ? event.uuid : String(event.id);
  return `/api/v1${row.path.replace(':event_id', segment)}`;
}

describe('retention rows', () => {
  it('cover every principal on every route', () => {
    expect(retentionRows).toHaveLength(PRINCIPALS.length * 5 * 4);
  });

  it('answer as the rows say, and change nothing', async () => {
    const before = await snapshotDb(t.deps);
    for (const row of retentionRows) {
      const res = await t.app.inject({
        method: row.method,
        url: url(row),
        headers: bearer(world.secrets[row.principal]),
        ...(row.method === 'PUT' ? { payload: { categories: ['sensitive'], days_after_end: -1 } } : {}),
      });
      expect({
        route: row.route,
        principal: row.principal,
        target: row.target,
        status: res.statusCode,
      }).toEqual({
        route: row.route,
        principal: row.principal,
        target: row.target,
        status: row.expected.status,
      });
      if (row.expected.error) expect(res.json()).toEqual({ error: row.expected.error });
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 300_000);
});
