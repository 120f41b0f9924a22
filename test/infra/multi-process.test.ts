/**
 * Several Muster processes on one PostgreSQL database, as in production (docs/operations.md):
 * - three `muster serve` started at the same instant on a fresh database all come up (migrations
 *   and the job-queue install run once, under the advisory lock) and answer /api/v1/readyz;
 * - two `serve` (MUSTER_WORKER=false) and one `muster worker` sharing MUSTER_SECRET_KEY: a web
 *   sign-in code requested through instance A is emailed by the worker (real SMTP server) and
 *   accepted by instance B, and the session cookie B sets works on A and on B.
 *
 * PostgreSQL only: the embedded database admits a single process (skipped without DATABASE_URL).
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, runJson, type TestDatabase } from '../cli/harness.js';
import { formFields } from '../signin/harness.js';
import { freePort, killAll, type MusterProcess, startMuster } from '../support/processes.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';

afterAll(killAll);
const onPostgres = Boolean(process.env.DATABASE_URL);
const running: MusterProcess[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop('SIGKILL')));
});

describe.skipIf(!onPostgres)('several processes on one PostgreSQL database', { timeout: 300_000 }, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
  }, 60_000);
  afterAll(async () => {
    await db?.cleanup();
  });

  it('three serve processes started at the same instant on a fresh database all answer readyz', async () => {
    const servers = [0, 1, 2].map(() => startMuster(['serve', '--json'], db.env));
    running.push(...servers);
    const started = await Promise.all(servers.map((s) => s.started()));
    for (const [i, s] of started.entries()) {
      expect(s.demo, `instance ${i}: no demo on PostgreSQL without --demo`).toBeNull();
      const res = await fetch(`${s.url}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ready' });
    }
    const applied = await db.query(async (d) => {
      const { rows } = await d.execute<{ n: number; distinct: number }>(
        sql.raw(
          'SELECT count(*)::int AS n, count(DISTINCT hash)::int AS distinct FROM drizzle.__drizzle_migrations',
        ),
      );
      return rows[0]!;
    });
    expect(applied.n).toBeGreaterThan(0);
    expect(applied.distinct).toBe(applied.n); // each migration recorded once
  });
});

describe.skipIf(!onPostgres)(
  'a shared secret key across serve, serve and worker',
  { timeout: 300_000 },
  () => {
    let db: TestDatabase;
    let smtp: TestSmtp;
    beforeAll(async () => {
      db = await freshDatabase();
      smtp = await startSmtp();
    }, 60_000);
    afterAll(async () => {
      await smtp?.close();
      await db?.cleanup();
    });

    it('a code requested through one instance is emailed by the worker and accepted by the other; the session works on both', async () => {
      const email = 'door.lead@muster.example';
      await runJson(db, ['users', 'create', '--email', email, '--name', 'Door Lead']);
      const portA = await freePort();
      const portB = await freePort();
      const base = `http://127.0.0.1:${portA}`; // the public URL (the load balancer's, in production)
      const env = { ...db.env, SMTP_URL: smtp.url, MUSTER_BASE_URL: base, MUSTER_WORKER: 'false' };
      const a = startMuster(['serve', '--json'], { ...env, PORT: String(portA) });
      const b = startMuster(['serve', '--json'], { ...env, PORT: String(portB) });
      const worker = startMuster(['worker', '--json'], { ...db.env, SMTP_URL: smtp.url });
      running.push(a, b, worker);
      await Promise.all([a.started(), b.started(), worker.started()]);
      const A = `http://127.0.0.1:${portA}`;
      const B = `http://127.0.0.1:${portB}`;

      // A: start the web sign-in (sealed state cookie) and ask for a code.
      const start = await fetch(`${A}/signin`, { redirect: 'manual' });
      expect(start.status).toBe(302);
      const signinCookie = cookiePair(start, 'muster_signin');
      const authorize = new URL(start.headers.get('location')!, A);
      const page = await fetch(new URL(authorize.pathname + authorize.search, A));
      const { action, fields } = formFields(await page.text());
      const asked = await fetch(new URL(action, A), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...fields, email }).toString(),
      });
      const requestId = /name="request_id" value="([^"]+)"/.exec(await asked.text())?.[1];
      expect(requestId).toBeTruthy();

      // Neither serve runs jobs: the email can only come from the worker process.
      const mail = await smtp.waitFor((m) => m.to.includes(email), 60_000);
      const code = /Your sign-in code is (\d{6})/.exec(mail.text)?.[1];
      expect(code).toMatch(/^\d{6}$/);

      // B: the code is accepted, and B opens A's sealed state cookie to finish the sign-in.
      const verified = await fetch(`${B}/api/v1/oauth/authorize/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request_id: requestId!, code: code! }).toString(),
        redirect: 'manual',
      });
      expect(verified.status).toBe(302);
      const callback = new URL(verified.headers.get('location')!);
      expect(callback.pathname).toBe('/signin/callback');
      const done = await fetch(`${B}${callback.pathname}${callback.search}`, {
        headers: { cookie: signinCookie },
        redirect: 'manual',
      });
      expect(done.status).toBe(302);
      const session = cookiePair(done, 'muster_session');

      for (const instance of [A, B]) {
        const home = await fetch(`${instance}/`, { headers: { cookie: session } });
        expect(home.status).toBe(200);
        expect(await home.text()).toContain('Signed in as');
      }
      const anonymous = await (await fetch(`${A}/`)).text();
      expect(anonymous).not.toContain('Signed in as');
    });
  },
);

/** `name=value` of the Set-Cookie named `name` (fails the test if absent). */
function cookiePair(res: Response, name: string): string {
  const found = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!found) throw new Error(`no ${name} cookie in ${JSON.stringify(res.headers.getSetCookie())}`);
  return found.split(';')[0]!;
}
