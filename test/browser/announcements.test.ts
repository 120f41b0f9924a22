/**
 * An event admin signs in through the real email-code flow and composes an announcement to the
 * guardians of minors in headless Chromium whose subject uses every placeholder, previews it,
 * presses "Send now" and must confirm a question naming the number of addresses, then watches the
 * delivery state reach "sent" as the job worker hands the emails to the real local SMTP server;
 * the emails in the outbox carry no placeholder left unfilled. Checked for accessibility and CSP
 * errors; screenshots at desktop width and at 360 px (test-artifacts/screenshots/announcements-*.png).
 * Then, at 360 px with the same signed-in session, a team announcement whose subject uses every
 * placeholder: the confirmation names the count, and every email in the outbox has none left.
 */

import { sql } from 'drizzle-orm';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PLACEHOLDERS } from '../../src/modules/announcements/placeholders.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { SESSION_COOKIE } from '../../src/modules/web/session.js';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { buildWorld, type World } from '../support/world.js';
import { signInWithCode } from './flow.js';
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

  it('compose with every placeholder → preview → confirm the count → send → delivery state', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const path = `/staff/events/${world.events.A.id}/announcements`;
    await page.goto(`${t.origin}/signin?next=${encodeURIComponent(path)}`);
    await signInWithCode(t, page, world.users.eventAdmin.email, 'announcements-00-signin');
    await page.waitForURL(`${t.origin}${path}`);
    expect(await page.locator('h1').textContent()).toBe('Announcements');
    await expectAccessible(page, 'announcements');
    await screenshot(page, 'announcements-01-compose');

    await page.getByLabel('Every parent or guardian of each participant under 18').check();
    const subject = `Pickup on Sunday: ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(' / ')}`;
    await page.getByLabel('Subject', { exact: true }).fill(subject);
    await page
      .getByLabel('Message', { exact: true })
      .fill('Hello {{name}},\n\nPlease collect {{participant_names}} at five.');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Preview' }).waitFor();
    expect(await page.locator('.email-preview').textContent()).toContain('Hello Gina Guardian,');
    await expectAccessible(page, 'preview');
    await screenshot(page, 'announcements-02-preview');

    await page.getByRole('button', { name: 'Send or schedule' }).click();
    // "Send now" asks first, naming the count; nothing is sent before the answer.
    await page.getByRole('heading', { name: 'Send to 2 addresses now?' }).waitFor();
    expect(await t.deps.db.execute(sql`SELECT 1 FROM announcements`)).toMatchObject({ rows: [] });
    await expectAccessible(page, 'send confirmation');
    await screenshot(page, 'announcements-02b-confirm');
    await page.getByRole('button', { name: 'Yes, send to 2 addresses' }).click();
    await page.waitForURL(/announcements\?show=\d+/);
    expect(await page.locator('#shown-title').textContent()).toBe(subject);
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
    const mails = t.smtp.received.filter((m) => m.subject.includes('Pickup on Sunday'));
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'Summit Alpha: Pickup on Sunday: Gina Guardian / Max / Summit Alpha',
      'Summit Alpha: Pickup on Sunday: Gus Guardian / Max / Summit Alpha',
    ]);
    for (const m of mails) expect(`${m.subject}\n${m.text}`).not.toMatch(/\{\{|\}\}/);
    expect(errors).toEqual([]);

    const narrow = await signedIn(360);
    const phone = await narrow.newPage();
    await phone.goto(page.url());
    await expectAccessible(phone, 'delivery at 360 px');
    await screenshot(phone, 'announcements-04-delivery-360');
    await narrow.close();

    // At 360 px, with the session of the email-code sign-in above: the team gets an announcement
    // whose subject uses every placeholder; "Send now" asks first, naming the count; none is left
    // unfilled in the outbox.
    const small = await browser.newContext({
      viewport: { width: 360, height: 780 },
      isMobile: true,
      hasTouch: true,
    });
    await small.addCookies(await context.cookies());
    const mobile = await small.newPage();
    const mobileErrors = consoleErrors(mobile);
    await mobile.goto(`${t.origin}${path}`);
    await mobile.getByLabel('The event’s team').check();
    await mobile
      .getByLabel('Subject', { exact: true })
      .fill(`Team call: ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(' / ')}`);
    await mobile.getByLabel('Message', { exact: true }).fill('Hi {{name}}, see you at {{event_name}}.');
    await mobile.getByRole('button', { name: 'Send or schedule' }).click();
    const question = mobile.getByRole('heading', { name: /^Send to \d+ addresses now\?$/ });
    await question.waitFor();
    const count = Number(/\d+/.exec((await question.textContent()) ?? '')![0]);
    expect(count).toBeGreaterThan(1);
    await expectAccessible(mobile, 'send confirmation at 360 px');
    await screenshot(mobile, 'announcements-05-confirm-360');
    const before = t.smtp.received.length;
    await mobile.getByRole('button', { name: `Yes, send to ${count} addresses` }).click();
    await mobile.waitForURL(/announcements\?show=\d+/);
    const team = () => t.smtp.received.slice(before).filter((m) => m.subject.includes('Team call'));
    for (let i = 0; i < 300 && team().length < count; i++) await new Promise((r) => setTimeout(r, 200));
    expect(team()).toHaveLength(count);
    for (const m of team()) {
      expect(m.subject).toMatch(/^Summit Alpha: Team call: .+ \/ {2}\/ Summit Alpha$/);
      expect(`${m.subject}\n${m.text}`).not.toMatch(/\{\{|\}\}/);
    }
    expect(mobileErrors).toEqual([]);
    await small.close();
    await context.close();
  }, 180_000);
});
