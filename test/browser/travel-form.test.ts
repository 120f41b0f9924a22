/**
 * The participant's travel form in headless Chromium (docs/travel.md "Travel form"): the world's
 * adult participant signs in through the email-code flow, opens the Travel section, picks an
 * airport by typing "heath" (combobox: expanded listbox, arrow keys, Enter), checks a flight against
 * the fake AeroDataBox server and sees the form filled (airports, times, airline, mode); an unknown
 * flight, a wrong date and a provider that is down each give their plain message; each leg time
 * (entered in UTC) shows its airport-local reading and follows an edit. Saved, the flight
 * is the journey's leg and the stored later legs are kept. axe-core on every state; the same form at
 * 360 px; and without JavaScript the plain fields still submit, an airport typed by name being
 * refused with the codes it may mean. Staff get the same on the participant page's travel edit.
 */
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { type FakeFlights, sector, startFakeFlights } from '../support/flights-fake.js';
import { buildWorld, type World } from '../support/world.js';
import { signInWithCode } from './flow.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  screenshot,
  withoutReplacedRequests,
} from './harness.js';

const HOME = 'Going home: your flight';

describeBrowser('travel form in Chromium', () => {
  let t: SigninApp;
  let fake: FakeFlights;
  let world: World;
  let browser: Browser;
  let travelUrl: string;

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
    travelUrl = `${t.origin}/register/${world.regs.adultA.id}/travel`;
    fake.setFlight('BA117', '2027-07-06', [
      sector({
        code: 'BA117',
        from: 'LHR',
        to: 'JFK',
        dep: '2027-07-06T09:30:00Z',
        arr: '2027-07-06T17:05:00Z',
      }),
    ]);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  async function signedIn(opts: { width: number; javaScript?: boolean }): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: opts.width, height: 900 },
      javaScriptEnabled: opts.javaScript ?? true,
    });
    const page = await context.newPage();
    await page.goto(`${t.origin}/signin`);
    await signInWithCode(t, page, world.users.participant.email, `travel-form-signin-${opts.width}`);
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
    await page.goto(travelUrl);
    return page;
  }

  const result = (page: Page) => page.getByRole('group', { name: HOME }).locator('.flight-result');

  async function check(page: Page, code: string, date: string): Promise<void> {
    const group = page.getByRole('group', { name: HOME });
    await group.getByLabel('Flight number', { exact: true }).fill(code);
    await group.getByLabel('Date of the flight (as on your booking)').fill(date);
    await group.getByRole('button', { name: 'Check this flight' }).click();
  }

  it('picks an airport by typing "heath", checks a flight and sees the form filled', async () => {
    const page = await signedIn({ width: 1100 });
    const errors = consoleErrors(page);
    expect(await page.locator('h1').textContent()).toBe('Travel');
    await expectAccessible(page, 'travel-form-1');
    const group = page.getByRole('group', { name: HOME });

    // Type-ahead: a combobox whose listbox offers London Heathrow for "heath".
    const from = group.getByRole('combobox', { name: 'From airport' });
    expect(await from.getAttribute('aria-expanded')).toBe('false');
    // The list answers the last query typed ("heath"); earlier answers are stale (the page drops
    // them), so wait for that one before choosing with the keyboard.
    const answered = page.waitForResponse((r) => r.url().includes('search_airports?q=heath'));
    await from.pressSequentially('heath', { delay: 30 });
    await answered;
    const heathrow = page.getByRole('option', { name: /London Heathrow/ });
    await heathrow.first().waitFor();
    expect(await from.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByRole('listbox').first().textContent()).toContain('LHR');
    await from.press('ArrowDown');
    const activeId = await from.getAttribute('aria-activedescendant');
    expect(await page.locator(`#${activeId}`).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator(`#${activeId}`).textContent()).toContain('London Heathrow');
    await expectAccessible(page, 'travel-form-2-listbox');
    await screenshot(page, 'travel-form-2-listbox');
    await from.press('Enter');
    await expect.poll(() => from.inputValue()).toBe('LHR');
    expect(await from.getAttribute('aria-expanded')).toBe('false');
    expect(await group.locator('.airport-name').first().textContent()).toContain('London Heathrow');
    // Escape closes the list without choosing.
    const to = group.getByRole('combobox', { name: 'To airport' });
    await to.pressSequentially('kennedy', { delay: 30 });
    await page
      .getByRole('option', { name: /Kennedy/ })
      .first()
      .waitFor();
    await to.press('Escape');
    expect(await to.getAttribute('aria-expanded')).toBe('false');
    await to.fill('');

    // Plain messages: an unknown flight, the wrong date, a provider that is down.
    await check(page, 'BA999', '2027-07-06');
    await expect.poll(() => result(page).textContent()).toContain('We could not find flight BA999');
    await check(page, 'BA117', '2027-07-07');
    await expect.poll(() => result(page).textContent()).toContain('departing on 7 July 2027');
    fake.failNext(1, 503);
    await check(page, 'BA117', '2027-07-06');
    await expect.poll(() => result(page).textContent()).toContain('We cannot check flights right now');
    await expectAccessible(page, 'travel-form-3-error');

    // The right flight and date: the form is filled from the provider's answer.
    await check(page, 'ba 0117', '2027-07-06');
    await expect.poll(() => result(page).textContent()).toContain('Found BA117: British Airways, LHR to JFK');
    expect(await group.getByLabel('Flight number', { exact: true }).inputValue()).toBe('BA117');
    expect(await to.inputValue()).toBe('JFK');
    expect(await group.getByLabel('Flight departure date and time (UTC)').inputValue()).toBe(
      '2027-07-06T09:30',
    );
    expect(await group.getByLabel('Flight arrival date and time (UTC)').inputValue()).toBe(
      '2027-07-06T17:05',
    );
    // Each time (entered in UTC) is also shown on its airport's clock, updated as the form fills.
    const locals = group.locator('.local-time');
    await expect.poll(() => locals.nth(0).textContent()).toBe('Local time at LHR: Tue 6 Jul, 10:30 BST');
    await expect.poll(() => locals.nth(1).textContent()).toBe('Local time at JFK: Tue 6 Jul, 13:05 GMT-4');
    await group.getByLabel('Flight arrival date and time (UTC)').fill('2027-07-06T18:05');
    await expect.poll(() => locals.nth(1).textContent()).toBe('Local time at JFK: Tue 6 Jul, 14:05 GMT-4');
    await group.getByLabel('Flight arrival date and time (UTC)').fill('2027-07-06T17:05');
    const journey = page.getByRole('group', { name: 'Going home', exact: true });
    expect(await journey.getByLabel('How are you travelling?').inputValue()).toBe('plane');
    expect(await journey.getByLabel('Airline, train or bus company').inputValue()).toBe('British Airways');
    await expectAccessible(page, 'travel-form-4-filled');
    await screenshot(page, 'travel-form-4-filled');

    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.waitForURL(/\/emergency-contacts$/);
    const legs = await t.deps.db.execute<Record<string, unknown>>(sql`
      SELECT t.direction, t.mode, t.carrier, l.position, l.flight_code, l.departure_airport,
             l.arrival_airport, l.departure_time, l.live_status
      FROM travels t JOIN travel_legs l ON l.travel_id = t.id
      WHERE t.registration_id = ${world.regs.adultA.id} ORDER BY t.direction, l.position`);
    const rows = legs.rows.map((r) => ({
      ...r,
      departure_time: new Date(String(r.departure_time)).toISOString(),
    }));
    expect(rows).toEqual([
      expect.objectContaining({
        direction: 'inbound',
        position: 1,
        flight_code: 'TA100',
        live_status: 'scheduled',
      }),
      expect.objectContaining({
        direction: 'inbound',
        position: 2,
        flight_code: 'TA200',
        live_status: 'landed',
      }),
      expect.objectContaining({
        direction: 'outbound',
        mode: 'plane',
        carrier: 'British Airways',
        position: 1,
        flight_code: 'BA117',
        departure_airport: 'LHR',
        arrival_airport: 'JFK',
        departure_time: '2027-07-06T09:30:00.000Z',
      }),
    ]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('works at 360 px', async () => {
    const page = await signedIn({ width: 360 });
    const from = page.getByRole('group', { name: HOME }).getByRole('combobox', { name: 'From airport' });
    await from.fill('');
    // The list answers the last query typed ("heath"); earlier answers are stale (the page drops
    // them), so wait for that one before choosing with the keyboard.
    const answered = page.waitForResponse((r) => r.url().includes('search_airports?q=heath'));
    await from.pressSequentially('heath', { delay: 30 });
    await answered;
    await page
      .getByRole('option', { name: /London Heathrow/ })
      .first()
      .waitFor();
    await expectAccessible(page, 'travel-form-5-360');
    await screenshot(page, 'travel-form-5-360');
    await page.context().close();
  });

  it('staff: the travel edit on the participant page, swapped in by htmx, has the type-ahead and the check', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const pagePath = `/staff/events/${world.events.A.id}/participants/${world.regs.adultA.id}`;
    await page.goto(`${t.origin}/signin?next=${encodeURIComponent(pagePath)}`);
    await signInWithCode(t, page, world.users.eventAdmin.email, 'travel-form-staff-signin');
    await page.waitForURL(`${t.origin}${pagePath}`);
    await page.locator('#sec-travel').getByRole('link', { name: 'Edit travel' }).click();
    await page.getByRole('heading', { name: 'Edit travel' }).waitFor();
    const group = page.getByRole('group', { name: 'Getting there: your flight' });
    const from = group.getByRole('combobox', { name: 'From airport' });
    await from.fill('');
    // The list answers the last query typed ("heath"); earlier answers are stale (the page drops
    // them), so wait for that one before choosing with the keyboard.
    const answered = page.waitForResponse((r) => r.url().includes('search_airports?q=heath'));
    await from.pressSequentially('heath', { delay: 30 });
    await answered;
    await page
      .getByRole('option', { name: /London Heathrow/ })
      .first()
      .waitFor();
    await from.press('ArrowDown');
    await from.press('Enter');
    await expect.poll(() => from.inputValue()).toBe('LHR');
    await group.getByLabel('Flight number', { exact: true }).fill('BA117');
    await group.getByLabel('Date of the flight (as on your booking)').fill('2027-07-06');
    await group.getByRole('button', { name: 'Check this flight' }).click();
    await expect.poll(() => group.locator('.flight-result').textContent()).toContain('Found BA117');
    expect(await group.getByRole('combobox', { name: 'To airport' }).inputValue()).toBe('JFK');
    await expectAccessible(page, 'travel-form-staff');
    await screenshot(page, 'travel-form-staff');
    expect(withoutReplacedRequests(errors)).toEqual([]);
    await context.close();
  });

  it('without JavaScript: plain fields submit, an airport typed by name is refused with its code', async () => {
    const page = await signedIn({ width: 1100, javaScript: false });
    const group = page.getByRole('group', { name: HOME });
    expect(await page.getByRole('button', { name: 'Check this flight' }).count()).toBe(0);
    await group.getByLabel('To airport', { exact: true }).fill('heathrow');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.locator('.error-summary').waitFor();
    expect(await page.locator('.error-summary').textContent()).toContain(
      "To airport: type the airport's 3-letter code. Did you mean LHR (London Heathrow Airport)",
    );
    // (No axe here: with scripts off Chromium runs none, axe included; the markup is the same.)
    await screenshot(page, 'travel-form-6-nojs-error');
    await page.getByRole('group', { name: HOME }).getByLabel('To airport', { exact: true }).fill('lhr');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.waitForURL(/\/emergency-contacts$/);
    const leg = await t.deps.db.execute<{ arrival_airport: string }>(sql`
      SELECT l.arrival_airport FROM travels t JOIN travel_legs l ON l.travel_id = t.id
      WHERE t.registration_id = ${world.regs.adultA.id} AND t.direction = 'outbound' AND l.position = 1`);
    expect(leg.rows[0]?.arrival_airport).toBe('LHR');
    await page.context().close();
  });
});
