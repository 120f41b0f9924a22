/**
 * An event admin composes an announcement to the guardians of minors in headless Chromium,
 * previews it, sends it, and watches the delivery state reach "sent" as the job worker hands the
 * emails to the real local SMTP server. Checked for accessibility and CSP errors; screenshots at
 * desktop width and at 360 px (test-artifacts/screenshots/announcements-*.png).
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { SESSION_COOKIE } from '../../src/modules/web/session.js';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { buildWorld, type World } from '../support/world.js';
import { consoleErrors, describeBrowser, expectAccessible, launchBrowser, screenshot } from './harness.js';

describeBrowser('announcements in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let world: World;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    world = await buildWorld(t.deps);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A browser profile signed in as the event admin (the session cookie /signin/callback sets). */
  async function signedIn(width: number): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const issued = await t.deps.db.transaction((tx) =>
      issueMobileToken(tx, world.users.eventAdmin.id, { deviceName: 'Web browser' }),
    );
    await context.addCookies([
      { name: SESSION_COOKIE, value: t.deps.sealer.seal({ v: 1, t: issued.secret }), url: t.origin },
    ]);
    return context;
  }

  it('compose → preview → send → delivery state', async () => {
    const context = await signedIn(1100);
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await page.goto(`${t.origin}/staff/events/${world.events.A.id}/announcements`);
    expect(await page.locator('h1').textContent()).toBe('Announcements');
    await expectAccessible(page, 'announcements');
    await screenshot(page, 'announcements-01-compose');

    await page.getByLabel('Every parent or guardian of each participant under 18').check();
    await page.getByLabel('Subject', { exact: true }).fill('Pickup on Sunday');
    await page
      .getByLabel('Message', { exact: true })
      .fill('Hello {{name}},\n\nPlease collect {{participant_names}} at five.');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Preview' }).waitFor();
    expect(await page.locator('.email-preview').textContent()).toContain('Hello Gina Guardian,');
    await expectAccessible(page, 'preview');
    await screenshot(page, 'announcements-02-preview');

    await page.getByRole('button', { name: 'Send or schedule' }).click();
    await page.waitForURL(/announcements\?show=\d+/);
    expect(await page.locator('#shown-title').textContent()).toBe('Pickup on Sunday');
    for (let i = 0; i < 100; i++) {
      if ((await page.locator('#delivery').textContent())?.startsWith('2 sent')) break;
      await new Promise((r) => setTimeout(r, 200));
      await page.reload();
    }
    expect(await page.locator('#delivery').textContent()).toMatch(/^2 sent, 0 waiting/);
    expect(await page.locator('#shown tbody tr').count()).toBe(2);
    expect(await page.locator('#shown tbody').textContent()).toContain('gina.guardian@example.com');
    await expectAccessible(page, 'delivery');
    await screenshot(page, 'announcements-03-delivery');
    expect(t.smtp.received.filter((m) => m.subject.endsWith('Pickup on Sunday'))).toHaveLength(2);
    expect(errors).toEqual([]);

    const narrow = await signedIn(360);
    const phone = await narrow.newPage();
    await phone.goto(page.url());
    await expectAccessible(phone, 'delivery at 360 px');
    await screenshot(phone, 'announcements-04-delivery-360');
    await narrow.close();
    await context.close();
  }, 120_000);
});
