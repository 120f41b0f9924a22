/**
 * The staff home, event overview and participants table in headless Chromium, signed in through
 * the real email-code flow as each role (global admin, event admin, ops, safeguarding lead,
 * limited, read_only): sign-in lands staff on /staff; what each page shows and what never reaches
 * the HTML; htmx search and the no-JavaScript fallback; axe-core on every page; screenshots at
 * desktop size and 360 px wide. docs/staff-dashboard.md.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { buildWorld, type UserName, type World } from '../support/world.js';
import { heading, signInWithCode } from './flow.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
  withoutReplacedRequests,
} from './harness.js';

// Values of event A's participants a role may or may not receive (test/support/world.ts).
/** How long a partial update may take on a loaded machine (a 400 ms typing delay, then the request). */
const POLL = { timeout: 15_000, interval: 100 };
const PII = ['+44 7700 900999', '1990-04-01', '2012-05-05', 'High Street'];
const MEDICAL = ['Peanuts', 'Asthma'];

describeBrowser('staff dashboard in Chromium', () => {
  let t: SigninApp;
  let world: World;
  let browser: Browser;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    world = await buildWorld(t.deps);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Home → Sign in → emailed code → lands on /staff. */
  async function signIn(user: UserName): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await newContext(browser, 'desktop');
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await page.goto(`${t.origin}/`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signInWithCode(t, page, world.users[user].email, `staff-${user}-0-signin`);
    await page.waitForURL(`${t.origin}/staff`);
    return { context, page, errors };
  }

  async function check(page: Page, shot: string): Promise<string> {
    await expectAccessible(page, shot);
    await screenshot(page, shot);
    return page.content();
  }

  const tableUrl = () => `${t.origin}/staff/events/${world.events.A.id}/participants`;

  it('each role sees its events, the overview and the columns it may see', async () => {
    const roles: UserName[] = ['admin', 'eventAdmin', 'ops', 'safeguarding', 'limited', 'readOnly'];
    for (const user of roles) {
      const { context, page, errors } = await signIn(user);
      expect(await heading(page)).toBe('Your events');
      const home = await check(page, `staff-${user}-1-home`);
      expect(home).toContain('Summit Alpha');
      expect(home.includes('Foreign Gamma'), user).toBe(user === 'admin');

      await page.getByRole('link', { name: 'Summit Alpha' }).click();
      expect(await heading(page)).toBe('Summit Alpha');
      const overview = await check(page, `staff-${user}-2-overview`);
      expect(overview).toContain('Minors awaiting a guardian');
      expect(overview.includes('Recent activity'), user).toBe(user === 'admin' || user === 'eventAdmin');

      if (user === 'readOnly') {
        expect(await page.getByRole('link', { name: 'Participants' }).count()).toBe(0);
        const res = await page.goto(tableUrl());
        expect(res?.status()).toBe(403);
        expect(await heading(page)).toBe('No access to participants');
        const html = await check(page, `staff-${user}-3-no-access`);
        for (const text of ['Alice', 'Anderson', ...PII, ...MEDICAL]) expect(html).not.toContain(text);
      } else {
        await page
          .getByRole('navigation', { name: 'Event' })
          .getByRole('link', { name: 'Participants' })
          .click();
        expect(await heading(page)).toBe('Participants');
        const html = await check(page, `staff-${user}-3-participants`);
        expect(html).toContain('Max Minor');
        const sensitive = user === 'admin' || user === 'safeguarding';
        expect(await page.getByLabel('Health and diet').count(), user).toBe(sensitive ? 1 : 0);
        for (const text of MEDICAL) expect(html.includes(text), `${user} ${text}`).toBe(sensitive);
        if (user === 'limited') for (const text of PII) expect(html, text).not.toContain(text);
        else expect(html).toContain('+44 7700 900999');
        expect(html).not.toContain('High Street');
      }
      // The 403 page's own load is logged as a failed resource; nothing else may be.
      expect(
        errors.filter((e) => !e.includes('status of 403')),
        user,
      ).toEqual([]);
      await context.close();
    }
  }, 600_000);

  it('searches and filters with htmx, and without JavaScript through the plain form', async () => {
    const { context, page, errors } = await signIn('ops');
    await page.goto(tableUrl());
    const rows = page.locator('#results tbody tr');
    await expect.poll(() => rows.count(), POLL).toBe(4);
    await page.getByLabel('Search').fill('max');
    await expect.poll(() => rows.count(), POLL).toBe(1);
    expect(await rows.first().textContent()).toContain('Max Minor');
    expect(page.url()).toContain('q=max');
    // Cleared and submitted with Enter (the form's `submit` trigger). Each press replaces the request
    // in flight (hx-sync "this:replace"), so pressing again while the server is slow under CI load
    // only restarts the wait: press once, then wait for the answer to the cleared query itself.
    const answers: string[] = [];
    page.on('response', (r) => {
      if (r.request().headers()['hx-request']) answers.push(`${r.status()} ${new URL(r.url()).search}`);
    });
    const cleared = page.waitForResponse(
      (r) => Boolean(r.request().headers()['hx-request']) && new URL(r.url()).searchParams.get('q') === '',
      { timeout: 90_000 },
    );
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Search').press('Enter');
    expect((await cleared).status()).toBe(200);
    await expect.poll(() => rows.count(), { ...POLL, message: answers.join('\n') }).toBe(4);
    expect(await rows.count()).toBe(4);
    await page.getByLabel('Check-in').selectOption('yes');
    await expect.poll(() => page.locator('#results tbody').textContent(), POLL).not.toContain('Max Minor');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Ali');
    expect(page.url()).toContain('checked_in=yes');
    await check(page, 'staff-ops-4-filtered');
    // A query that a newer one replaced is aborted by design; any other console error fails.
    expect(withoutReplacedRequests(errors)).toEqual([]);

    // Without JavaScript the same form is a plain GET.
    const noJs = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1100, height: 900 },
    });
    await noJs.addCookies(await context.cookies());
    const plain = await noJs.newPage();
    await plain.goto(tableUrl());
    await plain.getByLabel('Status').selectOption('awaiting_guardian');
    await plain.getByRole('button', { name: 'Show' }).click();
    await plain.waitForURL(/status=awaiting_guardian/);
    expect(await plain.locator('#results tbody tr').count()).toBe(1);
    expect(await plain.locator('#results tbody').textContent()).toContain('Max Minor');
    await noJs.close();
    await context.close();
  }, 120_000);

  it('fits a 360 px wide screen', async () => {
    const { context } = await signIn('admin');
    const phone = await browser.newContext({
      viewport: { width: 360, height: 800 },
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
    });
    await phone.addCookies(await context.cookies());
    const page = await phone.newPage();
    const pages: [string, string][] = [
      ['home', `${t.origin}/staff`],
      ['overview', `${t.origin}/staff/events/${world.events.A.id}`],
      ['participants', tableUrl()],
    ];
    for (const [name, url] of pages) {
      await page.goto(url);
      await check(page, `staff-360-${name}`);
    }
    await phone.close();
    await context.close();
  }, 120_000);
});
