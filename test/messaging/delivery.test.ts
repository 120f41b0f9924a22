/**
 * Chat blast delivery (docs/decisions.md "Messaging") through the job worker against a real local HTTP server speaking
 * the Slack Web API subset (test/support/slack-fake.ts), with staff push on completion against the
 * fake Expo server: happy path with bounded concurrency, permanent and transient errors, 429 +
 * Retry-After, a blast where everyone fails, and resumption of a blast a crashed worker left behind
 * (stale lease retaken, `sent` recipients never resent).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTokens } from '../../src/db/schema/index.js';
import { startWorker } from '../../src/jobs/runner.js';
import { resumeChatBlasts } from '../../src/modules/chat-blasts/delivery.finish.js';
import { bearer, get, startTestApp, type TestApp } from '../support/app.js';
import { type FakeExpo, startFakeExpo } from '../support/expo.js';
import { type FakeSlack, startFakeSlack } from '../support/slack-fake.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;
let slack: FakeSlack;
let expo: FakeExpo;
const BULK = 24;
const bulkUser = (i: number) => `UBULK${String(i).padStart(2, '0')}`;
const ADMIN_DEVICE = 'ExponentPushToken[event-admin]';

beforeAll(async () => {
  slack = await startFakeSlack();
  expo = await startFakeExpo();
  t = await startTestApp({
    MUSTER_CHAT_BASE_URL: slack.apiUrl,
    MUSTER_CHAT_BOT_TOKEN: slack.token,
    MUSTER_CHAT_CONCURRENCY: '3',
    MUSTER_CHAT_MAX_ATTEMPTS: '3',
    MUSTER_CHAT_RETRY_BASE_MS: '20',
    MUSTER_CHAT_LEASE_SECONDS: '3',
    MUSTER_EXPO_PUSH_URL: expo.url,
  });
  w = await buildWorld(t.deps);
  await t.deps.db.transaction(async (tx) => {
    for (let i = 1; i <= BULK; i++) {
      await addRegistration(tx, {
        eventId: w.events.A.id,
        email: `bulk${i}@example.com`,
        firstName: `Bulk${String(i).padStart(2, '0')}`,
        lastName: 'Person',
        preferredName: null,
        dateOfBirth: '2000-01-01',
        status: 'complete',
      });
    }
    await tx
      .insert(pushTokens)
      .values({ userId: w.users.eventAdmin.id, token: ADMIN_DEVICE, platform: 'expo' });
  });
  slack.latencyMs = 20;
  await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await slack?.close();
  await expo?.close();
});

const A_USERS = ['UALICE', ...Array.from({ length: BULK }, (_, i) => bulkUser(i + 1))].sort();

async function blast(message: string, eventId = w.events.A.id, secret = w.users.eventAdmin.mobile) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/events/${eventId}/chat_blasts`,
    headers: bearer(secret),
    payload: { message },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().chat_blast as { id: number; recipient_count: number };
}

async function finished(id: number, eventId = w.events.A.id) {
  for (let i = 0; i < 600; i++) {
    const res = await get(t.app, `/api/v1/events/${eventId}/chat_blasts/${id}`, w.users.admin.mobile);
    const b = res.json().chat_blast;
    if (b.status === 'completed' || b.status === 'failed') return b;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`blast ${id} did not finish`);
}

async function recipients(blastId: number) {
  const res = await t.deps.db.execute<{
    chat_user_id: string;
    status: string;
    attempts: number;
    error: string | null;
    message_ts: string | null;
  }>(sql`SELECT chat_user_id, status, attempts, error, message_ts FROM chat_blast_recipients
          WHERE blast_id = ${blastId} ORDER BY chat_user_id`);
  return res.rows;
}

const deliveredTo = (text: string) =>
  slack.deliveries
    .filter((d) => d.text === text)
    .map((d) => d.user)
    .sort();

describe('chat blast delivery', () => {
  it('delivers once to every recipient, with bounded concurrency, and notifies staff devices', async () => {
    const b = await blast('Welcome to Summit Alpha!');
    expect(b.recipient_count).toBe(A_USERS.length);
    const done = await finished(b.id);
    expect(done).toMatchObject({
      status: 'completed',
      recipient_count: A_USERS.length,
      sent_count: A_USERS.length,
      failed_count: 0,
    });
    expect(deliveredTo('Welcome to Summit Alpha!')).toEqual(A_USERS);
    const rows = await recipients(b.id);
    const ts = new Map(slack.deliveries.map((d) => [d.user, d.ts]));
    for (const r of rows)
      expect(r).toEqual({
        ...r,
        status: 'sent',
        attempts: 1,
        error: null,
        message_ts: ts.get(r.chat_user_id),
      });
    const alice = slack.deliveries.find((d) => d.user === 'UALICE')!;
    expect(alice.channel).toBe('DUALICE');
    const aliceRow = (
      await t.deps.db.execute<{ id: number }>(
        sql`SELECT id::int AS id FROM chat_blast_recipients WHERE blast_id = ${b.id} AND chat_user_id = 'UALICE'`,
      )
    ).rows[0]!;
    expect(alice.metadata).toEqual({
      event_type: 'muster_chat_blast',
      event_payload: { recipient_id: aliceRow.id },
    });
    expect(slack.stats.historyLookups).toBe(0); // nothing retaken, nothing retried
    expect(slack.stats.maxInFlight).toBeLessThanOrEqual(3);
    const status = await t.deps.db.execute<{ status: string; started: boolean; completed: boolean }>(
      sql`SELECT status, started_at IS NOT NULL AS started, completed_at IS NOT NULL AS completed FROM chat_blasts WHERE id = ${b.id}`,
    );
    expect(status.rows).toEqual([{ status: 'completed', started: true, completed: true }]);
    await expo.waitFor((all) => all.some((r) => r.messages.some((m) => m.data.chat_blast_id === b.id)));
    const push = expo.requests.flatMap((r) => r.messages).find((m) => m.data.chat_blast_id === b.id)!;
    expect(push).toMatchObject({
      to: ADMIN_DEVICE,
      title: 'Chat blast delivered',
      body: `Sent to ${A_USERS.length} of ${A_USERS.length} participants`,
      data: {
        kind: 'blast_finished',
        event_id: w.events.A.id,
        chat_blast_id: b.id,
        status: 'completed',
        sent_count: A_USERS.length,
        recipient_count: A_USERS.length,
      },
    });
  }, 90_000);

  it('records permanent errors at once, retries transient ones, fails after the last attempt', async () => {
    slack.permanent.set(bulkUser(1), 'user_not_found');
    slack.permanent.set(bulkUser(2), 'channel_not_found');
    slack.transient.set(bulkUser(3), 4); // 3 HTTP tries per attempt: fails attempt 1, sent on attempt 2
    slack.transient.set(bulkUser(4), 1_000); // never recovers: failed after 3 attempts
    try {
      const b = await blast('Second message');
      const done = await finished(b.id);
      expect(done).toMatchObject({ status: 'completed', sent_count: A_USERS.length - 3, failed_count: 3 });
      const rows = new Map((await recipients(b.id)).map((r) => [r.chat_user_id, r]));
      expect(rows.get(bulkUser(1))).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: 'user_not_found',
        message_ts: null,
      });
      expect(rows.get(bulkUser(2))).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: 'channel_not_found',
      });
      expect(rows.get(bulkUser(3))).toMatchObject({ status: 'sent', attempts: 2, error: null });
      expect(rows.get(bulkUser(4))).toMatchObject({
        status: 'failed',
        attempts: 3,
        error: 'http_503',
        message_ts: null,
      });
      expect(deliveredTo('Second message')).toEqual(
        A_USERS.filter((u) => ![bulkUser(1), bulkUser(2), bulkUser(4)].includes(u)),
      );
    } finally {
      slack.permanent.clear();
      slack.transient.clear();
    }
  }, 90_000);

  it('pauses on 429 + Retry-After and retries without failing anyone', async () => {
    const before = slack.stats.rateLimited;
    slack.afterRateLimit.length = 0;
    slack.rateLimitNext(4, 1);
    const b = await blast('Rate limited message');
    const done = await finished(b.id);
    expect(done).toMatchObject({ status: 'completed', sent_count: A_USERS.length, failed_count: 0 });
    expect(slack.stats.rateLimited - before).toBe(4);
    expect(deliveredTo('Rate limited message')).toEqual(A_USERS);
    // The retried requests came no sooner than Retry-After (1 s) allows: the client paused. (Requests
    // already in flight when the 429 came back may arrive at once, so not every delay is long.)
    expect(Math.max(...slack.afterRateLimit)).toBeGreaterThanOrEqual(900);
  }, 90_000);

  it('ends `failed` when every recipient failed, and says so to staff', async () => {
    const users = (
      await t.deps.db.execute<{ u: string }>(
        sql`SELECT p.chat_user_id AS u FROM registrations r JOIN people p ON p.id = r.person_id
             WHERE r.event_id = ${w.events.B.id} AND r.status = 'complete'`,
      )
    ).rows.map((r) => r.u);
    for (const u of users) slack.permanent.set(u, 'account_inactive');
    try {
      const b = await blast('Nobody gets this', w.events.B.id, w.users.seriesOwner.mobile);
      const done = await finished(b.id, w.events.B.id);
      expect(done).toMatchObject({ status: 'failed', sent_count: 0, failed_count: users.length });
      expect(deliveredTo('Nobody gets this')).toEqual([]);
    } finally {
      slack.permanent.clear();
    }
  }, 90_000);

  it('resumes a blast a crashed worker left: claims retaken, posted-but-unrecorded found in history, sent never resent', async () => {
    const { blastId, ids } = await t.deps.db.transaction(async (tx) => {
      const res = await tx.execute<{ id: number }>(
        sql`INSERT INTO chat_blasts (event_id, message, status, sent_by, recipient_count, started_at)
            VALUES (${w.events.A.id}, 'Resumed message', 'in_progress', 'Evan Eventadmin', 4, now()) RETURNING id`,
      );
      const id = res.rows[0]!.id;
      const rows = await tx.execute<{ id: number; chat_user_id: string }>(sql`
        INSERT INTO chat_blast_recipients (blast_id, chat_user_id, status, attempts, message_ts, sent_at, claimed_at)
        VALUES (${id}, ${bulkUser(5)}, 'sent', 1, '1.000001', now(), NULL),
               (${id}, ${bulkUser(6)}, 'pending', 0, NULL, NULL, now() - interval '1 hour'),
               (${id}, ${bulkUser(7)}, 'pending', 0, NULL, NULL, now()),
               (${id}, ${bulkUser(8)}, 'pending', 0, NULL, NULL, now() - interval '1 hour')
        RETURNING id::int AS id, chat_user_id`);
      return { blastId: id, ids: new Map(rows.rows.map((r) => [r.chat_user_id, r.id])) };
    });
    // The crashed worker had posted to UBULK08 but died before recording it.
    const posted = `${Math.floor(Date.now() / 1000)}.999999`;
    slack.deliveries.push({
      user: bulkUser(8),
      channel: `D${bulkUser(8)}`,
      text: 'Resumed message',
      ts: posted,
      metadata: { event_type: 'muster_chat_blast', event_payload: { recipient_id: ids.get(bulkUser(8))! } },
    });
    const lookups = slack.stats.historyLookups;
    expect(await resumeChatBlasts(t.deps)).toBe(1);
    const done = await finished(blastId);
    expect(done).toMatchObject({ status: 'completed', recipient_count: 4, sent_count: 4, failed_count: 0 });
    expect(deliveredTo('Resumed message')).toEqual([bulkUser(6), bulkUser(7), bulkUser(8)]);
    expect(slack.stats.historyLookups - lookups).toBe(3);
    const rows = new Map((await recipients(blastId)).map((r) => [r.chat_user_id, r]));
    expect(rows.get(bulkUser(8))).toMatchObject({ status: 'sent', message_ts: posted });
    expect(rows.get(bulkUser(5))).toMatchObject({ status: 'sent', message_ts: '1.000001' });
  }, 90_000);

  it('falls back to posting again (at least once) when the history lookup is refused', async () => {
    const { blastId, recipientId } = await t.deps.db.transaction(async (tx) => {
      const res = await tx.execute<{ id: number }>(
        sql`INSERT INTO chat_blasts (event_id, message, status, sent_by, recipient_count, started_at)
            VALUES (${w.events.A.id}, 'No history scope', 'in_progress', 'Evan Eventadmin', 1, now()) RETURNING id`,
      );
      const id = res.rows[0]!.id;
      const row = await tx.execute<{ id: number }>(sql`
        INSERT INTO chat_blast_recipients (blast_id, chat_user_id, claimed_at)
        VALUES (${id}, ${bulkUser(9)}, now() - interval '1 hour') RETURNING id::int AS id`);
      return { blastId: id, recipientId: row.rows[0]!.id };
    });
    slack.deliveries.push({
      user: bulkUser(9),
      channel: `D${bulkUser(9)}`,
      text: 'No history scope',
      ts: `${Math.floor(Date.now() / 1000)}.999998`,
      metadata: { event_type: 'muster_chat_blast', event_payload: { recipient_id: recipientId } },
    });
    slack.historyError = 'missing_scope';
    try {
      expect(await resumeChatBlasts(t.deps)).toBe(1);
      const done = await finished(blastId);
      expect(done).toMatchObject({ status: 'completed', sent_count: 1, failed_count: 0 });
      expect(deliveredTo('No history scope')).toEqual([bulkUser(9), bulkUser(9)]);
    } finally {
      slack.historyError = null;
    }
  }, 90_000);
});
