/**
 * Runs the door's field rows (test/access/rows/door.ts) against the real database: who may force
 * a refused entry (a denied force stores nothing), who receives the authorised pickup adults, and
 * who receives medical details in a verdict.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doorRows } from '../access/rows/door.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let gate: number;
const ADULTS = 'Dana Pickup (aunt)';
const ALLERGY = 'tree nuts';

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  const res = await t.deps.database.pool.query<{ id: number }>(
    `INSERT INTO scan_contexts (event_id, name, position, tracks_presence) VALUES ($1, 'Gate', 9, true) RETURNING id`,
    [world.events.A.id],
  );
  gate = res.rows[0]!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

let seq = 0;
async function registration(status: 'complete' | 'withdrawn', dob: string) {
  const reg = await t.deps.db.transaction((tx) =>
    addRegistration(tx, {
      eventId: world.events.A.id,
      email: `row${++seq}@door.test`,
      firstName: `Row${seq}`,
      lastName: 'Door',
      preferredName: null,
      dateOfBirth: dob,
      status,
    }),
  );
  const q = (text: string, values: unknown[]) => t.deps.database.pool.query(text, values);
  await q(
    `INSERT INTO registration_safeguarding (registration_id, authorized_pickup_adults) VALUES ($1, $2)`,
    [reg.id, ADULTS],
  );
  await q(
    `INSERT INTO registration_medical (registration_id, has_anaphylaxis_risk, life_threatening_allergies) VALUES ($1, true, $2)`,
    [reg.id, ALLERGY],
  );
  return reg.id;
}

const scan = (secret: string | undefined, body: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/events/${world.events.A.id}/scans`,
    payload: body,
    headers: bearer(secret),
  });

describe('door field rows', () => {
  for (const row of doorRows) {
    it(`${row.principal}: force ${row.force}, pickup adults ${row.pickup}, medical ${row.medical}`, async () => {
      const secret = world.secrets[row.principal];
      const withdrawn = await registration('withdrawn', '1990-01-01');
      const before = await snapshotDb(t.deps);
      const forced = await scan(secret, {
        participant_id: withdrawn,
        scan_context_id: world.contexts.checkInA,
        force: true,
        reason: 'row test',
      });
      expect(forced.statusCode, forced.body).toBe(row.force);
      if (row.force === 200) expect(forced.json().forced).toBe(true);
      else expect(await snapshotDb(t.deps)).toEqual(before);

      const minor = await registration('complete', '2013-05-05');
      const entry = await scan(secret, { participant_id: minor, scan_context_id: gate });
      expect(entry.statusCode, entry.body).toBe(200);
      const medical = entry.json().attention.find((a: { code: string }) => a.code === 'medical_alert');
      if (row.medical === 'detail') expect(medical.message).toContain(ALLERGY);
      else {
        expect(medical.message).toBe('Medical alert: ask the safeguarding lead');
        expect(entry.body).not.toContain(ALLERGY);
      }
      const exit = await scan(secret, { participant_id: minor, scan_context_id: gate, type: 'exit' });
      expect(exit.statusCode).toBe(422);
      if (row.pickup === 'shown') expect(exit.json().authorized_pickup_adults).toBe(ADULTS);
      else expect(exit.body).not.toContain('Dana');
      const out = await scan(secret, {
        participant_id: minor,
        scan_context_id: gate,
        type: 'exit',
        collected_by: 'Dana',
      });
      expect(out.statusCode).toBe(200);
      if (row.pickup === 'shown') expect(out.json().authorized_pickup_adults).toBe(ADULTS);
      else expect(out.body).not.toContain('Dana');
    });
  }
});
