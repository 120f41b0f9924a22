/**
 * "New event" in headless Chromium (organiser-fluency issue, item 2, "done when"): a series owner
 * signs in with an emailed code, creates a blank event from the staff home on a desktop screen,
 * then, on a 360 px phone, copies an earlier event from its overview to a new start date; both
 * land on their overview marked "Draft", and the home page lists them as drafts. axe-core clean on
 * every page; screenshots in test-artifacts/screenshots/new-event-*.png.
 */
import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventRoles, groups, seriesRoles, users } from '../../src/db/schema/index.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { heading, signInWithCode } from './flow.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
} from './harness.js';

const NARROW = {
  viewport: { width: 360, height: 780 },
  deviceScaleFactor: 1,
  isMobile: true,
  hasTouch: true,
};
const OWNER = 'olive.owner@example.org';

describeBrowser('new event and copy in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let earlier: { id: number; seriesSlug: string };

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    earlier = await t.deps.db.transaction(async (tx) => {
      const series = await createSeries(tx, { name: 'Harbour Camps', slug: 'harbour-camps' });
      const camp = await createEventRecord(tx, {
        name: 'Harbour Camp 2026',
        seriesId: series.id,
        supportEmail: 'harbour@muster.example',
        timezone: 'Europe/London',
        startsAt: '2026-07-20T08:00:00Z',
        endsAt: '2026-07-24T16:00:00Z',
        setupComplete: true,
      });
      const [owner] = await tx.insert(users).values({ email: OWNER, name: 'Olive Owner' }).returning();
      const [helper] = await tx
        .insert(users)
        .values({ email: 'hal.helper@example.org', name: 'Hal Helper' })
        .returning();
      await tx.insert(seriesRoles).values({ userId: owner!.id, seriesId: series.id, role: 'owner' });
      await tx.insert(eventRoles).values({ userId: helper!.id, eventId: camp.id, role: 'ops' });
      await tx.insert(groups).values({ eventId: camp.id, name: 'Dolphins', color: '#0066AA' });
      return { id: camp.id, seriesSlug: series.slug };
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a series owner creates a blank event on a desktop screen', async () => {
    const context = await newContext(browser, 'desktop');
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await page.goto(`${t.origin}/staff`);
    await page.getByLabel('Email address').waitFor();
    await signInWithCode(t, page, OWNER, 'new-event-01-code');
    await page.waitForURL(`${t.origin}/staff`);
    await page.getByRole('link', { name: 'New event' }).click();
    await page.waitForURL(/\/events\/new$/);
    expect(await heading(page)).toBe('New event: Harbour Camps');
    await expectAccessible(page, 'new event form');
    await screenshot(page, 'new-event-02-form');

    // A support email outside the operator domains: the message sits next to the field.
    await page.getByLabel('Name', { exact: true }).fill('Harbour Winter Weekend');
    await page.getByLabel('Support email').fill('winter@elsewhere.org');
    await page.getByLabel('Start date', { exact: true }).fill('2027-01-15');
    await page.getByLabel('End date').fill('2027-01-17');
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.locator('#new-support-email-error').waitFor();
    expect(await page.locator('#new-support-email-error').textContent()).toContain(
      'The support email must be an address at',
    );
    await expectAccessible(page, 'new event error');
    await screenshot(page, 'new-event-03-error');

    await page.getByLabel('Support email').fill('winter@muster.example');
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.waitForURL(/\/staff\/events\/\d+\?done=event_created$/);
    expect(await heading(page)).toBe('Harbour Winter Weekend Draft');
    await page.getByRole('status').filter({ hasText: 'created as a draft' }).waitFor();
    await expectAccessible(page, 'new event overview');
    await screenshot(page, 'new-event-04-overview');

    await page.getByRole('link', { name: 'Your events' }).click();
    const card = page.locator('li.card', { hasText: 'Harbour Winter Weekend' });
    expect(await card.locator('.tag').textContent()).toBe('Draft');
    expect(await page.locator('li.card', { hasText: 'Harbour Camp 2026' }).locator('.tag').count()).toBe(0);
    await expectAccessible(page, 'home with a draft');
    await screenshot(page, 'new-event-05-home');
    // The refused form answered 422 (the browser logs that); nothing else went wrong.
    expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
    await context.close();
  });

  it('a series owner copies last year’s event to a new start date on a 360 px phone', async () => {
    const context = await browser.newContext(NARROW);
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await page.goto(`${t.origin}/staff/events/${earlier.id}`);
    await page.getByLabel('Email address').waitFor();
    await signInWithCode(t, page, OWNER, 'new-event-06-code');
    await page.waitForURL(`${t.origin}/staff/events/${earlier.id}`);
    await page.getByRole('link', { name: 'Copy this event' }).click();
    await page.waitForURL(/\/events\/new\?from=/);
    expect(await page.getByLabel('Event to copy').inputValue()).not.toBe('');
    await page.getByLabel('Name of the new event').fill('Harbour Camp 2027');
    await page.getByLabel('New start date').fill('2027-07-19');
    await expectAccessible(page, 'copy form 360');
    await screenshot(page, 'new-event-07-copy-360');
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(360);
    await page.getByRole('button', { name: 'Copy event' }).click();
    await page.waitForURL(/\/staff\/events\/\d+\?done=event_copied$/);
    expect(await heading(page)).toBe('Harbour Camp 2027 Draft');
    await expectAccessible(page, 'copied overview 360');
    await screenshot(page, 'new-event-08-copied-360');

    // The copy's groups and team came along; its dates moved to the new start.
    const id = Number(/\/staff\/events\/(\d+)/.exec(page.url())![1]);
    await page.goto(`${t.origin}/staff/events/${id}/groups`);
    await page.getByRole('cell', { name: 'Dolphins' }).waitFor();
    const res = await t.deps.db.execute<{ starts: string; team: number }>(
      sql`SELECT to_char(starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS starts,
                 (SELECT count(*)::int FROM event_roles WHERE event_id = ${id}) AS team FROM events WHERE id = ${id}`,
    );
    expect(res.rows[0]).toEqual({ starts: '2027-07-19 08:00', team: 1 });
    expect(errors).toEqual([]);
    await context.close();
  });
});
