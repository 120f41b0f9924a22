/**
 * Staff push notifications against a real local HTTP server speaking Expo's push
 * protocol (test/support/expo.ts), processed by the job worker: a pickup scan notifies the event's
 * staff devices (not the scanner, not non-staff, not APNs/FCM tokens), `DeviceNotRegistered`
 * tokens are pruned, sends are chunked by 100, a 503 is retried, a rolled-back write sends nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTokens, travelLegs, travels } from '../../src/db/schema/index.js';
import { startWorker } from '../../src/jobs/runner.js';
import { enqueueStaffPush } from '../../src/modules/push/push.service.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { type FakeExpo, startFakeExpo } from '../support/expo.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;
let expo: FakeExpo;

const expoToken = (name: string) => `ExponentPushToken[${name}]`;
const GONE = expoToken('event-admin-gone');
const STAFF = [expoToken('ops-1'), GONE, expoToken('owner-1'), expoToken('read-only-1')];
const SCANNER = expoToken('limited-1');

beforeAll(async () => {
  expo = await startFakeExpo();
  t = await startTestApp({
    MUSTER_EXPO_PUSH_URL: `${expo.url}/`,
    MUSTER_EXPO_ACCESS_TOKEN: 'expo-test-access',
    // Receipts are checked right after sending (Expo needs minutes; the fake answers at once).
    MUSTER_EXPO_RECEIPT_DELAY_SECONDS: '0',
  });
  w = await buildWorld(t.deps);
  expo.unregistered.add(GONE);
  const u = w.users;
  await t.deps.db.insert(pushTokens).values([
    { userId: u.ops.id, token: STAFF[0]!, platform: 'expo' },
    { userId: u.eventAdmin.id, token: GONE, platform: 'expo' },
    { userId: u.seriesOwner.id, token: STAFF[2]!, platform: 'expo' },
    { userId: u.readOnly.id, token: STAFF[3]!, platform: 'expo' },
    { userId: u.limited.id, token: SCANNER, platform: 'expo' },
    { userId: u.safeguarding.id, token: 'ab'.repeat(32), platform: 'apns' },
    { userId: u.participant.id, token: expoToken('participant-1'), platform: 'expo' },
    { userId: u.admin.id, token: expoToken('global-admin-1'), platform: 'expo' },
  ]);
  await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await expo?.close();
});

async function traveller(key: string): Promise<number> {
  return t.deps.db.transaction(async (tx) => {
    const reg = await addRegistration(tx, {
      eventId: w.events.A.id,
      email: `${key}@example.com`,
      firstName: key,
      lastName: 'Traveller',
      preferredName: null,
      dateOfBirth: '2000-01-01',
      status: 'complete',
    });
    const [travel] = await tx
      .insert(travels)
      .values({ registrationId: reg.id, direction: 'inbound', mode: 'plane' })
      .returning();
    await tx
      .insert(travelLegs)
      .values([{ travelId: travel!.id, position: 1, departureAirport: 'CDG', arrivalAirport: 'LHR' }]);
    return reg.id;
  });
}

function scan(secret: string, participantId: number, contextId: number) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/events/${w.events.A.id}/scans`,
    headers: bearer(secret),
    payload: { participant_id: participantId, scan_context_id: contextId },
  });
}

async function jobCount(name: string): Promise<number> {
  const res = await t.deps.db.execute<{ n: number }>(
    sql`SELECT ((SELECT count(*) FROM pgboss.job WHERE name = ${name}) +
                (SELECT count(*) FROM pgboss.archive WHERE name = ${name}))::int AS n`,
  );
  return res.rows[0]!.n;
}

async function tokensLeft(): Promise<string[]> {
  const rows = await t.deps.db.select({ token: pushTokens.token }).from(pushTokens);
  return rows.map((r) => r.token).sort();
}

const sentTo = (title: string) =>
  expo.requests.flatMap((r) => r.messages.filter((m) => m.title === title).map((m) => m.to)).sort();

describe('staff push notifications', () => {
  it('a pickup scan notifies the event staff devices and prunes an unregistered token', async () => {
    const reg = await traveller('pia');
    const res = await scan(w.secrets.limited!, reg, w.contexts.pickupA);
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toBe('scanned');
    await expo.waitFor(() => sentTo('Traveller collected').length >= STAFF.length);
    expect(sentTo('Traveller collected')).toEqual([...STAFF].sort());
    const request = expo.requests.find((r) => r.messages[0]?.title === 'Traveller collected')!;
    expect(request.headers.authorization).toBe('Bearer expo-test-access');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.messages[0]).toEqual({
      to: expect.any(String),
      title: 'Traveller collected',
      body: 'An inbound traveller was collected at Airport pickup.',
      data: {
        kind: 'travel_pickup',
        type: 'pickup',
        event_id: w.events.A.id,
        participant_event_id: reg,
        scan_context_id: w.contexts.pickupA,
        scan_id: expect.any(Number),
      },
      sound: 'default',
      priority: 'high',
    });
    for (let i = 0; i < 100 && (await tokensLeft()).includes(GONE); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await tokensLeft()).toEqual(
      [
        STAFF[0],
        STAFF[2],
        STAFF[3],
        SCANNER,
        'ab'.repeat(32),
        expoToken('participant-1'),
        expoToken('global-admin-1'),
      ].sort(),
    );
    const used = await t.deps.db.execute<{ token: string }>(
      sql`SELECT token FROM push_tokens WHERE last_used_at IS NOT NULL ORDER BY token`,
    );
    expect(used.rows.map((r) => r.token)).toEqual([STAFF[0], STAFF[2], STAFF[3]].sort());
  });

  it('only the scan that collects a traveller in a pickup context enqueues a push', async () => {
    const before = await jobCount('push-send');
    const reg = await traveller('quinn');
    // A repeat scan of the collected traveller: nothing new.
    const pia = await t.deps.db.execute<{ id: number }>(
      sql`SELECT r.id FROM registrations r JOIN people p ON p.id = r.person_id WHERE p.email = 'pia@example.com'`,
    );
    expect((await scan(w.secrets.ops!, pia.rows[0]!.id, w.contexts.pickupA)).json().outcome).toBe(
      'already_scanned',
    );
    // A door check-in marks the leg too, but is not a pickup: no push.
    expect((await scan(w.secrets.ops!, reg, w.contexts.checkInA)).json().outcome).toBe('scanned');
    expect((await scan(w.secrets.ops!, reg, w.contexts.pickupA)).json().outcome).toBe('scanned');
    expect(await jobCount('push-send')).toBe(before);
  });

  it('a rolled-back write enqueues nothing', async () => {
    const before = await jobCount('push-send');
    await expect(
      t.deps.db.transaction(async (tx) => {
        await enqueueStaffPush(t.deps, tx, {
          eventId: w.events.A.id,
          kind: 'blast_finished',
          title: 'Rolled back',
          body: 'never sent',
        });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await jobCount('push-send')).toBe(before);
  });

  it('sends in chunks of at most 100 and retries a 503', async () => {
    const many = Array.from({ length: 230 }, (_, i) => expoToken(`organizer-${i}`));
    await t.deps.db
      .insert(pushTokens)
      .values(
        many.map((token) => ({ userId: w.users.seriesOrganizer.id, token, platform: 'expo' as const })),
      );
    expo.failNext(1);
    await t.deps.db.transaction((tx) =>
      enqueueStaffPush(t.deps, tx, {
        eventId: w.events.A.id,
        kind: 'blast_finished',
        title: 'Chat blast finished',
        body: 'Delivered to 12 participants.',
        data: { chat_blast_id: 7 },
      }),
    );
    const expected = [STAFF[0]!, STAFF[2]!, STAFF[3]!, SCANNER, ...many].sort();
    await expo.waitFor(() => sentTo('Chat blast finished').length >= expected.length, 40_000);
    expect(sentTo('Chat blast finished')).toEqual(expected);
    const sizes = expo.requests
      .filter((r) => r.messages[0]?.title === 'Chat blast finished')
      .map((r) => r.messages.length)
      .sort((a, b) => b - a);
    expect(sizes).toEqual([100, 100, 34]);
    expect(expo.refused).toBe(1);
    const blast = expo.requests.find((r) => r.messages[0]?.title === 'Chat blast finished')!;
    expect(blast.messages[0]!.data).toEqual({
      chat_blast_id: 7,
      kind: 'blast_finished',
      type: 'blast',
      event_id: w.events.A.id,
    });
  }, 60_000);
});

describe('push receipts', () => {
  it('a token whose receipt says DeviceNotRegistered is pruned; tokens with ok receipts stay', async () => {
    const lateGone = STAFF[3]!; // its ticket is ok; its receipt reports the device unregistered
    expo.receiptUnregistered.add(lateGone);
    const asked = expo.receiptRequests.length;
    const reg = await traveller('rita');
    const res = await scan(w.secrets.limited!, reg, w.contexts.pickupA);
    expect(res.statusCode).toBe(200);
    for (let i = 0; i < 200 && (await tokensLeft()).includes(lateGone); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await tokensLeft()).not.toContain(lateGone);
    expect(await tokensLeft()).toEqual(expect.arrayContaining([STAFF[0], STAFF[2]]));
    // The receipt request asked for the tickets of this push (one id per sent message).
    expect(expo.receiptRequests.length).toBeGreaterThan(asked);
    expect(expo.receiptRequests.at(-1)!.length).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
