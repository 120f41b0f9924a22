/**
 * Runs the organiser-API authorization-matrix rows (test/access/rows/organiser.ts) against the real
 * database: exact status and error body per cell, and a replay of every refused cell proving the
 * database is unchanged. Each cell gets its own fixture where it needs one (a role grant, a group,
 * an API key on the cell's target), so an allowed DELETE never finds its target already gone and a
 * refused one has a real row to (not) delete.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import { issueSeriesKey } from '../../src/modules/credentials/issue.service.js';
import { type OrganiserRow, organiserRouteKeys, organiserRows } from '../access/rows/organiser.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { itEachRow } from '../support/row-cells.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let counter = 0;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';
type Request = { method: OrganiserRow['method']; url: string; payload?: Record<string, unknown> };

async function query<T>(text: string, values: unknown[]): Promise<T> {
  const { rows } = await t.deps.database.pool.query(text, values);
  return rows[0] as T;
}

async function freshUser(): Promise<number> {
  counter++;
  return (
    await query<{ id: number }>(`INSERT INTO users (email, name) VALUES ($1, $2) RETURNING id`, [
      `fixture-${counter}@team.test`,
      `Fixture ${counter}`,
    ])
  ).id;
}

/** The request of one row, creating the fixture it acts on. */
async function prepare(row: OrganiserRow): Promise<Request> {
  counter++;
  const P = '/api/v1';
  if (row.path === '/audit_log') return { method: 'GET', url: `${P}/audit_log` };
  if (row.path.startsWith('/series/')) {
    const name = row.target.split(':')[0] as 'S1' | 'S2' | 'X' | 'current';
    const series = name === 'S1' || name === 'S2' ? world.series[name] : null;
    const segment =
      row.target === 'current'
        ? 'current'
        : row.target === 'S1:slug'
          ? series!.slug
          : (series?.id ?? MISSING_UUID);
    const base = `${P}/series/${segment}`;
    const key = row.path.includes('api_keys') ? 'api_keys' : 'roles';
    if (row.method === 'GET') return { method: 'GET', url: `${base}/${key}` };
    if (row.method === 'POST')
      return {
        method: 'POST',
        url: `${base}/${key}`,
        payload:
          key === 'roles'
            ? { email: `granted-${counter}@team.test`, role: 'organizer' }
            : { name: `Key ${counter}`, kind: 'series' },
      };
    const owner = series ?? world.series.S1;
    if (key === 'roles') {
      const { id } = await query<{ id: number }>(
        `INSERT INTO series_roles (user_id, series_id, role) VALUES ($1, $2, 'organizer') RETURNING id`,
        [await freshUser(), owner.id],
      );
      return { method: 'DELETE', url: `${base}/roles/${id}` };
    }
    const issued = await t.deps.db.transaction((tx) =>
      issueSeriesKey(tx, owner.id, { name: `Fixture ${counter}`, ownerUserId: null }),
    );
    const { uuid } = await query<{ uuid: string }>(`SELECT uuid FROM series_api_keys WHERE id = $1`, [
      issued.id,
    ]);
    return { method: 'DELETE', url: `${base}/api_keys/${uuid}` };
  }
  const [name, form] = row.target.split(':') as ['A' | 'B' | 'C' | 'X', string];
  const event = name === 'X' ? null : world.events[name];
  const segment = event === null ? '99999999' : form === 'uuid' ? event.uuid : String(event.id);
  const base = `${P}/events/${segment}`;
  const onEvent = event ?? world.events.A;
  if (row.path.includes('/exports/')) {
    const format = row.path.slice(row.path.lastIndexOf('.') + 1);
    const preset =
      format === 'pdf'
        ? row.target === 'A:medical'
          ? 'medical_cards'
          : 'door_list'
        : row.target === 'A:medical'
          ? 'medical'
          : 'roster';
    return { method: 'GET', url: `${base}/exports/${preset}.${format}` };
  }
  if (row.path.endsWith('/audit_log')) return { method: 'GET', url: `${base}/audit_log` };
  if (row.path.includes('/roles')) {
    if (row.method === 'GET') return { method: 'GET', url: `${base}/roles` };
    if (row.method === 'POST')
      return {
        method: 'POST',
        url: `${base}/roles`,
        payload: { email: `granted-${counter}@team.test`, role: 'ops' },
      };
    const { id } = await query<{ id: number }>(
      `INSERT INTO event_roles (user_id, event_id, role) VALUES ($1, $2, 'limited') RETURNING id`,
      [await freshUser(), onEvent.id],
    );
    return { method: 'DELETE', url: `${base}/roles/${id}` };
  }
  if (row.path.endsWith('/participants/:participant_event_id/groups')) {
    const reg = { A: world.regs.adultA, B: world.regs.regB, C: world.regs.regC, X: world.regs.adultA }[name];
    return { method: 'PUT', url: `${base}/participants/${reg.id}/groups`, payload: { group_ids: [] } };
  }
  if (row.method === 'GET') return { method: 'GET', url: `${base}/groups` };
  if (row.method === 'POST')
    return { method: 'POST', url: `${base}/groups`, payload: { name: `Group ${counter}` } };
  const { id } = await query<{ id: number }>(
    `INSERT INTO groups (event_id, name) VALUES ($1, $2) RETURNING id`,
    [onEvent.id, `Fixture group ${counter}`],
  );
  return row.method === 'PATCH'
    ? { method: 'PATCH', url: `${base}/groups/${id}`, payload: { color: '#112233' } }
    : { method: 'DELETE', url: `${base}/groups/${id}` };
}

function send(row: OrganiserRow, request: Request) {
  return app.inject({ ...request, headers: bearer(world.secrets[row.principal]) });
}

describe('organiser API rows', () => {
  it('cover every principal on each route, and every registered organiser route', () => {
    expect(organiserRows).toHaveLength(PRINCIPALS.length * (3 * 6 + 9 * 5 + 6 * 5 + 1));
    const mine = /\/(exports|audit_log|roles|api_keys|groups)(\/|$)/;
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => k.startsWith('GET /api') || !k.startsWith('HEAD'))
      .filter((k) => mine.test(k) && k.includes('/api/v1/'))
      .sort();
    expect(registered).toEqual([...organiserRouteKeys].sort());
  });

  itEachRow({
    rows: organiserRows,
    name: (r) => `${r.route} ${r.principal} ${r.target} → ${r.expected.status}`,
    refused: (r) => r.expected.status >= 400,
    deps: () => t.deps,
    prepare,
    async check(row, request) {
      const res = await send(row, request);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
      if (row.expected.error !== undefined) expect(res.json()).toEqual({ error: row.expected.error });
      else if (row.expected.status === 204) expect(res.body).toBe('');
      else if (row.path.includes('/exports/'))
        expect(res.headers['content-disposition']).toMatch(/^attachment/);
      else expect(Object.keys(res.json() as object).length).toBeGreaterThan(0);
    },
  });
});
