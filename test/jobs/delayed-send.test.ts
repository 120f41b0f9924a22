/**
 * A job enqueued inside a transaction with a delay (pg-boss `startAfter` in seconds: the push receipt
 * check waits 15 minutes) is stored to start that much later. pg-boss uses the delay parameter three
 * times in one statement; each use must stay one parameter (jobs/queue.ts toDrizzleSql), or
 * PostgreSQL types them apart and refuses the insert.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

it('stores a delayed job with its start time, inside the writing transaction', async () => {
  await t.deps.db.transaction((tx) =>
    t.deps.jobs.enqueue(
      tx,
      'push-receipts',
      { receipts: [{ ticket_id: 'delayed-1', push_token_id: 1, token: 'ExponentPushToken[x]' }], attempt: 1 },
      { startAfter: 900 },
    ),
  );
  const { rows } = await t.deps.database.pool.query<{ delay: number; state: string }>(
    `SELECT extract(epoch FROM start_after - created_on)::int AS delay, state FROM pgboss.job
      WHERE name = 'push-receipts' AND data->'receipts'->0->>'ticket_id' = 'delayed-1'`,
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]!.state).toBe('created');
  expect(rows[0]!.delay).toBeGreaterThanOrEqual(899);
  expect(rows[0]!.delay).toBeLessThanOrEqual(901);
});
