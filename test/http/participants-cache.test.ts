/**
 * The participant JSON cache (participants.cache.ts, migration 0026): the sync list serves each
 * row's JSON from `participant_json` while it is current and rebuilds it otherwise, so its bytes
 * always equal the per-row serializer's for the caller's visibility: after changes to every part
 * of a registration's record, after a role is granted or revoked (the tier is the caller's at each
 * request), for a text stored by another serializer version; and what a change replaced does not
 * stay in the cache, nor come back from a read built before it (the fence, migration 0027).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Visibility } from '../../src/access/policy.js';
import { CACHE_REPLACES, cacheTier } from '../../src/modules/participants/participants.cache.js';
import { participantFrom, participantSelect } from '../../src/modules/participants/participants.serialize.js';
import { get, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let w: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  w = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const FULL: Visibility = { pii: true, sensitive: true };
const LIMITED: Visibility = { pii: false, sensitive: false };
const path = () => `/api/v1/events/${w.events.A.id}/participants`;

/** Each registration's participant JSON text from the per-row serializer, ascending id. */
async function expectedRows(v: Visibility): Promise<string[]> {
  const res = await t.deps.db.execute<{ j: string }>(
    sql.raw(
      `SELECT ${participantSelect(v)} FROM ${participantFrom(v)} WHERE r.event_id = ${w.events.A.id} ORDER BY r.id`,
    ),
  );
  return res.rows.map((r) => r.j);
}

/** The list's participants as the endpoint sent them: the JSON text between `[` and `]`. */
async function listed(secret: string | undefined, query = ''): Promise<{ text: string; synced_at: string }> {
  const res = await get(app, `${path()}${query}`, secret);
  expect(res.statusCode).toBe(200);
  const m = /^\{"participants":\[(.*)\],"synced_at":"([^"]+)"\}$/s.exec(res.body);
  expect(m).not.toBeNull();
  return { text: m![1]!, synced_at: m![2]! };
}

async function cachedCount(tier: string): Promise<number> {
  const res = await t.deps.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM participant_json c JOIN registrations r ON r.id = c.registration_id
         WHERE r.event_id = ${w.events.A.id} AND c.tier = ${tier}`,
  );
  return Number(res.rows[0]!.n);
}

describe('participant JSON cache', () => {
  it('fills on the first list and serves the same bytes from it on the next', async () => {
    const expected = (await expectedRows(FULL)).join(',');
    const first = await listed(w.users.admin.mobile);
    expect(first.text).toBe(expected);
    expect(await cachedCount(cacheTier(FULL))).toBe(expected === '' ? 0 : (await expectedRows(FULL)).length);
    const second = await listed(w.users.admin.mobile);
    expect(second.text).toBe(expected);
  });

  it('never serves a row a change made stale, whatever part of the record changed', async () => {
    await listed(w.users.admin.mobile); // cache current
    const A = w.events.A.id;
    const reg = w.regs.adultA;
    const minor = w.regs.minorA;
    const writes = [
      sql`UPDATE people SET pronouns = 'xe/xem' WHERE id = ${reg.personId}`,
      sql`UPDATE registration_medical SET allergies = 'cached-test peanuts' WHERE registration_id = ${reg.id}`,
      sql`UPDATE guardians SET name = 'Cache Guardian' WHERE id = ${w.guardianA}`,
      sql`UPDATE travel_legs SET flight_code = 'CT123' WHERE id = ${w.legs.inboundA1}`,
      sql`UPDATE scan_contexts SET name = 'Renamed for the cache test' WHERE id = ${w.contexts.lunchA}`,
      sql`UPDATE events SET modules = jsonb_set(modules, '{nfc_badges_enabled}', to_jsonb(NOT COALESCE((modules->>'nfc_badges_enabled')::boolean, false))) WHERE id = ${A}`,
      sql`INSERT INTO emergency_contacts (registration_id, name, phone, relationship, priority)
            VALUES (${minor.id}, 'Cache Contact', '+447700900123', 'aunt', 9)`,
    ];
    for (const write of writes) {
      await t.deps.db.execute(write);
      // The trigger's now() is the writing transaction's start; the list reads rows up to 1 ms ago.
      await new Promise((r) => setTimeout(r, 5));
      expect((await listed(w.users.admin.mobile)).text).toBe((await expectedRows(FULL)).join(','));
    }
  });

  it('never serves a text stored from a snapshot older than the change (a read racing a write)', async () => {
    const reg = w.regs.adultA;
    const tier = cacheTier(FULL);
    await listed(w.users.admin.mobile);
    const before = await t.deps.db.execute<{ version: string; updated_at: string; j: string }>(
      sql`SELECT version, updated_at::text, j FROM participant_json WHERE registration_id = ${reg.id} AND tier = ${tier}`,
    );
    const old = before.rows[0]!;
    await t.deps.db.execute(sql`UPDATE people SET pronouns = 'ze/zir' WHERE id = ${reg.personId}`);
    // What a list read that built the row just before the change tries to store just after it
    // (the list's own INSERT … ON CONFLICT): the change's fence refuses it.
    await t.deps.db.execute(
      sql`INSERT INTO participant_json (registration_id, tier, version, updated_at, j)
          VALUES (${reg.id}, ${tier}, ${old.version}, ${old.updated_at}::timestamptz, ${old.j})
          ON CONFLICT (registration_id, tier) DO UPDATE
            SET version = EXCLUDED.version, updated_at = EXCLUDED.updated_at, j = EXCLUDED.j
          WHERE ${sql.raw(CACHE_REPLACES)}`,
    );
    const stored = await t.deps.db.execute<{ j: string }>(
      sql`SELECT j FROM participant_json WHERE registration_id = ${reg.id} AND tier = ${tier}`,
    );
    expect(stored.rows).toEqual([{ j: '' }]);
    await new Promise((r) => setTimeout(r, 5));
    const res = await listed(w.users.admin.mobile);
    expect(res.text).toContain('"ze/zir"');
    expect(res.text).toBe((await expectedRows(FULL)).join(','));
  });

  it("serves each caller's tier at each request: a revoked or granted role takes effect at once", async () => {
    const A = w.events.A.id;
    const sg = w.users.safeguarding;
    const sensitive = await listed(sg.mobile);
    expect(sensitive.text).toContain('"allergies"');
    await t.deps.db.execute(
      sql`DELETE FROM event_roles WHERE user_id = ${sg.id} AND event_id = ${A} AND role = 'safeguarding_lead'`,
    );
    await t.deps.db.execute(
      sql`INSERT INTO event_roles (user_id, event_id, role) VALUES (${sg.id}, ${A}, 'limited')`,
    );
    const after = await listed(sg.mobile);
    expect(after.text).not.toContain('"allergies"');
    expect(after.text).toBe((await expectedRows(LIMITED)).join(','));
    // A limited caller after a full-visibility fill: never a field of the fuller tier.
    expect((await listed(w.users.limited.mobile)).text).toBe((await expectedRows(LIMITED)).join(','));
    await t.deps.db.execute(sql`DELETE FROM event_roles WHERE user_id = ${sg.id} AND event_id = ${A}`);
    await t.deps.db.execute(
      sql`INSERT INTO event_roles (user_id, event_id, role) VALUES (${sg.id}, ${A}, 'safeguarding_lead')`,
    );
    expect((await listed(sg.mobile)).text).toBe(sensitive.text);
  });

  it('ignores and replaces a text stored by another serializer version', async () => {
    const reg = w.regs.adultA;
    await listed(w.users.admin.mobile);
    await t.deps.db.execute(
      sql`UPDATE participant_json SET version = 'older-release', j = '{"stale":true}'
           WHERE registration_id = ${reg.id} AND tier = ${cacheTier(FULL)}`,
    );
    const res = await listed(w.users.admin.mobile);
    expect(res.text).not.toContain('"stale"');
    expect(res.text).toBe((await expectedRows(FULL)).join(','));
    const row = await t.deps.db.execute<{ j: string }>(
      sql`SELECT j FROM participant_json WHERE registration_id = ${reg.id} AND tier = ${cacheTier(FULL)}`,
    );
    expect(row.rows[0]!.j).not.toContain('"stale"');
  });

  it('a delta sync through the cache sends exactly the changed rows, as the serializer builds them', async () => {
    const { synced_at } = await listed(w.users.admin.mobile);
    await new Promise((r) => setTimeout(r, 5));
    await t.deps.db.execute(sql`UPDATE people SET pronouns = 'she/her' WHERE id = ${w.regs.minorA.personId}`);
    await new Promise((r) => setTimeout(r, 5));
    const q = `?updated_since=${encodeURIComponent(synced_at)}`;
    const expected = (
      await t.deps.db.execute<{ j: string }>(
        sql.raw(
          `SELECT ${participantSelect(FULL)} FROM ${participantFrom(FULL)} WHERE r.id = ${w.regs.minorA.id}`,
        ),
      )
    ).rows[0]!.j;
    expect((await listed(w.users.admin.mobile, q)).text).toBe(expected);
    expect((await listed(w.users.admin.mobile, q)).text).toBe(expected); // now from the cache
  });

  it('drops what a change replaced: a changed registration keeps an empty fence in every tier', async () => {
    const reg = w.regs.adultA;
    await listed(w.users.admin.mobile);
    await listed(w.users.limited.mobile);
    const rowsOf = async (id: number) =>
      Number(
        (
          await t.deps.db.execute<{ n: number }>(
            sql`SELECT count(*)::int AS n FROM participant_json WHERE registration_id = ${id} AND j <> ''`,
          )
        ).rows[0]!.n,
      );
    expect(await rowsOf(reg.id)).toBe(2);
    await t.deps.db.execute(sql`UPDATE people SET phone = '+447700900999' WHERE id = ${reg.personId}`);
    expect(await rowsOf(reg.id)).toBe(0);
    const fences = await t.deps.db.execute<{ tier: string; version: string }>(
      sql`SELECT tier, version FROM participant_json WHERE registration_id = ${reg.id} ORDER BY tier`,
    );
    expect(fences.rows).toEqual(['-', 'p', 'ps', 's'].map((tier) => ({ tier, version: '' })));
  });
});
