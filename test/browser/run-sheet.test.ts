/**
 * The pickup run sheet in headless Chromium (docs/checkin.md "Pickup run sheet"): an ops user
 * opens event A's run sheet for its airport pickup, with a traveller's flight in the air; the
 * tracking job records the landing (from the fake flight provider) and the open page shows
 * "Landed" without a reload; another device (the mobile app's API) scans the pickup and the page
 * moves the traveller to "Collected" without a reload. axe-core on each state, at desktop size and
 * at 360 × 740; screenshots test-artifacts/screenshots/run-sheet-*.
 */
import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { trackFlights } from '../../src/modules/travel/tracking.service.js';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { type FakeFlights, sector, startFakeFlights } from '../support/flights-fake.js';
import { buildWorld, type World } from '../support/world.js';
import { signInWithCode } from './flow.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
  withoutReplacedRequests,
} from './harness.js';

const MIN = 60_000;
const POLL = { timeout: 30_000, interval: 200 };
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

describeBrowser('pickup run sheet in Chromium', () => {
  let t: SigninApp;
  let fake: FakeFlights;
  let world: World;
  let browser: Browser;
  const now = Math.floor(Date.now() / MIN) * MIN;
  const dep = new Date(now - 60 * MIN).toISOString();
  const arr = new Date(now + 60 * MIN).toISOString();
  const depDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date(dep));
  // The sheet shows one day of the event's zone: a zone where it is now about noon keeps the
  // arrival on today's sheet at any hour of the run.
  const offset = 12 - new Date(now).getUTCHours();
  const zone = offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;

  beforeAll(async () => {
    fake = await startFakeFlights();
    t = await startSigninApp({
      port: await freePort(),
      env: {
        MUSTER_FLIGHTS_PROVIDER: 'aerodatabox',
        MUSTER_FLIGHTS_URL: fake.url,
        MUSTER_FLIGHTS_API_KEY: 'browser-test-key',
      },
    });
    world = await buildWorld(t.deps);
    const adult = world.regs.adultA.id;
    // Ali Anderson's journey ends with BA117 JFK → LHR, landing in an hour; nobody has met them yet.
    await t.deps.db.execute(sql`UPDATE events SET timezone = ${zone} WHERE id = ${world.events.A.id}`);
    await t.deps.db.execute(sql`UPDATE travel_legs SET flight_code = 'BA117', departure_airport = 'JFK',
        arrival_airport = 'LHR', departure_time = ${dep}, arrival_time = ${arr}, live_status = NULL,
        live_arrival_time = NULL, travel_picked_up_at = NULL WHERE id = ${world.legs.inboundA2}`);
    await t.deps.db.execute(sql`UPDATE travel_legs SET departure_time = ${new Date(now - 5 * 60 * MIN).toISOString()},
        arrival_time = ${new Date(now - 3 * 60 * MIN).toISOString()} WHERE id = ${world.legs.inboundA1}`);
    await t.deps.db.execute(sql`DELETE FROM scans WHERE registration_id = ${adult}`);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  it('shows a landing and a pickup scanned on another device without a reload', async () => {
    fake.setFlight('BA117', depDate, [
      sector({ code: 'BA117', from: 'JFK', to: 'LHR', dep, arr, status: 'EnRoute' }),
    ]);
    await trackFlights(t.deps);
    const context = await newContext(browser, 'desktop');
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await page.goto(`${t.origin}/signin`);
    await signInWithCode(t, page, world.users.ops.email, 'run-sheet-0-signin');
    await page.goto(
      `${t.origin}/staff/events/${world.events.A.id}/run-sheet?context=${world.contexts.pickupA}`,
    );
    await page.locator('#sheet-live', { hasText: 'Live' }).waitFor();
    const ali = page.locator('#sheet-missing li', { hasText: 'Ali Anderson' });
    await expect.poll(() => ali.locator('.flight-status').textContent(), POLL).toBe('In the air');
    expect(await ali.textContent()).toContain('LHR · London Heathrow Airport');
    await expectAccessible(page, 'run-sheet-1-in-the-air');
    await screenshot(page, 'run-sheet-1-in-the-air');

    // The provider reports the landing; the job records it and writes flight_landed to the feed.
    const landed = new Date(now + 50 * MIN).toISOString();
    fake.setFlight('BA117', depDate, [
      sector({ code: 'BA117', from: 'JFK', to: 'LHR', dep, arr, status: 'Arrived', revisedArr: landed }),
    ]);
    await t.deps.db.execute(sql`DELETE FROM travel_leg_tracking`);
    await trackFlights(t.deps);
    await expect.poll(() => ali.locator('.flight-status').textContent(), POLL).toBe('Landed');
    expect(await ali.textContent()).toContain('10 min early');
    await expectAccessible(page, 'run-sheet-2-landed');
    await screenshot(page, 'run-sheet-2-landed');

    // Another device (the mobile app) scans the pickup: the open sheet moves Ali to Collected.
    const res = await fetch(`${t.origin}/api/v1/events/${world.events.A.id}/scans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.secrets.ops}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        participant_id: String(world.regs.adultA.id),
        scan_context_id: world.contexts.pickupA,
      }),
    });
    expect(res.status).toBe(200);
    const collected = page.locator('#sheet-collected li', { hasText: 'Ali Anderson' });
    await collected.waitFor({ timeout: POLL.timeout });
    expect(await collected.textContent()).toContain('Collected here at');
    expect(await page.locator('#sheet-missing li', { hasText: 'Ali Anderson' }).count()).toBe(0);
    await expectAccessible(page, 'run-sheet-3-collected');
    await screenshot(page, 'run-sheet-3-collected');
    expect(withoutReplacedRequests(errors)).toEqual([]);
    await context.close();

    const narrow = await browser.newContext(PHONE);
    const small = await narrow.newPage();
    await small.goto(`${t.origin}/signin`);
    await signInWithCode(t, small, world.users.ops.email, 'run-sheet-4-signin-360');
    await small.goto(`${t.origin}/staff/events/${world.events.A.id}/run-sheet`);
    await small.locator('#sheet-collected li', { hasText: 'Ali Anderson' }).waitFor();
    expect(await small.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await expectAccessible(small, 'run-sheet-4-360');
    await screenshot(small, 'run-sheet-4-360');
    await narrow.close();
  });
});
