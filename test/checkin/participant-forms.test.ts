/**
 * Every form of participant reference of docs/decisions.md "Check-in", in POST /scans `participant_id`, in POST
 * /scans/bulk items and in DELETE /scans/{ref}, sent with the mobile app's headers (JSON
 * Content-Type and Accept on every request, the event's numeric id in the path, no body on DELETE).
 * `registration_uuid` is random, distinct per registration and given to existing rows too.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { type AppMethod, appInject } from '../support/mobile-app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let B: number;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  B = world.events.B.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const NOT_FOUND = { error: 'Participant not found for this event' };

const appRequest = (method: AppMethod, url: string, body?: unknown) =>
  appInject(app, world.users.admin.mobile, method, url, body);

async function newReg(tag: string, eventId = B) {
  const reg = await t.deps.db.transaction((tx) =>
    addRegistration(tx, {
      eventId,
      email: `${tag}@forms.test`,
      firstName: tag,
      lastName: 'Forms',
      preferredName: null,
      dateOfBirth: '1990-01-01',
      status: 'complete',
    }),
  );
  const res = await t.deps.db.execute<{ uuid: string }>(
    sql`SELECT uuid::text FROM registrations WHERE id = ${reg.id}`,
  );
  return { ...reg, uuid: res.rows[0]!.uuid };
}

/** Every accepted form for `reg`, as the app or a printed badge would carry it. */
function forms(reg: { id: number; personId: number; uuid: string }): [string, unknown][] {
  return [
    ['registration id (number)', reg.id],
    ['registration id (string)', String(reg.id)],
    ['bare UUID', reg.uuid],
    ['bare UUID, upper case, padded', ` ${reg.uuid.toUpperCase()} `],
    ['muster://checkin/<uuid>', `muster://checkin/${reg.uuid}`],
    ['attend://checkin/<uuid>', `attend://checkin/${reg.uuid}`],
    ['muster://checkin/<person id>', `muster://checkin/${reg.personId}`],
    ['attend://checkin/<registration id>', `attend://checkin/${reg.id}`],
  ];
}

describe('registration_uuid', () => {
  it('every registration has its own random UUID', async () => {
    const res = await t.deps.db.execute<{ n: number; distinct_n: number; v4: number }>(
      sql`SELECT count(*)::int AS n, count(DISTINCT uuid)::int AS distinct_n,
                 count(*) FILTER (WHERE uuid::text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-4')::int AS v4 FROM registrations`,
    );
    const row = res.rows[0]!;
    expect(row.n).toBeGreaterThan(3);
    expect(row.distinct_n).toBe(row.n);
    expect(row.v4).toBe(row.n);
  });
});

describe('participant_id forms (docs/decisions.md "Participants API")', () => {
  it('POST /scans resolves every form to the registration', async () => {
    const reg = await newReg('scanforms');
    for (const [label, participant_id] of forms(reg)) {
      const res = await appRequest('POST', `/events/${B}/scans`, {
        participant_id,
        scan_context_id: world.contexts.checkInB,
        client_scan_id: `form-${label}`,
        source: 'qr',
        scanned_at: new Date().toISOString(),
      });
      expect(res.statusCode, label).toBe(200);
      expect(res.json().participant.participant_event_id, label).toBe(reg.id);
    }
  });

  it('attend://checkin/<number> is a bare number: a person id when no registration has that id', async () => {
    const reg = await newReg('attendperson');
    const clash = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM registrations WHERE event_id = ${B} AND id = ${reg.personId}`,
    );
    const res = await appRequest('POST', `/events/${B}/scans`, {
      participant_id: `attend://checkin/${reg.personId}`,
      scan_context_id: world.contexts.checkInB,
    });
    expect(res.statusCode).toBe(200);
    if (clash.rows[0]!.n === 0) expect(res.json().participant.participant_event_id).toBe(reg.id);
  });

  it('anything else is 404 Participant not found for this event, and writes nothing', async () => {
    const other = await newReg('otherevent', world.events.A.id);
    const before = await snapshotDb(t.deps);
    for (const participant_id of [
      other.uuid, // a registration of another event
      `muster://checkin/${other.uuid}`,
      '3f0c8a52-7d4e-4c1b-9a8e-2b6f1d0e9c47', // nobody's
      `attend:P:${other.uuid}`, // the app strips this prefix itself
      'attend://checkin/abc',
      'attend://checkin/',
      'muster://checkin/',
      'https://badge.hackclub.com/t/U123',
      '3f0c8a52-7d4e-4c1b-9a8e-2b6f1d0e9c4', // one digit short
      'nonsense',
      '0',
      99999999,
    ]) {
      const res = await appRequest('POST', `/events/${B}/scans`, {
        participant_id,
        scan_context_id: world.contexts.checkInB,
      });
      expect(res.statusCode, String(participant_id)).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('POST /scans/bulk takes the same forms', async () => {
    const reg = await newReg('bulkforms');
    const items = forms(reg).map(([label, participant_id]) => ({
      participant_id,
      scan_context_id: world.contexts.checkInB,
      client_scan_id: `bulk-${label}`,
      scanned_at: new Date().toISOString(),
    }));
    const res = await appRequest('POST', `/events/${B}/scans/bulk`, {
      scans: [...items, { participant_id: 'attend://checkin/abc', client_scan_id: 'bulk-bad' }],
    });
    expect(res.statusCode).toBe(200);
    const results = res.json().results as { client_scan_id: string; status: string; error?: string }[];
    expect(results.slice(0, -1).map((r) => r.status)).toEqual(items.map(() => 'ok'));
    expect(results.at(-1)).toMatchObject({
      client_scan_id: 'bulk-bad',
      status: 'error',
      error: NOT_FOUND.error,
    });
    const stored = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM scans WHERE registration_id = ${reg.id}`,
    );
    expect(stored.rows[0]!.n).toBe(items.length);
  });

  it('DELETE /scans/{ref} (no body, JSON Content-Type) undoes by every form, URL-encoded', async () => {
    for (const [label] of forms({ id: 0, personId: 0, uuid: '' })) {
      const reg = await newReg(`undo${label.replace(/[^a-z]/gi, '')}`);
      const ref = forms(reg).find(([l]) => l === label)![1];
      const scan = await appRequest('POST', `/events/${B}/scans`, {
        participant_id: reg.id,
        scan_context_id: world.contexts.checkInB,
      });
      expect(scan.statusCode).toBe(200);
      const res = await appRequest(
        'DELETE',
        `/events/${B}/scans/${encodeURIComponent(String(ref))}?scan_context_id=${world.contexts.checkInB}`,
      );
      expect(res.statusCode, label).toBe(200);
      expect(res.json(), label).toEqual({
        success: true,
        deleted_scans: 1,
        participant_event_id: reg.id,
        scan_context_id: world.contexts.checkInB,
      });
    }
    const other = await newReg('undoother', world.events.A.id);
    for (const ref of [other.uuid, 'attend://checkin/abc', 'nonsense', '0', '99999999999']) {
      const res = await appRequest('DELETE', `/events/${B}/scans/${encodeURIComponent(ref)}`);
      expect(res.statusCode, ref).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });
});
