/**
 * The pickup run sheet over HTTP against the real database (docs/checkin.md "Pickup run sheet"):
 * one day's arrivals of event A for its travel-pickup context, unaccompanied minors first, then by
 * expected time; each time in the arrival airport's own zone; a landed flight with its delay; who
 * is still to collect and who was collected, before and after a pickup scan; the traveller's phone
 * for ops, never in the markup for `limited`; the page links from the desk, the overview and the
 * arrivals board; a context that is not a pickup falls back to the pickup context.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travelLegs, travels } from '../../src/db/schema/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type UserName, type World } from '../support/world.js';
import { getPage, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
const DAY = '2026-07-09';
let zed: number;

/** A complete registration of event A with an inbound journey (one plane leg, or a train). */
async function traveller(input: {
  first: string;
  last: string;
  phone: string;
  minor?: boolean;
  dismissed?: boolean;
  leg?: { code: string; from: string; to: string; arr: string; live?: string; liveArr?: string };
  train?: { station: string; arr: string };
}): Promise<number> {
  return t.deps.db.transaction(async (tx) => {
    const reg = await addRegistration(tx, {
      eventId: world.events.A.id,
      email: `${input.first.toLowerCase()}@sheet.example`,
      firstName: input.first,
      lastName: input.last,
      preferredName: null,
      dateOfBirth: input.minor ? '2012-01-01' : '1990-01-01',
      status: 'complete',
      phone: input.phone,
    });
    const [travel] = await tx
      .insert(travels)
      .values({
        registrationId: reg.id,
        direction: 'inbound',
        mode: input.train ? 'train' : 'plane',
        isUnaccompaniedMinor: input.minor ?? false,
        trainArrivalStation: input.train?.station ?? null,
        arrivalTime: input.train?.arr ?? null,
        originAddress: '7 Secret Lane, Leeds',
        pickupDismissedAt: input.dismissed ? '2026-07-01T10:00:00Z' : null,
      })
      .returning();
    if (input.leg) {
      await tx.insert(travelLegs).values({
        travelId: travel!.id,
        position: 1,
        flightCode: input.leg.code,
        departureAirport: input.leg.from,
        arrivalAirport: input.leg.to,
        departureTime: new Date(Date.parse(input.leg.arr) - 7 * 3600_000).toISOString(),
        arrivalTime: input.leg.arr,
        liveStatus: input.leg.live ?? null,
        liveArrivalTime: input.leg.liveArr ?? null,
      });
    }
    return reg.id;
  });
}

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  // Event A (Europe/London) on 9 July: Ali Anderson (the world's adult) landed at LHR and was
  // collected at the pickup at 15:00 UTC; four more arrive that day, one the next day.
  zed = await traveller({
    first: 'Zed',
    last: 'Young',
    phone: '+447700900555',
    leg: {
      code: 'BA117',
      from: 'JFK',
      to: 'LHR',
      arr: `${DAY}T09:00:00Z`,
      live: 'landed',
      liveArr: `${DAY}T09:20:00Z`,
    },
  });
  await traveller({
    first: 'Mia',
    last: 'Martin',
    phone: '+447700900556',
    minor: true,
    leg: { code: 'AF1080', from: 'LHR', to: 'CDG', arr: `${DAY}T18:00:00Z`, live: 'scheduled' },
  });
  await traveller({
    first: 'Tom',
    last: 'Train',
    phone: '+447700900557',
    train: { station: 'London Euston', arr: `${DAY}T11:00:00Z` },
  });
  await traveller({
    first: 'Dan',
    last: 'Driven',
    phone: '+447700900558',
    dismissed: true,
    leg: { code: 'EI154', from: 'DUB', to: 'LHR', arr: `${DAY}T12:00:00Z` },
  });
  await traveller({
    first: 'Nia',
    last: 'Nextday',
    phone: '+447700900559',
    leg: { code: 'BA118', from: 'JFK', to: 'LHR', arr: '2026-07-10T09:00:00Z' },
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const sheetUrl = (context = world.contexts.pickupA) =>
  `/staff/events/${world.events.A.id}/run-sheet?context=${context}&date=${DAY}`;

async function open(user: UserName, url = sheetUrl()) {
  const b = await signedInBrowser(t.deps, world.users[user].id);
  return getPage(app, b, url);
}

/** The names of one list (`missing`, `collected`, `not-needed`), in page order. */
function names(html: string, list: string): string[] {
  const ul =
    new RegExp(`<ul class="roll-list" id="sheet-${list}"[^>]*>([\\s\\S]*?)</ul>`).exec(html)?.[1] ?? '';
  return [...ul.matchAll(/<li data-pe="\d+"[^>]*><strong>([^<]+)<\/strong>/g)].map((m) => m[1]!);
}

function item(html: string, name: string): string {
  return new RegExp(`<li data-pe="\\d+"[^>]*><strong>${name}</strong>[\\s\\S]*?</li>`).exec(html)?.[0] ?? '';
}

describe('pickup run sheet', () => {
  it('lists the day’s arrivals, unaccompanied minors first, then by expected time', async () => {
    const page = await open('ops');
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<h1 class="desk-title">Pickup run sheet</h1>');
    expect(names(page.body, 'missing')).toEqual(['Mia Martin', 'Zed Young', 'Tom Train']);
    expect(names(page.body, 'collected')).toEqual(['Ali Anderson']);
    expect(names(page.body, 'not-needed')).toEqual(['Dan Driven']);
    expect(page.body).not.toContain('Nia Nextday');
    expect(item(page.body, 'Mia Martin')).toContain('Unaccompanied minor');
    // Times on the arrival place's own clock: Paris for CDG, London for LHR and the station.
    expect(item(page.body, 'Mia Martin')).toContain('20:00 CEST');
    expect(item(page.body, 'Mia Martin')).toContain('CDG · Paris Charles de Gaulle');
    expect(item(page.body, 'Tom Train')).toContain('12:00 BST');
    expect(item(page.body, 'Tom Train')).toContain('London Euston');
    expect(item(page.body, 'Ali Anderson')).toContain('Collected here at 16:00 BST');
    // The live script listens to the unfiltered stream, so landings reach it too.
    expect(page.body).toContain(`data-stream="/staff/events/${world.events.A.id}/checkin/stream"`);
    expect(page.body).toContain('data-events="scan scan_undone flight_landed"');
    expect(page.body).toContain('<script type="module" src="/assets/js/live-lists.js"></script>');
  });

  it('shows a landed flight with its delay in the airport’s zone', async () => {
    const zedItem = item((await open('ops')).body, 'Zed Young');
    expect(zedItem).toContain('<span class="flight-status">Landed</span>');
    expect(zedItem).toContain('Expected 10:20 BST (scheduled 10:00 BST)');
    expect(zedItem).toContain('20 min late');
    expect(zedItem).toContain('BA117 from JFK');
    const mia = item((await open('ops')).body, 'Mia Martin');
    expect(mia).toContain('<span class="flight-status">Scheduled</span>');
  });

  it('moves a traveller from missing to collected after a pickup scan', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/events/${world.events.A.id}/scans`,
      headers: { authorization: `Bearer ${world.secrets.ops}` },
      payload: { participant_id: String(zed), scan_context_id: world.contexts.pickupA },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await open('ops');
    expect(names(page.body, 'missing')).toEqual(['Mia Martin', 'Tom Train']);
    expect(names(page.body, 'collected')).toEqual(['Zed Young', 'Ali Anderson']);
    expect(item(page.body, 'Zed Young')).toMatch(/Collected here at \d\d:\d\d (GMT|BST)/);
    // A scan at the venue's check-in counts as arrived (picked up elsewhere or checked in).
    const tom = (
      await t.deps.db.execute<{ id: number }>(
        sql`SELECT r.id FROM registrations r JOIN people p ON p.id = r.person_id WHERE p.legal_first_name = 'Tom'`,
      )
    ).rows[0]!.id;
    const checkIn = await app.inject({
      method: 'POST',
      url: `/api/v1/events/${world.events.A.id}/scans`,
      headers: { authorization: `Bearer ${world.secrets.ops}` },
      payload: { participant_id: String(tom), scan_context_id: world.contexts.checkInA },
    });
    expect(checkIn.statusCode, checkIn.body).toBe(200);
    const after = await open('ops');
    expect(names(after.body, 'missing')).toEqual(['Mia Martin']);
    expect(item(after.body, 'Tom Train')).toContain(
      'Arrived: picked up elsewhere or checked in at the venue',
    );
  });

  it('shows phones to ops, and neither phones nor addresses to limited', async () => {
    const ops = await open('ops');
    expect(item(ops.body, 'Mia Martin')).toContain('<a href="tel:+447700900556">+44 7700 900556</a>');
    const limited = await open('limited');
    expect(limited.statusCode).toBe(200);
    expect(names(limited.body, 'missing')).toEqual(['Mia Martin']);
    expect(limited.body).not.toContain('7700 9005');
    expect(limited.body).not.toContain('+4477009005');
    for (const page of [ops, limited]) expect(page.body).not.toContain('Secret Lane');
  });

  it('is linked from the desk, the overview, the scan-context settings, the arrivals board and the navigation', async () => {
    const desk = await open(
      'ops',
      `/staff/events/${world.events.A.id}/checkin?context=${world.contexts.pickupA}`,
    );
    expect(desk.body).toContain(
      `<a id="desk-runsheet" href="/staff/events/${world.events.A.id}/run-sheet?context=${world.contexts.pickupA}">Run sheet</a>`,
    );
    expect(desk.body).not.toContain('<span id="desk-runsheet-item" hidden>');
    const overview = await open('ops', `/staff/events/${world.events.A.id}`);
    expect(overview.body).toContain(
      `href="/staff/events/${world.events.A.id}/run-sheet?context=${world.contexts.pickupA}">travel pickup (run sheet)</a>`,
    );
    const settings = await open('eventAdmin', `/staff/events/${world.events.A.id}/scan-contexts`);
    expect(settings.body).toContain(
      `href="/staff/events/${world.events.A.id}/run-sheet?context=${world.contexts.pickupA}">Pickup run sheet`,
    );
    const board = await open('ops', `/staff/events/${world.events.A.id}/arrivals?date=${DAY}`);
    expect(board.body).toContain(
      `href="/staff/events/${world.events.A.id}/run-sheet?date=${DAY}">Pickup run sheet</a>`,
    );
    expect(board.body).toContain(`href="/staff/events/${world.events.A.id}/run-sheet"`);
  });

  it('falls back to the pickup context, and says so when an event has none', async () => {
    const lunch = await open('ops', sheetUrl(world.contexts.lunchA));
    expect(lunch.body).toMatch(new RegExp(`<option value="${world.contexts.pickupA}" selected>`));
    const b = await open('admin', `/staff/events/${world.events.B.id}/run-sheet`);
    expect(b.statusCode).toBe(200);
    expect(b.body).toContain('No scan context of this event is a travel pickup.');
  });

  it('answers a malformed date with a 4xx page, not a 500', async () => {
    const res = await open('ops', `/staff/events/${world.events.A.id}/run-sheet?date=9-7-2026`);
    expect(res.statusCode).toBe(422);
  });
});
