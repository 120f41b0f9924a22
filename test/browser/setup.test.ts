/**
 * The event setup wizard in headless Chromium (organiser-operations issue, item 5, "done when"): an
 * event admin signs in with an emailed code, walks a draft event through every step (a validation
 * error on the way), uploads a logo and completes the setup; then a participant's invitation page
 * shows that logo. Desktop and 360 px screenshots in test-artifacts/screenshots/setup-*.png.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventRoles, users } from '../../src/db/schema/index.js';
import { issueEventKey } from '../../src/modules/credentials/issue.service.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { png } from '../setup/fixtures.js';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { heading, inviteAndReadLink, type OpenEvent, signInWithCode } from './flow.js';
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

/** Width of the loaded image matching `selector` (decode() fails for an image that did not load). */
function loadedWidth(page: Page, selector: string): Promise<number> {
  return page.evaluate<number>(
    `(async () => { const el = document.querySelector(${JSON.stringify(selector)}); await el.decode(); return el.naturalWidth; })()`,
  );
}

async function save(page: Page, step: string, shot: string) {
  await expectAccessible(page, step);
  await screenshot(page, shot);
  await page.getByRole('button', { name: 'Save and continue' }).click();
}

describeBrowser('event setup wizard in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let event: OpenEvent;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    event = await t.deps.db.transaction(async (tx) => {
      const series = await createSeries(tx, { name: 'Alpine Series' });
      const draft = await createEventRecord(tx, {
        name: 'Alpine Draft',
        seriesId: series.id,
        supportEmail: null,
      });
      const [admin] = await tx
        .insert(users)
        .values({ email: 'eve.admin@example.org', name: 'Eve Admin' })
        .returning();
      await tx.insert(eventRoles).values({ userId: admin!.id, eventId: draft.id, role: 'event_admin' });
      const key = await issueEventKey(tx, draft.id, { name: 'Browser test key', ownerUserId: null });
      return { id: draft.id, name: 'Alpine Camp', key: key.secret };
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('an event admin walks the wizard, uploads a logo, and the invitation page shows it', async () => {
    const context = await newContext(browser, 'desktop');
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const setup = `${t.origin}/staff/events/${event.id}/setup`;

    // Not signed in: the staff page sends the browser through the one-time-code sign-in and back.
    await page.goto(setup);
    await page.getByLabel('Email address').waitFor();
    await signInWithCode(t, page, 'eve.admin@example.org', 'setup-01-code');
    await page.waitForURL(setup);
    expect(await heading(page)).toBe('Set up Alpine Draft');

    await page.getByLabel('Event name').fill('Alpine Camp');
    await page.getByLabel('Time zone').fill('Europe/Zurich');
    await page.getByLabel('Start', { exact: true }).fill('2027-02-01T09:00');
    await page.getByLabel('End', { exact: true }).fill('2027-01-20T17:00');
    await save(page, 'details', 'setup-02-details');
    // Ends before it starts: the service's message in the fields' labels (docs/staff-dashboard.md
    // "Plain words"), linked from the summary to the field.
    await page.locator('#error-summary').waitFor();
    expect(await page.locator('#f-ends_at-error').textContent()).toContain('End must not be before start');
    await expectAccessible(page, 'details error');
    await screenshot(page, 'setup-03-details-error');
    await page.getByLabel('End', { exact: true }).fill('2027-02-06T17:00');
    await save(page, 'details fixed', 'setup-03b-details-fixed');

    await page.waitForURL(/\/setup\/languages/);
    await page.getByLabel('Español (es)').check();
    await save(page, 'languages', 'setup-03c-languages');

    await page.waitForURL(/\/setup\/registration/);
    await page.getByLabel('Registration opens').fill('2026-12-01T08:00');
    await page.getByLabel('Registration closes').fill('2027-01-15T23:59');
    await save(page, 'registration', 'setup-04-registration');

    await page.waitForURL(/\/setup\/modules/);
    await page.getByLabel('Groups').check();
    await save(page, 'modules', 'setup-05-modules');

    await page.waitForURL(/\/setup\/contact/);
    await page.getByLabel('Support email').fill('alpine@muster.example');
    await save(page, 'contact', 'setup-06-contact');

    await page.waitForURL(/\/setup\/consents/);
    const waiver = page.locator('#doc-waiver');
    await page
      .locator('#doc-waiver-body')
      .fill('I will follow the mountain guides.\n\nI bring my own boots.');
    await expectAccessible(page, 'consents');
    await screenshot(page, 'setup-07-consents');
    await waiver.getByRole('button', { name: 'Save Participation waiver' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('link', { name: 'Continue to Logo and banner' }).click();

    const dir = mkdtempSync(join(tmpdir(), 'muster-logo-'));
    writeFileSync(join(dir, 'alpine.png'), png(48, [20, 90, 160]));
    await page.getByLabel('Upload a logo').setInputFiles(join(dir, 'alpine.png'));
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.getByRole('status').filter({ hasText: 'Image uploaded.' }).waitFor();
    await page.getByRole('img', { name: 'Current logo of Alpine Camp' }).waitFor();
    expect(await loadedWidth(page, 'img.setup-logo')).toBe(48);
    await expectAccessible(page, 'images');
    await screenshot(page, 'setup-08-images');

    await page.getByRole('link', { name: 'Continue to Complete setup' }).click();
    await page.getByRole('button', { name: 'Complete setup' }).click();
    await page.getByText('Setup complete.', { exact: false }).first().waitFor();
    await expectAccessible(page, 'complete');
    await screenshot(page, 'setup-09-complete');
    const [row] = (
      await t.deps.database.pool.query('SELECT setup_complete, logo_url FROM events WHERE id = $1', [
        event.id,
      ])
    ).rows;
    expect(row.setup_complete).toBe(true);
    expect(row.logo_url).toMatch(/\/media\/[0-9a-f]{64}\.png$/);

    // The wizard at 360 px, with the same session.
    const narrow = await browser.newContext({ ...NARROW, storageState: await context.storageState() });
    const small = await narrow.newPage();
    await small.goto(`${setup}/details`);
    await expectAccessible(small, 'details at 360 px');
    await screenshot(small, 'setup-10-details-360');
    await small.goto(`${setup}/images`);
    await expectAccessible(small, 'images at 360 px');
    await screenshot(small, 'setup-11-images-360');
    // The one console error is the deliberate 422 of the details step; no CSP violation.
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);

    // A participant's invitation page shows the logo (loaded under the page's CSP).
    const link = await inviteAndReadLink(t, event, 'pia@example.org', 'Pia', 'Participant');
    for (const [size, name] of [
      ['narrow', 'setup-12-invitation-360'],
      ['desktop', 'setup-13-invitation'],
    ] as const) {
      const ctx = size === 'narrow' ? await browser.newContext(NARROW) : await newContext(browser, 'desktop');
      const invited = await ctx.newPage();
      const invitedErrors = consoleErrors(invited);
      await invited.goto(link);
      expect(await heading(invited)).toBe('Register for Alpine Camp');
      await invited.getByRole('img', { name: 'Alpine Camp logo' }).waitFor();
      expect(await loadedWidth(invited, 'img.event-logo')).toBe(48);
      await expectAccessible(invited, `invitation ${size}`);
      await screenshot(invited, name);
      expect(invitedErrors).toEqual([]);
      await ctx.close();
    }
    await narrow.close();
    await context.close();
  }, 240_000);
});
