/**
 * Runs the privacy rows (test/access/rows/privacy.ts): every principal against the subject-access
 * and erasure routes. No row erases anything (allowed erase calls carry a wrong confirmation); the
 * only change is one `person.exported` audit entry per allowed export.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivacyRow, privacyRows } from '../access/rows/privacy.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);
afterAll(async () => t?.close());

function url(row: PrivacyRow): string {
  if (row.target === 'me') return '/api/v1/me/data-export';
  const { A, B, C } = world.events;
  const [event, reg] = {
    'A:id': [String(A.id), world.regs.adultA.id],
    'A:slug': [A.slug, world.regs.adultA.id],
    'B:id': [String(B.id), world.regs.regB.id],
    'C:id': [String(C.id), world.regs.regC.id],
    'X:id': ['999999', world.regs.adultA.id],
    'A:nopart': [String(A.id), world.regs.regB.id],
  }[row.target];
  return `/api/v1${row.path.replace(':event_id', String(event)).replace(':participant_event_id', String(reg))}`;
}

describe('privacy rows', () => {
  it('cover every principal on every route', () => {
    expect(privacyRows).toHaveLength(PRINCIPALS.length * (6 + 6 + 1));
  });

  it('answer as the rows say; only allowed exports write (their audit entry)', async () => {
    const before = await snapshotDb(t.deps);
    let exports = 0;
    for (const row of privacyRows) {
      const res = await t.app.inject({
        method: row.method,
        url: url(row),
        headers: bearer(world.secrets[row.principal]),
        ...(row.method === 'POST' ? { payload: { confirm_email: 'not-the-person@example.com' } } : {}),
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
      if (row.method === 'GET' && res.statusCode === 200) exports++;
    }
    const audits = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'person.exported'`,
    );
    expect(audits.rows[0]?.n).toBe(exports);
    await t.deps.db.execute(sql`DELETE FROM audit_log WHERE action = 'person.exported'`);
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 300_000);
});
