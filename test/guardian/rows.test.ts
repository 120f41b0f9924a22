/**
 * Runs the guardian-portal authorization-matrix rows (test/access/rows/guardian-portal.ts): every
 * principal gets the column's answer (the token is the credential), and replaying every refused
 * cell leaves the database unchanged.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  type GuardianRow,
  type GuardianTokens,
  guardianPortalRouteKeys,
  guardianRequest,
  guardianRows,
} from '../access/rows/guardian-portal.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';
import { giveToken } from './tokens.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let tokens: GuardianTokens;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  const pool = t.deps.database.pool;
  const gus = (await pool.query(`SELECT id FROM guardians WHERE name = 'Gus Guardian'`)).rows[0].id;
  const old = (
    await pool.query(
      `INSERT INTO guardians (registration_id, name, email) VALUES (${world.regs.adultA.id}, 'Old', 'old@example.com') RETURNING id`,
    )
  ).rows[0].id;
  tokens = {
    valid: await giveToken(t.deps.db, world.guardianA),
    unanswered: await giveToken(t.deps.db, gus),
    expired: await giveToken(t.deps.db, old, -1),
    ownConsent: (
      await pool.query(
        `SELECT id FROM consents WHERE registration_id = ${world.regs.minorA.id} AND consent_type = 'waiver'`,
      )
    ).rows[0].id,
    foreignConsent: (
      await pool.query(`SELECT id FROM consents WHERE registration_id = ${world.regs.adultA.id} LIMIT 1`)
    ).rows[0].id,
  };
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function send(row: GuardianRow) {
  return app.inject({
    ...guardianRequest(row, tokens),
    remoteAddress: row.remoteAddress,
    headers: bearer(world.secrets[row.principal]),
  });
}

describe('guardian portal rows', () => {
  it('cover every principal on each route, and every registered /guardian route', () => {
    expect(guardianRows).toHaveLength(PRINCIPALS.length * 16);
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => k.includes('/api/v1/guardian/')) // web pages (/guardian/…) have their own rows
      .sort();
    expect(registered).toEqual([...guardianPortalRouteKeys].sort());
  });

  it.each(
    guardianRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) {
      const { problems } = row.expected;
      expect(body).toEqual({ error: row.expected.error, ...(problems ? { problems } : {}) });
    } else
      expect(Object.keys(body).sort()).toEqual([
        'child',
        'consents',
        'expires_at',
        'guardian',
        'permissions',
      ]);
  });

  it('replaying every refused cell leaves the database unchanged', async () => {
    const refused = guardianRows.filter((r) => r.expected.status >= 400);
    const before = await snapshotDb(t.deps);
    for (const row of refused) {
      const res = await send({ ...row, remoteAddress: `${row.remoteAddress.replace('198.51.', '198.52.')}` });
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 120_000);
});
