/**
 * Crash safety of chat blasts: a 5,000-recipient blast against the local Slack-compatible server with 5%
 * transient failures, 1% permanent failures and the worker (`muster worker`, a child process)
 * SIGKILLed three times mid-delivery, then a final worker finishing it. Every recipient ends `sent`
 * or `failed` exactly once, `sent_count + failed_count = recipient_count`, the blast ends
 * `completed` (after a fourth, graceful SIGTERM stop on the way), and the fake's delivery log shows no user messaged twice: a message posted by a
 * killed worker but not yet recorded is found in the DM history (by its metadata) when the claim is
 * retaken, and recorded instead of posted again.
 *
 * PostgreSQL only: the embedded database is a single-process folder (its lock would stop the
 * worker process), so this file is skipped without DATABASE_URL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { chatUserId, seedChatParticipants } from '../support/chat-seed.js';
import { cliArgs } from '../support/cli-build.js';
import { type FakeSlack, startFakeSlack } from '../support/slack-fake.js';
import { buildWorld, type World } from '../support/world.js';

const RECIPIENTS = 5000;
const CONCURRENCY = 8;
const KILL_AT = [700, 1900, 3100];
const STOP_AT = 3800;
const ROOT = path.resolve(import.meta.dirname, '../..');
const onPostgres = Boolean(process.env.DATABASE_URL);

let t: TestApp;
let w: World;
let slack: FakeSlack;
let workerEnv: Record<string, string>;
const children = new Set<ChildProcess>();

const transientUsers: string[] = [];
const permanentUsers: string[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  slack = await startFakeSlack();
  slack.latencyMs = 2;
  const env = {
    MUSTER_CHAT_BASE_URL: slack.apiUrl,
    MUSTER_CHAT_BOT_TOKEN: slack.token,
    MUSTER_CHAT_CONCURRENCY: String(CONCURRENCY),
    MUSTER_CHAT_MAX_ATTEMPTS: '5',
    MUSTER_CHAT_RETRY_BASE_MS: '50',
    MUSTER_CHAT_LEASE_SECONDS: '3',
  };
  t = await startTestApp(env);
  w = await buildWorld(t.deps);
  const pool = t.deps.database.pool;
  // Only the bulk participants are linked in event A.
  await pool.query(
    'UPDATE people SET chat_user_id = NULL WHERE id IN (SELECT person_id FROM registrations WHERE event_id = $1)',
    [w.events.A.id],
  );
  await seedChatParticipants(pool, w.events.A.id, RECIPIENTS, 'UCRASH');
  // Deterministic: every 20th user is transient (5%), every 100th (offset 7) permanent (1%).
  for (let i = 1; i <= RECIPIENTS; i++) {
    const u = chatUserId('UCRASH', i);
    if (i % 20 === 0) {
      transientUsers.push(u);
      slack.transient.set(u, 1 + ((i / 20) % 5)); // 1..5 HTTP failures: some outlast the client's 3 tries
    } else if (i % 100 === 7) {
      permanentUsers.push(u);
      slack.permanent.set(u, i % 200 === 7 ? 'user_not_found' : 'channel_not_found');
    }
  }
  workerEnv = {
    ...process.env,
    ...env,
    DATABASE_URL: (t.deps.config.databaseUrl as string) ?? '',
    LOG_LEVEL: 'silent',
    MUSTER_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  } as Record<string, string>;
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await t?.close();
  await slack?.close();
});

function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, cliArgs(['worker', '--json']), {
    cwd: ROOT,
    env: workerEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

async function until(test: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

describe.skipIf(!onPostgres)(
  '5,000-recipient blast with failures and three worker crashes (PostgreSQL)',
  () => {
    it('ends with every recipient sent or failed exactly once and the blast completed', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/events/${w.events.A.id}/chat_blasts`,
        headers: bearer(w.users.eventAdmin.mobile),
        payload: { message: 'Crash-test announcement' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const blast = res.json().chat_blast as { id: number; recipient_count: number };
      expect(blast.recipient_count).toBe(RECIPIENTS);

      for (const threshold of KILL_AT) {
        const child = startWorkerProcess();
        await until(() => slack.deliveries.length >= threshold, 240_000, `${threshold} deliveries`);
        await kill(child);
      }
      // Then a graceful stop (SIGTERM): the worker stops between recipients, releases its unstarted
      // claims, fails its job for a retry and exits 0.
      const graceful = startWorkerProcess();
      await until(() => slack.deliveries.length >= STOP_AT, 240_000, `${STOP_AT} deliveries`);
      const code = new Promise<number | null>((resolve) => graceful.once('exit', (c) => resolve(c)));
      graceful.kill('SIGTERM');
      expect(await code).toBe(0);
      expect(slack.deliveries.length).toBeLessThan(RECIPIENTS);

      const pool = t.deps.database.pool;
      const status = async () =>
        (await pool.query<{ status: string }>('SELECT status FROM chat_blasts WHERE id = $1', [blast.id]))
          .rows[0]!.status;
      startWorkerProcess();
      await until(async () => (await status()) === 'completed', 300_000, 'the blast to complete');

      const rows = (
        await pool.query<{
          chat_user_id: string;
          status: string;
          message_ts: string | null;
          error: string | null;
        }>('SELECT chat_user_id, status, message_ts, error FROM chat_blast_recipients WHERE blast_id = $1', [
          blast.id,
        ])
      ).rows;
      expect(rows).toHaveLength(RECIPIENTS);
      const byStatus = (s: string) => rows.filter((r) => r.status === s);
      expect(byStatus('pending')).toEqual([]);
      expect(
        byStatus('failed')
          .map((r) => r.chat_user_id)
          .sort(),
      ).toEqual([...permanentUsers].sort());
      for (const r of byStatus('failed')) expect(['user_not_found', 'channel_not_found']).toContain(r.error);
      expect(byStatus('sent')).toHaveLength(RECIPIENTS - permanentUsers.length);

      const counts = (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/events/${w.events.A.id}/chat_blasts/${blast.id}`,
          headers: bearer(w.users.eventAdmin.mobile),
        })
      ).json().chat_blast;
      expect(counts).toMatchObject({ status: 'completed', recipient_count: RECIPIENTS });
      expect(counts.sent_count + counts.failed_count).toBe(counts.recipient_count);
      expect(counts.failed_count).toBe(permanentUsers.length);

      // The provider's log: every sent recipient got the message, its recorded ts is one of its
      // deliveries, failed ones got nothing; duplicates only from the at-least-once window.
      const log = new Map<string, string[]>();
      for (const d of slack.deliveries) log.set(d.user, [...(log.get(d.user) ?? []), d.ts]);
      for (const r of byStatus('sent')) expect(log.get(r.chat_user_id) ?? []).toContain(r.message_ts);
      for (const u of permanentUsers) expect(log.has(u)).toBe(false);
      const duplicates = [...log.values()].filter((list) => list.length > 1).length;
      expect(duplicates).toBeLessThanOrEqual(KILL_AT.length * CONCURRENCY);
      expect(log.size).toBe(RECIPIENTS - permanentUsers.length);
      // The transient users all recovered (their failures fit within the attempts).
      for (const u of transientUsers) expect(log.has(u)).toBe(true);
      console.log(
        `crash test: ${KILL_AT.length} kills, ${slack.deliveries.length} deliveries for ${log.size} users, ` +
          `${duplicates} duplicated, ${slack.stats.historyLookups} history lookups, ${slack.stats.serverErrors} injected 503s`,
      );
    }, 900_000);
  },
);
