/**
 * Resend from where the problem is, in headless Chromium (issue "Organiser fluency" Done when): an
 * ops user signs in through the real email-code flow, resends a guardian's link from the
 * participant page and from the event overview, each at desktop width and at 360 px, and the new
 * link is read from the outbox (the test SMTP server) and opens the guardian portal; the old link
 * stops working.
 * axe-core on both pages at both sizes; screenshots `staff-resend-*`.
 */
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { buildWorld, type World } from '../support/world.js';
import { signInWithCode } from './flow.js';
import { consoleErrors, describeBrowser, expectAccessible, launchBrowser, screenshot } from './harness.js';

describeBrowser('resend guardian links in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let world: World;
  let eventPath: string;
  let minorPath: string;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    world = await buildWorld(t.deps);
    eventPath = `/staff/events/${world.events.A.id}`;
    minorPath = `${eventPath}/participants/${world.regs.minorA.id}`;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(path: string, width: number): Promise<Page> {
    const context = await browser.newContext(
      width < 500
        ? { viewport: { width, height: 800 }, isMobile: true, hasTouch: true }
        : { viewport: { width, height: 900 } },
    );
    const page = await context.newPage();
    await page.goto(`${t.origin}/signin?next=${encodeURIComponent(path)}`);
    await signInWithCode(t, page, world.users.ops.email, `staff-resend-signin-${width}`);
    await page.waitForURL(`${t.origin}${path}`);
    return page;
  }

  /** The newest guardian-portal link emailed to `to` after `after` messages. */
  async function linkFor(to: string, after: number): Promise<string> {
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(to) && t.smtp.received.indexOf(m) >= after && /\/guardian\//.test(m.text),
      60_000,
    );
    const link = /(http:\/\/\S+\/guardian\/\S+)/.exec(mail.text)?.[1];
    if (!link) throw new Error(`no guardian link in:\n${mail.text}`);
    return link;
  }

  it('resends a guardian link from the participant page; the new link opens the portal (desktop)', async () => {
    const page = await signedIn(minorPath, 1100);
    const errors = consoleErrors(page);
    await page.getByRole('heading', { name: 'Waiting on guardians' }).waitFor();
    await expectAccessible(page, 'participant page with guardian links');
    await screenshot(page, 'staff-resend-participant-desktop');
    const before = t.smtp.received.length;
    await page.getByRole('button', { name: 'Send the link for Gus Guardian' }).click();
    await page.getByText('A new link was emailed to the guardian').waitFor();
    const link = await linkFor('gus.guardian@example.com', before);
    await page.getByRole('button', { name: 'Resend the link for Gus Guardian' }).waitFor();
    await expectAccessible(page, 'participant page after a resend');
    const portal = await page.context().newPage();
    const opened = await portal.goto(link);
    expect(opened?.status()).toBe(200);
    expect(await portal.content()).toContain('Max');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('resends from the overview at 360 px; the earlier link stops working', async () => {
    const page = await signedIn(eventPath, 360);
    await page.getByRole('heading', { name: 'Guardians awaited' }).waitFor();
    await expectAccessible(page, 'overview with guardians awaited (360 px)');
    await screenshot(page, 'staff-resend-overview-360');
    const first = t.smtp.received.length;
    await page.getByRole('button', { name: /for Gus Guardian, guardian of Max Minor/ }).click();
    await page.getByText('A new link was emailed to the guardian').waitFor();
    expect(new URL(page.url()).pathname).toBe(eventPath);
    const older = await linkFor('gus.guardian@example.com', first);
    const second = t.smtp.received.length;
    await page.getByRole('button', { name: /for Gus Guardian, guardian of Max Minor/ }).click();
    await page.getByText('A new link was emailed to the guardian').waitFor();
    const newer = await linkFor('gus.guardian@example.com', second);
    expect(newer).not.toBe(older);
    const portal = await page.context().newPage();
    expect((await portal.goto(newer))?.status()).toBe(200);
    expect((await portal.goto(older))?.status()).toBeGreaterThanOrEqual(400);
    const audit = await t.deps.db.execute(sql`SELECT 1 FROM audit_log WHERE action = 'guardians.resend'`);
    expect(audit.rows.length).toBeGreaterThanOrEqual(3);
    await page.context().close();
  });

  it('the other way round: the participant page at 360 px, the overview at desktop width', async () => {
    const phone = await signedIn(minorPath, 360);
    const errors = consoleErrors(phone);
    await phone.getByRole('heading', { name: 'Waiting on guardians' }).waitFor();
    await expectAccessible(phone, 'participant page with guardian links (360 px)');
    await screenshot(phone, 'staff-resend-participant-360');
    const first = t.smtp.received.length;
    await phone.getByRole('button', { name: 'Resend the link for Gus Guardian' }).click();
    await phone.getByText('A new link was emailed to the guardian').waitFor();
    const fromPage = await linkFor('gus.guardian@example.com', first);
    expect(errors).toEqual([]);
    await phone.context().close();

    const desk = await signedIn(eventPath, 1100);
    await desk.getByRole('heading', { name: 'Guardians awaited' }).waitFor();
    await expectAccessible(desk, 'overview with guardians awaited (desktop)');
    await screenshot(desk, 'staff-resend-overview-desktop');
    const second = t.smtp.received.length;
    await desk.getByRole('button', { name: /for Gus Guardian, guardian of Max Minor/ }).click();
    await desk.getByText('A new link was emailed to the guardian').waitFor();
    const fromOverview = await linkFor('gus.guardian@example.com', second);
    expect(fromOverview).not.toBe(fromPage);
    const portal = await desk.context().newPage();
    expect((await portal.goto(fromOverview))?.status()).toBe(200);
    expect((await portal.goto(fromPage))?.status()).toBeGreaterThanOrEqual(400);
    await desk.context().close();
  });
});
