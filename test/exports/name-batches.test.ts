/**
 * Name-ordered exports read registrations in keyset batches of BATCH_SIZE by (lower last name,
 * lower first name, id) (exports.repo.ts `registrationBatches`, docs/exports.md "Streaming"). Over
 * 1,210 registrations whose names repeat and differ only in case, the batches together give every
 * registration of the event exactly once, in the same order as one ORDER BY over the whole event.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BATCH_SIZE, registrationBatches } from '../../src/modules/exports/exports.repo.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
  // Seven last names (two differing only in case) and three first names: long runs of equal names,
  // so batch boundaries fall inside runs where only the id decides the order.
  await t.deps.db.execute(sql`WITH p AS (
      INSERT INTO people (email, legal_first_name, legal_last_name)
      SELECT 'batch' || g || '@example.com', (ARRAY['Ann', 'ann', 'Bo'])[1 + g % 3],
             (ARRAY['Smith', 'smith', 'Jones', 'Ng', 'O''Neil', 'Zed', 'Able'])[1 + g % 7]
        FROM generate_series(1, 1210) g RETURNING id)
    INSERT INTO registrations (event_id, person_id, status)
    SELECT ${world.events.B.id}, id, 'complete' FROM p`);
}, 60_000);
afterAll(async () => t?.close());

it('batches by name give every registration once, in the whole event’s name order', async () => {
  const eventId = world.events.B.id;
  const batches: number[][] = [];
  for await (const ids of registrationBatches(t.deps.db, eventId, {}, { order: 'name' })) batches.push(ids);
  const whole = await t.deps.db.execute<{ id: number }>(
    sql`SELECT r.id FROM registrations r JOIN people p ON p.id = r.person_id WHERE r.event_id = ${eventId}
         ORDER BY lower(p.legal_last_name), lower(p.legal_first_name), r.id`,
  );
  const expected = whole.rows.map((r) => Number(r.id));
  expect(expected.length).toBeGreaterThan(2 * BATCH_SIZE);
  expect(batches.length).toBe(Math.ceil(expected.length / BATCH_SIZE));
  expect(batches.flat()).toEqual(expected);
});
