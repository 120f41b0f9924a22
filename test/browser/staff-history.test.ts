/**
 * The participant page's history, live, in headless Chromium (issue 25 "Done when"): staff sign in
 * through the real email-code flow and keep a participant's page open; a phone number edited
 * elsewhere (another person's session, through the API) appears in the history as old → new without
 * a reload (the region's poll), and an edit on the page itself appears at once (the save's
 * `history-changed` event). The section filter narrows the history in place. axe-core clean;
 * screenshots `staff-history-*` at desktop size and 360 px.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { buildWorld, type World } from '../support/world.js';
import { signInWithCode } from './flow.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
} from './harness.js';

describeBrowser('participant history in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let world: World;
  let pagePath: string;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    world = await buildWorld(t.deps);
    pagePath = `/staff/events/${world.events.A.id}/participants/${world.regs.adultA.id}`;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(email: string, width?: number): Promise<{ context: BrowserContext; page: Page }> {
    const context = width
      ? await browser.newContext({ viewport: { width, height: 800 }, isMobile: true, hasTouch: true })
      : await newContext(browser, 'desktop');
    const page = await context.newPage();
    await page.goto(`${t.origin}/signin?next=${encodeURIComponent(pagePath)}`);
    await signInWithCode(t, page, email, `staff-history-signin-${width ?? 'desktop'}`);
    await page.waitForURL(`${t.origin}${pagePath}`);
    return { context, page };
  }

  /** Marks the document, so a reload (a new document) would lose the mark. */
  const mark = (page: Page) => page.evaluate('document.documentElement.dataset.sameDocument = "yes"');
  const sameDocument = (page: Page) =>
    page.evaluate<string | undefined>('document.documentElement.dataset.sameDocument');

  it('a phone number edited elsewhere shows as old → new without reloading (desktop)', async () => {
    const { context, page } = await signedIn(world.users.eventAdmin.email);
    const errors = consoleErrors(page);
    await mark(page);
    // Someone else changes the phone number through the API (the app's PATCH).
    const res = await fetch(`${t.api}/events/${world.events.A.id}/participants/${world.regs.adultA.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${world.users.ops.mobile}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '+447700900123' }),
    });
    expect(res.status).toBe(200);
    const change = page.locator('#history-live li', { hasText: 'Phone' }).first();
    await change.getByText('+44 7700 900123').waitFor({ timeout: 30_000 });
    expect(await change.textContent()).toContain('Phone: +44 7700 900999 → +44 7700 900123');
    expect(await sameDocument(page)).toBe('yes');
    expect(page.url()).toBe(`${t.origin}${pagePath}`);
    await expectAccessible(page, 'participant page with live history');
    await page.locator('#history').scrollIntoViewIfNeeded();
    await screenshot(page, 'staff-history-desktop');

    // The section filter narrows the history in place.
    await page.getByLabel('Section').selectOption('accommodation');
    await page.locator('#history-live').getByText('No changes match these filters.').waitFor();
    await page.getByLabel('Section').selectOption('personal');
    await page.locator('#history-live').getByText('+44 7700 900123').first().waitFor();
    expect(await sameDocument(page)).toBe('yes');
    await expectAccessible(page, 'history filtered');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an edit on the page appears in the history at once, at 360 px', async () => {
    const { context, page } = await signedIn(world.users.ops.email, 360);
    await mark(page);
    const personal = page.locator('#sec-personal');
    await personal.getByRole('link', { name: 'Edit personal details' }).click();
    await page.getByRole('heading', { name: 'Edit personal details' }).waitFor();
    await page.getByLabel('Phone', { exact: true }).fill('+44 7700 900456');
    await page.getByRole('button', { name: 'Save personal details' }).click();
    await personal.getByText('Saved.').waitFor();
    const change = page.locator('#history-live li', { hasText: '+44 7700 900456' }).first();
    await change.waitFor({ timeout: 30_000 });
    expect(await change.textContent()).toContain('Phone: +44 7700 900123 → +44 7700 900456');
    expect(await sameDocument(page)).toBe('yes');
    await expectAccessible(page, 'history after an in-page edit at 360 px');
    const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(wide).toBeLessThanOrEqual(360);
    await change.scrollIntoViewIfNeeded();
    await screenshot(page, 'staff-history-360');
    await context.close();
  });
});
