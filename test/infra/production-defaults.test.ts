/**
 * Safe defaults on PostgreSQL (docs/operations.md):
 * - `serve` and `worker` refuse to start without MUSTER_SECRET_KEY, naming `muster secret-key`;
 * - `serve` never seeds the demo on an empty PostgreSQL database unless started with `--demo`, and
 *   prints credentials only on the start that created the demo.
 * The embedded default (demo on first start) is covered by test/infra/embedded-restart.test.ts.
 * PostgreSQL only (skipped without DATABASE_URL).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, runCli, runJson, singleJson, type TestDatabase } from '../cli/harness.js';
import { killAll, startMuster } from '../support/processes.js';

afterAll(killAll);
const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)('production defaults on PostgreSQL', { timeout: 300_000 }, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
  }, 60_000);
  afterAll(async () => {
    await db?.cleanup();
  });

  it('`muster secret-key` prints a new 32-byte key each time', async () => {
    const one = await runJson(db, ['secret-key']);
    const two = await runJson(db, ['secret-key']);
    expect(Buffer.from(String(one.secret_key), 'base64')).toHaveLength(32);
    expect(one.secret_key).not.toBe(two.secret_key);
  });

  for (const command of ['serve', 'worker']) {
    it(`${command} refuses to start without MUSTER_SECRET_KEY and names the command that makes one`, async () => {
      const run = await runCli(db, [command, '--json'], { MUSTER_SECRET_KEY: '' });
      expect(run.code).toBe(1);
      expect(singleJson(run.stdout).error).toMatch(/MUSTER_SECRET_KEY is not set/);
      expect(run.stderr).toContain('muster secret-key');
    });
  }

  it('serve seeds nothing on an empty database without --demo; with --demo it seeds once and prints credentials once', async () => {
    const plain = startMuster(['serve', '--json'], db.env);
    const first = await plain.started();
    expect(first.demo).toBeNull();
    expect(plain.stdout()).not.toContain('mst_');
    expect((await plain.stop()).code).toBe(0);
    const users = await db.query(async (d) => (await d.execute(sql.raw('SELECT email FROM users'))).rows);
    expect(users).toEqual([]); // no admin@muster.example in production

    const demo = startMuster(['serve', '--demo', '--json'], db.env);
    const seeded = await demo.started();
    expect(seeded.demo).toMatchObject({ event_slug: 'demo-event' });
    expect(JSON.stringify(seeded.demo)).toContain('mst_m_');
    expect((await demo.stop()).code).toBe(0);

    const again = startMuster(['serve', '--demo', '--json'], db.env);
    expect((await again.started()).demo).toBeNull(); // not just created: nothing printed
    expect(again.stdout()).not.toContain('mst_');
    expect((await again.stop()).code).toBe(0);
  });
});
