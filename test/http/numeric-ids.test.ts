/**
 * Numeric ids are decimal digits only (docs/decisions.md "Identifiers"): in every route's path, a
 * hexadecimal, exponent, signed, padded or fractional spelling of an id, or a digit string larger
 * than any id, names no record: 404 `{error}`, never another record, a 422 or a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);
afterAll(async () => t?.close());

const SPELLINGS = ['0x10', '1e3', '%2B16', '%2016', '16.0', '-1', '99999999999999999999', '9999999999'];
/** Path parameters that hold a numeric id (`event_id` also takes UUIDs and slugs: not here). */
const NUMERIC =
  /^:(participant_event_id|participant_id|id|context_id|scan_context_id|leg_id|consent_id|note_id|blast_id|guardian_id|webhook_id|room_id)$/;

describe('numeric ids in paths', () => {
  it('answer 404 {error} for every non-decimal spelling, on every route with one, and change nothing', async () => {
    const routes = registeredRoutes(t.app).filter(
      (r) => r.url.startsWith('/api/v1/') && r.url.split('/').some((s) => NUMERIC.test(s)),
    );
    const before = await snapshotDb(t.deps);
    expect(routes.length).toBeGreaterThan(5);
    const wrong: string[] = [];
    for (const r of routes) {
      for (const spelling of SPELLINGS) {
        const url = r.url
          .split('/')
          .map((seg) =>
            seg === ':event_id'
              ? String(world.events.A.id)
              : NUMERIC.test(seg)
                ? spelling
                : seg.startsWith(':')
                  ? '1'
                  : seg,
          )
          .join('/');
        const res = await t.app.inject({
          method: r.method as 'GET',
          url,
          headers: bearer(world.secrets.admin),
          ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
        });
        if (res.statusCode !== 404 || typeof res.json().error !== 'string')
          wrong.push(`${r.method} ${url} → ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 300_000);
});
