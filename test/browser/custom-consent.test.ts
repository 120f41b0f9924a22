/**
 * Custom consent documents in headless Chromium (issue #25 part 7): an event admin signs in with an
 * emailed code at 360 px, adds a required document from the setup wizard's "Add a consent
 * document" form (axe-core clean before and after), and finds it listed with its required box.
 * The participant's side (signing it, completing) is covered over HTTP in
 * test/setup/custom-consents.test.ts.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventRoles, users } from '../../src/db/schema/index.js';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { type OpenEvent, openEvent, signInWithCode } from './flow.js';
import { consoleErrors, describeBrowser, expectAccessible, launchBrowser, screenshot } from './harness.js';

describeBrowser('custom consent documents in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let event: OpenEvent;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    event = await openEvent(t, 'Lakeside Camp');
    await t.deps.db.transaction(async (tx) => {
      const [admin] = await tx
        .insert(users)
        .values({ email: 'cara.admin@example.org', name: 'Cara Admin' })
        .returning();
      await tx.insert(eventRoles).values({ userId: admin!.id, eventId: event.id, role: 'event_admin' });
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('an event admin adds a required document from the wizard at 360 px', async () => {
    const context = await browser.newContext({
      viewport: { width: 360, height: 780 },
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const url = `${t.origin}/staff/events/${event.id}/setup/consents`;
    await page.goto(url);
    await page.getByLabel('Email address').waitFor();
    await signInWithCode(t, page, 'cara.admin@example.org', 'custom-consent-01-code');
    await page.waitForURL(url);
    await expectAccessible(page, 'consents step');
    const form = page.locator('#doc-new');
    await form.getByLabel('Title').fill('Photo release');
    await form
      .getByLabel('Text')
      .fill('We may take photos during the camp.\n\nThey may appear in our newsletter.');
    await form.getByLabel('Required to complete registration').check();
    await screenshot(page, 'custom-consent-02-add');
    await page.getByRole('button', { name: 'Add a consent document' }).click();
    await page.waitForURL(/done=saved/);
    await expect.poll(() => page.locator('#doc-photo_release-h').textContent()).toBe('Photo release');
    expect(await page.locator('#doc-photo_release-required').isChecked()).toBe(true);
    await expectAccessible(page, 'consents step after adding');
    await screenshot(page, 'custom-consent-03-added');
    expect(errors).toEqual([]);
    await context.close();
  });
});
