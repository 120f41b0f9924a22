/**
 * Staff edits (docs/decisions.md "Staff status changes and edits" `PATCH /events/{e}/participants/{pe}`): a safeguarding lead's dietary
 * edit read back through the sync list, the audit entry naming fields and never values, the
 * field-level refusals for ops and limited (nested PII included) before validation, and an empty
 * body that writes nothing.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: test reads nested JSON freely
type Json = Record<string, any>;
const eventA = () => `/api/v1/events/${world.events.A.id}`;
const patch = (token: string, payload: unknown, id = world.regs.adultA.id) =>
  app.inject({
    method: 'PATCH',
    url: `${eventA()}/participants/${id}`,
    headers: bearer(token),
    payload: payload as object,
  });
const list = async (token: string, since?: string): Promise<Json> => {
  const q = since ? `?updated_since=${encodeURIComponent(since)}` : '';
  const res = await app.inject({
    method: 'GET',
    url: `${eventA()}/participants${q}`,
    headers: bearer(token),
  });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const audits = async () =>
  (
    await t.deps.database.pool.query(
      `SELECT metadata, credential_kind, actor_user_id, target_id FROM audit_log
        WHERE action = 'registrations.record.update' ORDER BY id`,
    )
  ).rows;

describe('PATCH /events/{e}/participants/{pe}', () => {
  it('a safeguarding lead edits the dietary section; the sync list carries it; audited by name only', async () => {
    const lead = world.users.safeguarding.mobile;
    const { synced_at } = await list(lead);
    const res = await patch(lead, {
      diet_type: 'vegan',
      dietary_detail: { intolerances: 'Lactose (staff note)', notes: null },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().participant).toMatchObject({
      diet_type: 'vegan',
      dietary_detail: { intolerances: 'Lactose (staff note)', notes: null },
    });
    const changed = (await list(lead, synced_at)).participants as Json[];
    expect(changed.map((p) => p.participant_event_id)).toEqual([world.regs.adultA.id]);
    expect(changed[0]!.diet_type).toBe('vegan');
    const entry = (await audits()).at(-1)!;
    expect(entry.metadata).toEqual({
      sections: ['diet_type', 'dietary_detail'],
      fields: ['diet_type', 'dietary_detail.intolerances', 'dietary_detail.notes'],
      by: 'staff_edit',
      // Sensitive fields are kept by name only, for the participant page's history.
      changes: [
        { field: 'diet_type' },
        { field: 'dietary_detail.intolerances' },
        { field: 'dietary_detail.notes' },
      ],
    });
    expect(JSON.stringify(entry)).not.toMatch(/Lactose|vegan/);
    expect(entry.actor_user_id).toBe(world.users.safeguarding.id);
    expect(entry.target_id).toBe(String(world.regs.adultA.id));
  });

  it('ops is refused the same edit (403) and nothing changes', async () => {
    const before = await snapshotDb(t.deps);
    const res = await patch(world.users.ops.mobile, { dietary_detail: { intolerances: 'ops was here' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'You may not edit: dietary_detail' });
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('refuses fields before validating them, naming every one (nested PII for limited)', async () => {
    const before = await snapshotDb(t.deps);
    const limited = await patch(world.users.limited.mobile, {
      personal: { date_of_birth: 'not a date', tshirt_size: 'M', address: { city: 'Leeds' } },
      travel_inbound: { mode: 'car', origin_address: '1 High Street' },
      guardians: [],
      medical_detail: { allergy_severity: 'mild' },
    });
    expect(limited.statusCode).toBe(403);
    expect(limited.json()).toEqual({
      error:
        'You may not edit: personal.date_of_birth, personal.address, travel_inbound.origin_address, guardians, medical_detail',
    });
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('limited may edit what limited may read; the answer hides PII', async () => {
    const res = await patch(world.users.limited.mobile, {
      pronouns: 'they/them',
      personal: { tshirt_size: 'XL' },
      travel_outbound: { mode: 'train', train_arrival_station: 'York' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json().participant as Json;
    expect(p.pronouns).toBe('they/them');
    expect(p.personal.tshirt_size).toBe('XL');
    expect(p.travel_outbound).toMatchObject({ mode: 'train', train_arrival_station: 'York' });
    expect(p).not.toHaveProperty('phone');
    expect(p.personal).not.toHaveProperty('date_of_birth');
    expect(p.travel_outbound).not.toHaveProperty('origin_address');
  });

  it('an event admin gets the participant’s own field errors (422 with problems)', async () => {
    const res = await patch(world.users.eventAdmin.mobile, {
      phone: 'call me',
      travel_inbound: { mode: 'plane', legs: [{ departure_airport: 'London' }] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().problems.map((p: Json) => p.field)).toEqual([
      'phone',
      'travel_inbound.legs[0].departure_airport',
    ]);
  });

  it('an empty body writes and audits nothing', async () => {
    const before = await snapshotDb(t.deps);
    const res = await patch(world.users.eventAdmin.mobile, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().participant.participant_event_id).toBe(world.regs.adultA.id);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('an edit that changes the facts re-runs the completion check as a staff edit', async () => {
    // The minor (awaiting their guardian) turns out to be an adult: no guardian needed any more.
    const res = await patch(
      world.users.eventAdmin.mobile,
      { personal: { date_of_birth: '1990-01-01' } },
      world.regs.minorA.id,
    );
    expect(res.statusCode, res.body).toBe(200);
    const moved = await t.deps.database.pool.query(
      `SELECT metadata FROM audit_log WHERE action = 'registrations.transition' AND target_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(world.regs.minorA.id)],
    );
    expect(moved.rows[0]?.metadata).toMatchObject({ from: 'awaiting_guardian', by: 'staff_edit' });
    expect(res.json().participant.status).toBe(moved.rows[0]!.metadata.to);
  });

  it('a withdrawn registration is 409 until reinstated', async () => {
    const res = await patch(world.users.eventAdmin.mobile, { pronouns: 'she/her' }, world.regs.withdrawnA.id);
    expect(res.statusCode).toBe(409);
    const row = await t.deps.db.execute<{ pronouns: string | null }>(
      sql`SELECT p.pronouns FROM people p JOIN registrations r ON r.person_id = p.id WHERE r.id = ${world.regs.withdrawnA.id}`,
    );
    expect(row.rows[0]!.pronouns).not.toBe('she/her');
  });
});
