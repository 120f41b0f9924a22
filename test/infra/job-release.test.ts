/**
 * A stopping worker releases its job claims (issue 17 "workers release their job claims … so
 * another process resumes at once"; docs/operations.md "Stopping"). A `muster worker` process is
 * inside a push delivery whose upstream (a real local Expo-protocol server) never answers; on
 * SIGTERM it exits 0 within the 10 s deadline, and the job is back in the queue available now (not
 * after its retry delay, nor after the 60 s expiry a crashed worker's claim waits for); a second
 * worker then delivers it. PostgreSQL only (two processes on one database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FakeExpo, startFakeExpo } from '../support/expo.js';
import { killAll, startMuster } from '../support/processes.js';

const onPostgres = Boolean(process.env.DATABASE_URL);
afterAll(killAll);

describe.skipIf(!onPostgres)('job claims at stop', { timeout: 180_000 }, () => {
  let t: TestApp;
  let expo: FakeExpo;
  let env: Record<string, string>;
  beforeAll(async () => {
    expo = await startFakeExpo();
    t = await startTestApp({ MUSTER_EXPO_PUSH_URL: expo.url });
    env = {
      ...(process.env as Record<string, string>),
      DATABASE_URL: t.deps.config.databaseUrl as string,
      MUSTER_EXPO_PUSH_URL: expo.url,
      MUSTER_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'silent',
    };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await expo?.close();
  });

  const jobState = async () =>
    (
      await t.deps.database.pool.query<{ state: string; available: boolean; output: unknown }>(
        `SELECT state, start_after <= now() AS available, output FROM pgboss.job
          WHERE name = 'push-deliver' AND data->>'title' = 'Release test'`,
      )
    ).rows;

  it('SIGTERM mid-job: exit 0, the job available again at once, and another worker finishes it', async () => {
    expo.holdNext(1);
    const pool = t.deps.database.pool;
    const user = await pool.query<{ id: number }>(
      `INSERT INTO users (email, name) VALUES ('door@example.org', 'Door Staff') RETURNING id`,
    );
    const token = await pool.query<{ id: number }>(
      `INSERT INTO push_tokens (user_id, token, platform) VALUES ($1, 'ExponentPushToken[release-test]', 'expo') RETURNING id`,
      [user.rows[0]!.id],
    );
    await t.deps.db.transaction((tx) =>
      t.deps.jobs.enqueue(tx, 'push-deliver', {
        tokens: [{ id: token.rows[0]!.id, token: 'ExponentPushToken[release-test]' }],
        title: 'Release test',
        body: 'held upstream',
        data: { kind: 'message', type: 'message' },
      }),
    );
    const first = startMuster(['worker', '--json'], env);
    for (let i = 0; i < 600 && expo.heldCount() === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(expo.heldCount(), first.stderr()).toBe(1);
    await first.started();
    expect(await jobState()).toMatchObject([{ state: 'active', available: true }]);

    const { code } = await first.stop('SIGTERM');
    expect(code, first.stderr()).toBe(0);
    expect(await jobState()).toMatchObject([{ state: 'retry', available: true }]);

    const second = startMuster(['worker', '--json'], env);
    await expo.waitFor((all) => all.some((r) => r.messages.some((m) => m.title === 'Release test')), 60_000);
    for (let i = 0; i < 100 && (await jobState())[0]?.state !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await jobState()).toMatchObject([{ state: 'completed', available: true }]);
    expect((await second.stop('SIGTERM')).code).toBe(0);
  });
});
