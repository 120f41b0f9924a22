/**
 * Travel calendar (docs/decisions.md "Travel calendar"): body shape, entry order, agenda dates in the event's time
 * zone, routes per mode (car addresses hidden from callers without PII rights), pickup states and
 * counts, `complete` registrations only, each entry's groups when the groups module is on. Requests
 * carry the mobile app's headers (Content-Type and Accept: application/json on GET too).
 */

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups, registrationGroups, scans, travelLegs, travels } from '../../src/db/schema/index.js';
import { get, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;
const ids: Record<string, { reg: number; person: number; travel: number }> = {};

beforeAll(async () => {
  t = await startTestApp();
  w = await buildWorld(t.deps);
  const A = w.events.A.id;
  await t.deps.db.transaction(async (tx) => {
    const add = async (key: string, first: string, status: 'complete' | 'withdrawn' = 'complete') =>
      addRegistration(tx, {
        eventId: A,
        email: `${key}@example.com`,
        firstName: first,
        lastName: 'Traveller',
        preferredName: key === 'eve' ? 'Evie' : null,
        dateOfBirth: '2000-01-01',
        status,
      });
    const cara = await add('cara', 'Cara');
    const [caraT] = await tx
      .insert(travels)
      .values({
        registrationId: cara.id,
        direction: 'inbound',
        mode: 'car',
        originAddress: '5 Elm Road, Bristol',
        // 23:30 UTC is 00:30 the next day in London (BST).
        arrivalTime: '2026-07-09T23:30:00Z',
        otherDetails: 'Blue hatchback',
      })
      .returning();
    const dan = await add('dan', 'Dan');
    const [danT] = await tx
      .insert(travels)
      .values({
        registrationId: dan.id,
        direction: 'inbound',
        mode: 'bus',
        busDepartureLocation: 'Victoria Coach Station',
        busArrivalLocation: 'Summit Hotel',
        flightNumber: 'NX 402',
        expectedArrivalTime: '2026-07-09T08:00:00Z',
        pickupDismissedAt: '2026-07-01T10:00:00Z',
      })
      .returning();
    const eve = await add('eve', 'Eve');
    const [eveT] = await tx
      .insert(travels)
      .values({
        registrationId: eve.id,
        direction: 'inbound',
        mode: 'train',
        trainDepartureStation: 'York',
        trainArrivalStation: 'London Kings Cross',
        isUnaccompaniedMinor: true,
      })
      .returning();
    await tx.insert(scans).values({
      eventId: A,
      registrationId: eve.id,
      scanContextId: w.contexts.checkInA,
      scannedAt: '2026-07-10T09:30:00Z',
      outcome: 'scanned',
      source: 'qr',
    });
    const finn = await add('finn', 'Finn');
    const [finnT] = await tx
      .insert(travels)
      .values({ registrationId: finn.id, direction: 'inbound', mode: 'plane', flightNumber: 'XX1' })
      .returning();
    await tx.insert(travelLegs).values([
      {
        travelId: finnT!.id,
        position: 1,
        flightCode: 'EI150',
        departureAirport: 'ORK',
        arrivalAirport: 'DUB',
      },
      {
        travelId: finnT!.id,
        position: 2,
        flightCode: 'EI162',
        departureAirport: 'DUB',
        arrivalAirport: 'LHR',
        arrivalTime: '2026-07-09T16:00:00Z',
      },
    ]);
    // Not complete: never on the calendar.
    const gone = await add('gone', 'Gone', 'withdrawn');
    await tx.insert(travels).values({ registrationId: gone.id, direction: 'inbound', mode: 'plane' });
    await tx.insert(travels).values({ registrationId: w.regs.minorA.id, direction: 'inbound', mode: 'car' });
    for (const [key, reg, tr] of [
      ['cara', cara, caraT],
      ['dan', dan, danT],
      ['eve', eve, eveT],
      ['finn', finn, finnT],
    ] as const) {
      ids[key] = { reg: reg.id, person: reg.personId, travel: tr!.id };
    }
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const url = () => `/api/v1/events/${w.events.A.id}/travel`;

/** GET as the mobile app sends it: JSON Content-Type and Accept even without a body. */
const appGet = (path: string, token: string | undefined) =>
  get(t.app, path, token, { headers: { 'content-type': 'application/json', accept: 'application/json' } });

async function travelIds(): Promise<{ inbound: number; outbound: number }> {
  const res = await t.deps.database.pool.query<{ id: number; direction: string }>(
    'SELECT id, direction FROM travels WHERE registration_id = $1',
    [w.regs.adultA.id],
  );
  const by = Object.fromEntries(res.rows.map((r) => [r.direction, r.id]));
  return { inbound: by.inbound!, outbound: by.outbound! };
}

describe('GET /events/{e}/travel', () => {
  it('returns every complete registration’s travel, ordered, with routes, states and counts', async () => {
    const res = await get(t.app, url(), w.secrets.ops);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const alice = await travelIds();
    const adult = w.regs.adultA;
    const base = {
      groups: [],
      participantPreferredName: null,
      isUnaccompaniedMinor: false,
      details: null,
      liveStatus: null,
      liveArrivalAt: null,
    };
    expect(res.json()).toEqual({
      eventTimezone: 'Europe/London',
      dates: ['2026-07-09', '2026-07-10', '2026-07-14'],
      entries: [
        {
          ...base,
          id: ids.dan!.travel,
          participantId: ids.dan!.person,
          participantEventId: ids.dan!.reg,
          participantName: 'Dan Traveller',
          direction: 'inbound',
          mode: 'bus',
          primaryTimeAt: '2026-07-09T08:00:00.000000Z',
          agendaDate: '2026-07-09',
          route: 'Victoria Coach Station → Summit Hotel',
          reference: 'NX 402',
          pickupState: 'pickup_not_needed',
        },
        {
          ...base,
          id: alice.inbound,
          participantId: adult.personId,
          participantEventId: adult.id,
          participantName: 'Alice Anderson',
          participantPreferredName: 'Ali',
          direction: 'inbound',
          mode: 'plane',
          primaryTimeAt: '2026-07-09T13:00:00.000000Z',
          agendaDate: '2026-07-09',
          route: 'BOS → DUB → LHR',
          reference: 'TA100, TA200',
          details: 'Window seat',
          pickupState: 'collected',
          // The final leg's live fields (test/support/world.ts: TA200 landed).
          liveStatus: 'landed',
          liveArrivalAt: '2026-07-09T13:10:00.000000Z',
        },
        {
          ...base,
          id: ids.finn!.travel,
          participantId: ids.finn!.person,
          participantEventId: ids.finn!.reg,
          participantName: 'Finn Traveller',
          direction: 'inbound',
          mode: 'plane',
          primaryTimeAt: '2026-07-09T16:00:00.000000Z',
          agendaDate: '2026-07-09',
          route: 'ORK → DUB → LHR',
          reference: 'EI150, EI162',
          pickupState: 'awaiting_pickup',
        },
        {
          ...base,
          id: ids.cara!.travel,
          participantId: ids.cara!.person,
          participantEventId: ids.cara!.reg,
          participantName: 'Cara Traveller',
          direction: 'inbound',
          mode: 'car',
          primaryTimeAt: '2026-07-09T23:30:00.000000Z',
          agendaDate: '2026-07-10',
          route: '5 Elm Road, Bristol',
          reference: null,
          details: 'Blue hatchback',
          pickupState: 'awaiting_pickup',
        },
        {
          ...base,
          id: alice.outbound,
          participantId: adult.personId,
          participantEventId: adult.id,
          participantName: 'Alice Anderson',
          participantPreferredName: 'Ali',
          direction: 'outbound',
          mode: 'train',
          primaryTimeAt: '2026-07-14T18:00:00.000000Z',
          agendaDate: '2026-07-14',
          route: 'London Euston → Manchester Piccadilly',
          reference: null,
          pickupState: null,
        },
        {
          ...base,
          id: ids.eve!.travel,
          participantId: ids.eve!.person,
          participantEventId: ids.eve!.reg,
          participantName: 'Eve Traveller',
          participantPreferredName: 'Evie',
          direction: 'inbound',
          mode: 'train',
          primaryTimeAt: null,
          agendaDate: null,
          route: 'York → London Kings Cross',
          reference: null,
          pickupState: 'checked_in',
          isUnaccompaniedMinor: true,
        },
      ],
      counts: {
        total: 6,
        inbound: 5,
        outbound: 1,
        scheduled: 5,
        unscheduled: 1,
        awaitingPickup: 2,
        collected: 1,
        checkedIn: 1,
        pickupNotNeeded: 1,
      },
    });
  });

  it.each([
    ['admin', '5 Elm Road, Bristol'],
    ['eventAdmin', '5 Elm Road, Bristol'],
    ['seriesOwner', '5 Elm Road, Bristol'],
    ['safeguarding', '5 Elm Road, Bristol'],
    ['limited', 'Address hidden'],
    ['readOnly', 'Address hidden'],
    ['eventKeyA', 'Address hidden'],
    ['legacyKeyA', 'Address hidden'],
    ['seriesKeyS1', 'Address hidden'],
  ] as const)('the car route for %s reads %s; other routes are the same for everyone', async (who, route) => {
    const res = await get(t.app, url(), w.secrets[who]);
    expect(res.statusCode).toBe(200);
    const entries = res.json().entries as { mode: string; route: string }[];
    expect(entries.find((e) => e.mode === 'car')?.route).toBe(route);
    expect(entries.filter((e) => e.mode !== 'car').map((e) => e.route)).toEqual([
      'Victoria Coach Station → Summit Hotel',
      'BOS → DUB → LHR',
      'ORK → DUB → LHR',
      'London Euston → Manchester Piccadilly',
      'York → London Kings Cross',
    ]);
    expect(JSON.stringify(res.json()).includes('Elm Road')).toBe(route !== 'Address hidden');
  });

  it('answers the event UUID like its id, and keys only within their reach', async () => {
    const byId = await get(t.app, url(), w.secrets.eventKeyA);
    const byUuid = await get(t.app, `/api/v1/events/${w.events.A.uuid}/travel`, w.secrets.eventKeyA);
    expect(byUuid.statusCode).toBe(200);
    expect(byUuid.json()).toEqual(byId.json());
    const sibling = await get(t.app, `/api/v1/events/${w.events.B.id}/travel`, w.secrets.eventKeyA);
    expect(sibling.statusCode).toBe(403);
    expect(sibling.json()).toEqual({ error: 'This API key cannot access this event' });
    const bySeries = await get(t.app, `/api/v1/events/${w.events.B.id}/travel`, w.secrets.seriesKeyS1);
    expect(bySeries.statusCode).toBe(200);
    expect(bySeries.json()).toEqual({
      eventTimezone: 'UTC',
      dates: [],
      entries: [],
      counts: {
        total: 0,
        inbound: 0,
        outbound: 0,
        scheduled: 0,
        unscheduled: 0,
        awaitingPickup: 0,
        collected: 0,
        checkedIn: 0,
        pickupNotNeeded: 0,
      },
    });
    const foreign = await get(t.app, `/api/v1/events/${w.events.A.id}/travel`, w.secrets.seriesKeyS2);
    expect(foreign.statusCode).toBe(403);
    const slug = await get(t.app, `/api/v1/events/${w.events.A.slug}/travel`, w.secrets.eventKeyA);
    expect(slug.statusCode).toBe(404);
    expect(slug.json()).toEqual({ error: 'Event not found' });
  });

  it('lists each entry’s groups {id, name, color} by name when the groups module is on, else []', async () => {
    const A = w.events.A.id;
    const made = await t.deps.db
      .insert(groups)
      .values([
        { eventId: A, name: 'Yellow bus', color: '#F1C40F' },
        { eventId: A, name: 'Mentors', color: null },
        { eventId: A, name: 'Unused', color: '#000000' },
      ])
      .returning();
    const [bus, mentors] = made;
    // A group of another event never shows, even if a membership row names it.
    const [foreign] = await t.deps.db
      .insert(groups)
      .values({ eventId: w.events.B.id, name: 'Elsewhere', color: '#FFFFFF' })
      .returning();
    await t.deps.db.insert(registrationGroups).values([
      { registrationId: ids.finn!.reg, groupId: bus!.id },
      { registrationId: ids.finn!.reg, groupId: mentors!.id },
      { registrationId: ids.finn!.reg, groupId: foreign!.id },
      { registrationId: ids.cara!.reg, groupId: bus!.id },
    ]);
    type Entry = { id: number; groups: unknown[] };
    const off = (await appGet(url(), w.secrets.ops)).json().entries as Entry[];
    expect(off.every((e) => Array.isArray(e.groups) && e.groups.length === 0)).toBe(true);

    await t.deps.db.execute(
      sql`UPDATE events SET modules = modules || '{"groups_enabled": true}'::jsonb WHERE id = ${A}`,
    );
    try {
      const res = await appGet(url(), w.secrets.ops);
      expect(res.statusCode).toBe(200);
      const entries = res.json().entries as Entry[];
      const byId = (id: number) => entries.find((e) => e.id === id)!.groups;
      expect(byId(ids.finn!.travel)).toEqual([
        { id: mentors!.id, name: 'Mentors', color: null },
        { id: bus!.id, name: 'Yellow bus', color: '#F1C40F' },
      ]);
      expect(byId(ids.cara!.travel)).toEqual([{ id: bus!.id, name: 'Yellow bus', color: '#F1C40F' }]);
      expect(byId(ids.dan!.travel)).toEqual([]);
    } finally {
      await t.deps.db.execute(
        sql`UPDATE events SET modules = modules || '{"groups_enabled": false}'::jsonb WHERE id = ${A}`,
      );
    }
  });

  it('follows a pickup scan: the awaiting traveller becomes collected', async () => {
    const scan = await t.app.inject({
      method: 'POST',
      url: `/api/v1/events/${w.events.A.id}/scans`,
      headers: { authorization: `Bearer ${w.secrets.ops}` },
      payload: { participant_id: ids.finn!.reg, scan_context_id: w.contexts.pickupA },
    });
    expect(scan.statusCode).toBe(200);
    const res = await get(t.app, url(), w.secrets.ops);
    const finn = (res.json().entries as { id: number; pickupState: string }[]).find(
      (e) => e.id === ids.finn!.travel,
    );
    expect(finn?.pickupState).toBe('collected');
    const outbound = (res.json().entries as { direction: string; pickupState: string | null }[]).filter(
      (e) => e.direction === 'outbound',
    );
    expect(outbound.map((e) => e.pickupState)).toEqual([null]);
    expect(res.json().counts).toMatchObject({ total: 6, awaitingPickup: 1, collected: 2 });
  });
});
