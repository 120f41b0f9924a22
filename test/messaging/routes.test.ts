/**
 * Chat blast routes (docs/decisions.md "Messaging") with exact statuses and bodies, on the real database,
 * without a worker: message rules, recipient snapshot (status `complete` with a linked chat account,
 * one row per chat user), the job enqueued in the creating transaction, listing newest first, and
 * 503 when no chat provider is configured.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeChatBlasts } from '../../src/modules/chat-blasts/delivery.finish.js';
import { bearer, get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

beforeAll(async () => {
  t = await startTestApp({
    MUSTER_CHAT_BOT_TOKEN: 'xoxb-routes',
    MUSTER_CHAT_BASE_URL: 'http://127.0.0.1:9/api',
  });
  w = await buildWorld(t.deps);
  await t.deps.db.transaction(async (tx) => {
    const add = (firstName: string, status: 'complete' | 'in_progress') =>
      addRegistration(tx, {
        eventId: w.events.A.id,
        email: `${firstName.toLowerCase()}@example.com`,
        firstName,
        lastName: 'Blast',
        preferredName: null,
        dateOfBirth: '2000-01-01',
        status,
      });
    await add('Linked', 'complete');
    const unlinked = await add('Unlinked', 'complete');
    const blank = await add('Blank', 'complete');
    const twin = await add('Twin', 'complete');
    await add('Pending', 'in_progress');
    await tx.execute(sql`UPDATE people SET chat_user_id = NULL WHERE id = ${unlinked.personId}`);
    await tx.execute(sql`UPDATE people SET chat_user_id = '  ' WHERE id = ${blank.personId}`);
    // A second registration's person shares the chat account of "Linked": one message each.
    await tx.execute(sql`UPDATE people SET chat_user_id = 'ULINKED' WHERE id = ${twin.personId}`);
    // Event B: nobody linked.
    await tx.execute(
      sql`UPDATE people SET chat_user_id = NULL WHERE id IN (SELECT person_id FROM registrations WHERE event_id = ${w.events.B.id})`,
    );
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const post = (eventId: number | string, payload: unknown, secret = w.users.eventAdmin.mobile) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/events/${eventId}/chat_blasts`,
    headers: bearer(secret),
    payload: payload as Record<string, unknown>,
  });

describe('POST /events/{event_id}/chat_blasts', () => {
  it('rejects a blank, missing or too long message with 422 and changes nothing', async () => {
    const before = await snapshotDb(t.deps);
    for (const message of ['', '   ', '\n\t ']) {
      const res = await post(w.events.A.id, { message });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'Message cannot be blank' });
    }
    const long = await post(w.events.A.id, { message: 'x'.repeat(4001) });
    expect(long.statusCode).toBe(422);
    expect(long.json()).toEqual({ error: 'Message must be at most 4000 characters' });
    for (const payload of [{}, { message: 5 }, { message: 'hi', extra: true }]) {
      const res = await post(w.events.A.id, payload);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json())).toEqual(['error']);
    }
    const none = await post(w.events.B.id, { message: 'Hello B' }, w.users.seriesOwner.mobile);
    expect(none.statusCode).toBe(422);
    expect(none.json()).toEqual({ error: 'No participants with linked chat accounts' });
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('creates a pending blast, snapshots complete linked recipients once each, enqueues delivery', async () => {
    const padded = `  ${'y'.repeat(4000)}  `;
    const res = await post(w.events.A.id, { message: padded });
    expect(res.statusCode, res.body).toBe(201);
    const { chat_blast } = res.json();
    expect(chat_blast).toEqual({
      id: expect.any(Number),
      message: 'y'.repeat(4000),
      status: 'pending',
      recipient_count: 2,
      sent_count: 0,
      failed_count: 0,
      created_at: expect.stringMatching(ISO),
      sent_by: 'Evan Eventadmin',
    });
    const recipients = await t.deps.database.pool.query(
      'SELECT chat_user_id, status, attempts, message_ts, claimed_at FROM chat_blast_recipients WHERE blast_id = $1 ORDER BY chat_user_id',
      [chat_blast.id],
    );
    expect(recipients.rows).toEqual(
      ['UALICE', 'ULINKED'].map((chat_user_id) => ({
        chat_user_id,
        status: 'pending',
        attempts: 0,
        message_ts: null,
        claimed_at: null,
      })),
    );
    const jobs = await t.deps.database.pool.query(
      `SELECT data FROM pgboss.job WHERE name = 'chat-blast-deliver' AND (data->>'blast_id')::int = $1`,
      [chat_blast.id],
    );
    expect(jobs.rows).toEqual([{ data: { blast_id: chat_blast.id } }]);
    // A worker starting up does not enqueue a second job for a blast whose job is still waiting.
    expect(await resumeChatBlasts(t.deps)).toBe(0);
    const audit = await t.deps.database.pool.query(
      `SELECT metadata FROM audit_log WHERE action = 'chat_blasts.create' AND target_id = $1`,
      [String(chat_blast.id)],
    );
    expect(audit.rows).toEqual([
      { metadata: { chat_blast_id: chat_blast.id, recipient_count: 2, message_length: 4000 } },
    ]);
  });

  it('accepts the event UUID; a slug is 404', async () => {
    const res = await post(w.events.A.uuid, { message: 'By UUID' }, w.users.ops.mobile);
    expect(res.statusCode).toBe(201);
    expect(res.json().chat_blast.sent_by).toBe('Olga Ops');
    const slug = await post(w.events.A.slug, { message: 'By slug' });
    expect(slug.statusCode).toBe(404);
    expect(slug.json()).toEqual({ error: 'Event not found' });
  });
});

describe('GET /events/{event_id}/chat_blasts', () => {
  it('lists the event’s blasts newest first, with limit and offset', async () => {
    const third = (await post(w.events.A.id, { message: 'Third' })).json().chat_blast;
    const res = await get(t.app, `/api/v1/events/${w.events.A.id}/chat_blasts`, w.users.limited.mobile);
    expect(res.statusCode).toBe(200);
    const list = res.json().chat_blasts as { id: number; message: string }[];
    expect(list.map((b) => b.message)).toEqual(['Third', 'By UUID', 'y'.repeat(4000)]);
    expect(list[0]).toEqual(third);
    const page = await get(
      t.app,
      `/api/v1/events/${w.events.A.id}/chat_blasts?limit=1&offset=1`,
      w.users.admin.mobile,
    );
    expect(page.json().chat_blasts.map((b: { message: string }) => b.message)).toEqual(['By UUID']);
    const other = await get(t.app, `/api/v1/events/${w.events.C.id}/chat_blasts`, w.users.admin.mobile);
    expect(other.json()).toEqual({ chat_blasts: [] });
  });

  it('reads one blast; unknown, malformed or another event’s id is 404', async () => {
    const list = (
      await get(t.app, `/api/v1/events/${w.events.A.id}/chat_blasts`, w.users.admin.mobile)
    ).json();
    const first = list.chat_blasts[0];
    const one = await get(
      t.app,
      `/api/v1/events/${w.events.A.id}/chat_blasts/${first.id}`,
      w.users.ops.mobile,
    );
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ chat_blast: first });
    for (const url of [
      `/api/v1/events/${w.events.A.id}/chat_blasts/999999`,
      `/api/v1/events/${w.events.A.id}/chat_blasts/abc`,
      `/api/v1/events/${w.events.C.id}/chat_blasts/${first.id}`,
    ]) {
      const res = await get(t.app, url, w.users.admin.mobile);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ error: 'Chat blast not found' });
    }
  });
});

describe('without a chat provider', () => {
  it('POST answers 503 `Chat provider is not configured` after validating the message, creating nothing', async () => {
    const bare = await startTestApp();
    try {
      const world = await buildWorld(bare.deps);
      const inject = (message: string) =>
        bare.app.inject({
          method: 'POST',
          url: `/api/v1/events/${world.events.A.id}/chat_blasts`,
          headers: bearer(world.users.eventAdmin.mobile),
          payload: { message },
        });
      const before = await snapshotDb(bare.deps);
      const res = await inject('Hello');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'Chat provider is not configured' });
      expect((await inject(' ')).json()).toEqual({ error: 'Message cannot be blank' });
      expect(await snapshotDb(bare.deps)).toEqual(before);
      const list = await get(
        bare.app,
        `/api/v1/events/${world.events.A.id}/chat_blasts`,
        world.users.eventAdmin.mobile,
      );
      expect(list.json()).toEqual({ chat_blasts: [] });
    } finally {
      await bare.close();
    }
  }, 60_000);
});
