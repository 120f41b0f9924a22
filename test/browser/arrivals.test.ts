/**
 * The arrivals board in headless Chromium (docs/travel.md "Arrivals board"): an ops user signs in
 * through the email-code flow, opens the board of event A with a traveller's flight arriving today,
 * and sees it turn from Scheduled to Delayed (with the delay in minutes) without reloading the page
 * when the tracking job reads a delay from the (fake) flight provider; axe-core on the board,
 * screenshots at desktop and phone size.
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

describeBrowser('arrivals board in Chromium', () => {
  let t: SigninApp;
  let fake: FakeFlights;
  let world: World;
  let browser: Browser;
  // Whole minutes: the provider reports times to the minute, so a delay is exact.
  const now = Math.floor(Date.now() / MIN) * MIN;
  const dep = new Date(now - 60 * MIN).toISOString();
  const arr = new Date(now + 120 * MIN).toISOString();
  const depDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date(dep));
  // The board shows one day of the event's zone; a zone where it is now about noon keeps the
  // arrival and its 50-minute delay on today's board at any hour of the run.
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
    // Event A's board day is today in its zone; the adult's inbound journey lands in two hours.
    await t.deps.db.execute(sql`UPDATE events SET timezone = ${zone} WHERE id = ${world.events.A.id}`);
    await t.deps.db.execute(sql`UPDATE travel_legs SET flight_code = 'BA117', departure_airport = 'JFK',
        arrival_airport = 'LHR', departure_time = ${dep}, arrival_time = ${arr} WHERE id = ${world.legs.inboundA2}`);
    await t.deps.db.execute(sql`UPDATE travel_legs SET departure_time = ${new Date(now - 5 * 60 * MIN).toISOString()},
        arrival_time = ${new Date(now - 3 * 60 * MIN).toISOString()} WHERE id = ${world.legs.inboundA1}`);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  it('shows a delay appear without a reload', async () => {
    fake.setFlight('BA117', depDate, [
      sector({ code: 'BA117', from: 'JFK', to: 'LHR', dep, arr, status: 'EnRoute' }),
    ]);
    await trackFlights(t.deps);
    const context = await newContext(browser, 'desktop');
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await page.goto(`${t.origin}/signin`);
    await signInWithCode(t, page, world.users.ops.email, 'arrivals-0-signin');
    await page.goto(`${t.origin}/staff/events/${world.events.A.id}/arrivals?refresh=2`);
    const row = page.locator('tr', { hasText: 'BA117' });
    await expect.poll(() => row.locator('.flight-status').textContent(), POLL).toBe('In the air');
    await expectAccessible(page, 'arrivals-1-board');
    await screenshot(page, 'arrivals-1-board');

    // The provider now reports a 50-minute delay; the job records it; the open page shows it.
    fake.setFlight('BA117', depDate, [
      sector({
        code: 'BA117',
        from: 'JFK',
        to: 'LHR',
        dep,
        arr,
        status: 'Delayed',
        revisedArr: new Date(Date.parse(arr) + 50 * MIN).toISOString(),
      }),
    ]);
    await t.deps.db.execute(sql`DELETE FROM travel_leg_tracking`);
    await trackFlights(t.deps);
    await expect.poll(() => row.locator('.flight-status').textContent(), POLL).toBe('Delayed');
    expect(await row.textContent()).toContain('50 min late');
    await expectAccessible(page, 'arrivals-2-delayed');
    await screenshot(page, 'arrivals-2-delayed');
    expect(withoutReplacedRequests(errors)).toEqual([]);
    await context.close();

    const narrow = await newContext(browser, 'phone');
    const small = await narrow.newPage();
    await small.goto(`${t.origin}/signin`);
    await signInWithCode(t, small, world.users.ops.email, 'arrivals-3-signin-360');
    await small.goto(`${t.origin}/staff/events/${world.events.A.id}/arrivals`);
    await expectAccessible(small, 'arrivals-3-board-360');
    await screenshot(small, 'arrivals-3-board-360');
    await narrow.close();
  });
});
