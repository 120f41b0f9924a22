/**
 * Chat blast fan-out: on its own scratch database (PostgreSQL: a temporary database on
 * BENCH_ADMIN_URL or postgres://postgres@127.0.0.1:5432/postgres; embedded: a temporary PGlite
 * folder opened in this process), with 5,000 `complete` participants linked to chat accounts:
 *
 * - create: `POST /events/{id}/chat_blasts` through the real app (`app.inject`), median of several
 *   (each blast deleted before the next, no worker running) — the recipient snapshot, the blast
 *   and the job in one transaction;
 * - delivery: the job worker delivering one 5,000-recipient blast to the local Slack-compatible
 *   fake (test/support/slack-fake.ts, no added latency), from the POST to `completed`, in messages
 *   per second, at MUSTER_CHAT_CONCURRENCY 4 (the default) and 16.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startWorker } from '../../src/jobs/runner.js';
import { createDeps } from '../../src/server.js';
import { seedChatParticipants } from '../../test/support/chat-seed.js';
import { type FakeSlack, startFakeSlack } from '../../test/support/slack-fake.js';
import { buildWorld } from '../../test/support/world.js';
import type { DbKind } from '../host-protocol.js';
import { largest, type Scenario } from './types.js';

const RECIPIENTS = 5000;
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ChatBlastResult {
  recipients: number;
  createMs: number[];
  createMedianMs: number;
  delivery: { concurrency: number; seconds: number; msgsPerSec: number; providerRequests: number }[];
}

export async function scratch(kind: DbKind): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'muster-bench-chat-'));
    return { env: { MUSTER_DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `muster_bench_chat_${Date.now()}`;
  const admin = async (text: string) => {
    const c = new pg.Client({ connectionString: ADMIN_URL });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function openApp(env: Record<string, string>, slack: FakeSlack, concurrency: number) {
  const config = loadConfig({
    ...env,
    LOG_LEVEL: 'silent',
    MUSTER_SECRET_KEY: Buffer.alloc(32, 3).toString('base64'),
    MUSTER_CHAT_BASE_URL: slack.apiUrl,
    MUSTER_CHAT_BOT_TOKEN: slack.token,
    MUSTER_CHAT_CONCURRENCY: String(concurrency),
  });
  const deps = await createDeps(config);
  const app = await buildApp(deps);
  const close = async () => {
    await app.close();
    await deps.close();
  };
  return { deps, app, close };
}

export const chatBlast: Scenario = {
  name: 'chat-blast',
  sizes: largest,
  async run(ctx) {
    const slack = await startFakeSlack();
    const db = await scratch(ctx.db);
    const result: ChatBlastResult = { recipients: RECIPIENTS, createMs: [], createMedianMs: 0, delivery: [] };
    try {
      let first = await openApp(db.env, slack, 4);
      const world = await buildWorld(first.deps);
      const eventId = world.events.A.id;
      const pool = first.deps.database.pool;
      await pool.query(
        'UPDATE people SET chat_user_id = NULL WHERE id IN (SELECT person_id FROM registrations WHERE event_id = $1)',
        [eventId],
      );
      await seedChatParticipants(pool, eventId, RECIPIENTS, 'UBENCH');
      const post = async (app: typeof first.app, message: string) => {
        const res = await app.inject({
          method: 'POST',
          url: `/api/v1/events/${eventId}/chat_blasts`,
          headers: { authorization: `Bearer ${world.users.eventAdmin.mobile}` },
          payload: { message },
        });
        if (res.statusCode !== 201) throw new Error(`POST chat_blasts → ${res.statusCode} ${res.body}`);
        const blast = res.json().chat_blast as { id: number; recipient_count: number };
        if (blast.recipient_count !== RECIPIENTS) throw new Error(`recipient_count ${blast.recipient_count}`);
        return blast.id;
      };
      for (let i = 0; i < (ctx.quick ? 3 : 7); i++) {
        const t0 = performance.now();
        const id = await post(first.app, `Bench create ${i}`);
        result.createMs.push(round(performance.now() - t0));
        await pool.query('DELETE FROM chat_blasts WHERE id = $1', [id]);
      }
      result.createMedianMs = median(result.createMs);
      ctx.log(
        `  create a ${RECIPIENTS}-recipient blast: median ${result.createMedianMs} ms (${result.createMs.join(', ')})`,
      );

      for (const concurrency of ctx.quick ? [4] : [4, 16]) {
        if (concurrency !== 4) {
          await first.close();
          first = await openApp(db.env, slack, concurrency);
        }
        const requests = slack.stats.requests;
        const t0 = performance.now();
        const id = await post(first.app, `Bench delivery c${concurrency}`);
        await startWorker(first.deps, { pollingIntervalSeconds: 0.5 });
        for (;;) {
          const { rows } = await first.deps.database.pool.query<{ status: string }>(
            'SELECT status FROM chat_blasts WHERE id = $1',
            [id],
          );
          if (rows[0]!.status === 'completed' || rows[0]!.status === 'failed') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const seconds = (performance.now() - t0) / 1000;
        const row = {
          concurrency,
          seconds: round(seconds, 2),
          msgsPerSec: round(RECIPIENTS / seconds),
          providerRequests: slack.stats.requests - requests,
        };
        result.delivery.push(row);
        ctx.log(
          `  deliver ${RECIPIENTS} (concurrency ${concurrency}): ${row.seconds} s → ${row.msgsPerSec} msgs/s`,
        );
      }
      await first.close();
    } finally {
      await slack.close();
      await db.drop();
    }
    ctx.attach('chat-blast', result);
  },

  summary(details) {
    const lines: string[] = [];
    for (const [db, d] of Object.entries(details['chat-blast'] ?? {})) {
      const r = d as ChatBlastResult;
      const rates = r.delivery
        .map((x) => `${x.msgsPerSec} msgs/s at concurrency ${x.concurrency}`)
        .join(', ');
      lines.push(
        `  ${db}: create ${r.recipients} recipients: median ${r.createMedianMs} ms; delivery ${rates}`,
      );
    }
    return lines.length ? ['chat blast fan-out (local Slack-compatible fake):', ...lines] : [];
  },
};
