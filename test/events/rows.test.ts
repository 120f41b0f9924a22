/**
 * Runs the series event API authorization rows (test/access/rows/series-events.ts) against the real
 * database: exact status and error body per cell, the `{event}` body on success, and a replay of
 * every refused cell proving the database is unchanged.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import { createEventRecord } from '../../src/modules/events/records.service.js';
import {
  requestFor,
  type SeriesEventRow,
  seriesEventRouteKeys,
  seriesEventRows,
} from '../access/rows/series-events.js';
import { bearer, snapshotDb } from '../support/app.js';
import { PRINCIPALS } from '../support/world.js';
import { withWorld } from './harness.js';

const env = withWorld();
let draftD: { id: number; uuid: string };

beforeAll(async () => {
  const d = await createEventRecord(env.t.deps.db, {
    seriesId: env.w.series.S1.id,
    name: 'Summit Draft',
    slug: 'summit-draft',
    supportEmail: null,
  });
  draftD = { id: d.id, uuid: d.uuid };
}, 60_000);

function send(row: SeriesEventRow) {
  const { method, url, payload } = requestFor(row, env.w, draftD);
  return env.t.app.inject({
    method,
    url,
    headers: bearer(env.w.secrets[row.principal]),
    ...(payload ? { payload } : {}),
  });
}

describe('series event API rows', () => {
  it('cover every principal on each route, and each route is registered', () => {
    expect(seriesEventRows).toHaveLength(PRINCIPALS.length * (8 + 10 + 10 + 8));
    const registered = new Set(registeredRoutes(env.t.app).map((r) => `${r.method} ${r.url}`));
    expect(seriesEventRouteKeys.filter((k) => !registered.has(k))).toEqual([]);
  });

  it.each(
    seriesEventRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
    else {
      expect(Object.keys(body)).toEqual(['event']);
      expect(Object.keys(body.event as object)).toContain('participant_count');
    }
  });

  it('replaying every refused cell leaves the database unchanged', async () => {
    const refused = seriesEventRows.filter((r) => r.expected.status >= 400);
    const before = await snapshotDb(env.t.deps);
    for (const row of refused) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  }, 180_000);
});
