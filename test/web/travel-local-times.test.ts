/**
 * Leg times on their airports' clocks (docs/travel.md "Times"), over HTTP against the real
 * database: the participant's travel form, the staff participant page's travel section and its
 * travel edit show each flight's departure in the departure airport's zone and its arrival in the
 * arrival airport's zone, 24-hour, with the zone named; the inputs stay UTC; a saved change shows
 * its new local times; an unknown airport shows none.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** The local-time line under the input named `name`. */
function localLine(html: string, name: string): string | undefined {
  const id = /<input type="datetime-local" id="([^"]+)" name="([^"]+)"/g;
  for (const m of html.matchAll(id)) {
    if (m[2] !== name) continue;
    return new RegExp(`<p class="hint local-time" id="${m[1]}-local"[^>]*>([^<]*)</p>`).exec(html)?.[1];
  }
  return undefined;
}

describe('leg times in the airports’ zones', () => {
  it('the participant’s travel form shows the first flight’s times in each airport’s zone', async () => {
    // The world's adult flies TA100 BOS 20:00 UTC → DUB 06:00 UTC the next morning.
    const b = await signedInBrowser(t.deps, world.users.participant.id);
    const page = await getPage(app, b, `/register/${world.regs.adultA.id}/travel`);
    expect(page.statusCode).toBe(200);
    const dep = 'travel_inbound.legs[0].departure_time';
    const arr = 'travel_inbound.legs[0].arrival_time';
    expect(page.body).toContain(`name="${dep}" value="2026-07-08T20:00"`); // the input stays UTC
    expect(localLine(page.body, dep)).toBe('Local time at BOS: Wed 8 Jul, 16:00 GMT-4');
    expect(localLine(page.body, arr)).toBe('Local time at DUB: Thu 9 Jul, 07:00 GMT+1');
    expect(page.body).toMatch(/aria-describedby="[^"]*-local"/);
    // No flight on the way home: the lines are there (the script fills them), empty.
    expect(localLine(page.body, 'travel_outbound.legs[0].departure_time')).toBe('');

    // Saved with a new flight: the page after an error shows the local times of what was typed.
    const form = await getPage(app, b, `/register/${world.regs.adultA.id}/travel`);
    const res = await postForm(app, b, `/register/${world.regs.adultA.id}/travel`, {
      _csrf: csrfOf(form.body),
      'travel_outbound.legs[0].flight_code': 'BA117',
      'travel_outbound.legs[0].departure_airport': 'lhr',
      'travel_outbound.legs[0].arrival_airport': 'heathrow',
      'travel_outbound.legs[0].departure_time': '2027-07-06T09:30',
      'travel_outbound.legs[0].arrival_time': '2027-07-06T17:05',
    });
    expect(res.statusCode).toBe(422);
    expect(localLine(res.body, 'travel_outbound.legs[0].departure_time')).toBe(
      'Local time at LHR: Tue 6 Jul, 10:30 BST',
    );
    // "heathrow" is not a code: no zone is guessed.
    expect(localLine(res.body, 'travel_outbound.legs[0].arrival_time')).toBe('');
  });

  it('the staff participant page shows each leg in its airports’ zones, and so does the travel edit', async () => {
    const b = await signedInBrowser(t.deps, world.users.ops.id);
    const base = `/staff/events/${world.events.A.id}/participants/${world.regs.adultA.id}`;
    const page = await getPage(app, b, base);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Departs, local time');
    // TA200 DUB 11:30 UTC → LHR 13:00 UTC.
    expect(page.body).toContain('Thu 9 Jul, 12:30 GMT+1');
    expect(page.body).toContain('Thu 9 Jul, 14:00 BST');
    expect(page.body).toContain('Wed 8 Jul, 16:00 GMT-4');
    const edit = await getPage(app, b, `${base}/sections/travel/edit`);
    expect(edit.statusCode).toBe(200);
    expect(localLine(edit.body, 'travel_inbound.legs[0].arrival_time')).toBe(
      'Local time at DUB: Thu 9 Jul, 07:00 GMT+1',
    );
  });
});
