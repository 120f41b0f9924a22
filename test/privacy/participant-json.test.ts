/**
 * The sync list's participant JSON cache (`participant_json`, docs/performance.md "Participant JSON
 * cache") after erasure and retention shredding (docs/privacy.md): with the cache filled by full
 * syncs in every visibility tier, no row of the table holds the erased values once the erasure or
 * the shredding has committed, a text a read built just before cannot be stored just after (the
 * fence of migration 0027), and the next full sync shows none of them.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_REPLACES } from '../../src/modules/participants/participants.cache.js';
import { applyDuePolicies } from '../../src/modules/retention/policy.service.js';
import { bearer, get, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, populateSections, type World } from '../support/world.js';
import { addSubject, linesNaming, SUBJECT_EMAIL } from './subject-fixture.js';

let t: TestApp;
let world: World;
let regA: number;
let regB: number;
/** Identifying strings of the person registered at event B (shredded by B's retention policy). */
const OTTOLINE = ['Ottoline', 'Wrenfield', 'ottoline.wrenfield', '7700987654'];

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
  regA = (await addSubject(t, world, { atB: false })).regA;
  regB = await t.deps.db.transaction(async (tx) => {
    const reg = await addRegistration(tx, {
      eventId: world.events.B.id,
      email: 'ottoline.wrenfield@other.example',
      firstName: 'Ottoline',
      lastName: 'Wrenfield',
      preferredName: null,
      dateOfBirth: '2010-05-06',
      status: 'complete',
      phone: '+447700987654',
    });
    await populateSections(tx, reg.id);
    await tx.execute(sql`INSERT INTO emergency_contacts (registration_id, name, phone, relationship, priority)
      VALUES (${reg.id}, 'Ottoline Wrenfield Senior', '+447700987654', 'mother', 1)`);
    return reg.id;
  });
}, 120_000);
afterAll(async () => t?.close());

/** Full syncs of `event` by callers of every visibility tier there; the response bodies. */
async function syncAll(event: number): Promise<string[]> {
  const bodies: string[] = [];
  for (const who of [
    'admin',
    'eventAdmin',
    'safeguarding',
    'limited',
    'readOnly',
    'seriesOrganizer',
  ] as const) {
    const res = await get(t.app, `/api/v1/events/${event}/participants`, world.users[who].mobile);
    if (res.statusCode === 200) bodies.push(res.body);
  }
  expect(bodies.length).toBeGreaterThan(0);
  return bodies;
}

type Cached = { registration_id: number; tier: string; version: string; updated_at: string; j: string };

async function cachedOf(id: number): Promise<Cached[]> {
  const res = await t.deps.db.execute<Cached>(
    sql`SELECT registration_id, tier, version, updated_at::text, j FROM participant_json
         WHERE registration_id = ${id} ORDER BY tier`,
  );
  return res.rows;
}

/** Every row of the table as text. */
async function wholeTable(): Promise<string> {
  const res = await t.deps.db.execute<{ r: string }>(sql`SELECT c::text AS r FROM participant_json c`);
  return res.rows.map((r) => r.r).join('\n');
}

/** What a list read that built `rows` before the change tries to store after it (its INSERT … ON CONFLICT). */
async function storeLate(rows: Cached[]): Promise<void> {
  for (const c of rows) {
    await t.deps.db.execute(
      sql`INSERT INTO participant_json (registration_id, tier, version, updated_at, j)
          VALUES (${c.registration_id}, ${c.tier}, ${c.version}, ${c.updated_at}::timestamptz, ${c.j})
          ON CONFLICT (registration_id, tier) DO UPDATE
            SET version = EXCLUDED.version, updated_at = EXCLUDED.updated_at, j = EXCLUDED.j
          WHERE ${sql.raw(CACHE_REPLACES)}`,
    );
  }
}

const naming = (text: string, secrets: readonly string[]) =>
  text.split('\n').filter((line) => secrets.some((s) => line.toLowerCase().includes(s.toLowerCase())));

describe('participant JSON cache and erasure', () => {
  it('keeps no cached text of an erased person, refuses a text built before, and syncs none', async () => {
    await syncAll(world.events.A.id);
    const before = await cachedOf(regA);
    expect(before.length).toBeGreaterThan(1);
    expect(before.every((c) => c.j.includes('Zephyrine'))).toBe(true);

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/events/${world.events.A.id}/participants/${regA}/erase`,
      headers: bearer(world.secrets.admin),
      payload: { confirm_email: SUBJECT_EMAIL },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(linesNaming(await wholeTable())).toEqual([]);
    // A fence in every tier, holding nothing.
    expect((await cachedOf(regA)).map((c) => [c.tier, c.version, c.j])).toEqual(
      ['-', 'p', 'ps', 's'].map((tier) => [tier, '', '']),
    );

    await storeLate(before);
    expect(linesNaming(await wholeTable())).toEqual([]);

    for (const body of await syncAll(world.events.A.id)) {
      expect(body).toContain('"Erased Person"');
      expect(linesNaming(body)).toEqual([]);
    }
    expect(linesNaming(await wholeTable())).toEqual([]);
    expect((await cachedOf(regA)).some((c) => c.j.includes('"Erased Person"'))).toBe(true);
  });

  it('keeps no cached text of what retention shredded, refuses a text built before, and syncs none', async () => {
    const B = world.events.B.id;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/events/${B}/retention`,
      headers: bearer(world.secrets.admin),
      payload: { categories: ['pii', 'sensitive', 'travel', 'notes', 'uploads', 'scans'], days_after_end: 1 },
    });
    expect(put.statusCode, put.body).toBe(200);
    await syncAll(B);
    const before = await cachedOf(regB);
    expect(before.some((c) => c.j.includes('Ottoline'))).toBe(true);
    expect(before.some((c) => c.j.includes('Wrenfield Senior'))).toBe(true);

    const due = new Date(put.json().policy.due_at as string);
    const applied = await applyDuePolicies(t.deps.db, new Date(due.getTime() + 3_600_000));
    expect(applied[B]).toBeDefined();
    expect(naming(await wholeTable(), OTTOLINE)).toEqual([]);

    await storeLate(before);
    expect(naming(await wholeTable(), OTTOLINE)).toEqual([]);
    for (const body of await syncAll(B)) expect(naming(body, OTTOLINE)).toEqual([]);
    expect(naming(await wholeTable(), OTTOLINE)).toEqual([]);
  });

  it('a deleted registration leaves fences only, which a text built before cannot replace', async () => {
    const reg = world.regs.adultA.id;
    await syncAll(world.events.A.id);
    const before = await cachedOf(reg);
    expect(before.length).toBeGreaterThan(1);
    await t.deps.db.execute(sql`DELETE FROM registrations WHERE id = ${reg}`);
    await storeLate(before);
    expect((await cachedOf(reg)).map((c) => [c.tier, c.j])).toEqual(
      ['-', 'p', 'ps', 's'].map((x) => [x, '']),
    );
  });
});
