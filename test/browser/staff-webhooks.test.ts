/**
 * The webhooks page in headless Chromium (issue 29 item 1), signed in through the real email-code
 * flow as an event admin: adds an endpoint pointing at a real local receiver, sees its signing
 * secret once, sends a ping, and sees it delivered in the delivery log (status 204, attempt 1); the
 * receiver verifies the ping with the `standardwebhooks` package under the secret the page showed;
 * a reload no longer shows the secret. Each page checked for the accessibility basics (axe-core),
 * no console errors (CSP), screenshots at desktop width and 360 px.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { grantEventRole } from '../../src/modules/accounts/users.service.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { freePort, makeUser, type SigninApp, startSigninApp } from '../signin/harness.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { heading, signInWithCode } from './flow.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
} from './harness.js';

const ADMIN = 'ada.admin@example.org';

describeBrowser('staff webhooks page in Chromium', () => {
  let t: SigninApp;
  let rx: Receiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let eventId: number;

  beforeAll(async () => {
    rx = await startReceiver();
    t = await startSigninApp({
      port: await freePort(),
      env: { MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true', MUSTER_WEBHOOKS_POLL_MS: '50' },
    });
    browser = await launchBrowser();
    const admin = await makeUser(t.deps, ADMIN, { name: 'Ada Admin' });
    await t.deps.db.transaction(async (tx) => {
      const series = await createSeries(tx, { name: 'Harbour Camps', slug: 'harbour-camps' });
      const event = await createEventRecord(tx, {
        name: 'Harbour Camp 2027',
        seriesId: series.id,
        supportEmail: 'help@muster.example',
        startsAt: '2027-07-01T09:00:00Z',
        endsAt: '2027-07-05T17:00:00Z',
        setupComplete: true,
      });
      await grantEventRole(tx, admin.id, event.id, 'event_admin');
      eventId = event.id;
    });
    context = await newContext(browser, 'desktop');
    page = await context.newPage();
    errors = consoleErrors(page);
    await page.goto(`${t.origin}/staff/events/${eventId}/webhooks`);
    await signInWithCode(t, page, ADMIN, 'staff-webhooks-0-signin');
    await page.waitForURL(`${t.origin}/staff/events/${eventId}/webhooks`);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
    await rx?.close();
  });

  /** Screenshots of the current URL at desktop width and at 360 px (same session), both checked. */
  async function shots(name: string) {
    await screenshot(page, `${name}-desktop`);
    const narrow = await browser.newContext({
      viewport: { width: 360, height: 780 },
      isMobile: true,
      hasTouch: true,
    });
    await narrow.addCookies(await context.cookies());
    const small = await narrow.newPage();
    const smallErrors = consoleErrors(small);
    await small.goto(page.url());
    await expectAccessible(small, `${name} at 360 px`);
    // Nothing wider than the screen: the page does not scroll sideways.
    expect(await small.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await screenshot(small, `${name}-360`);
    expect(smallErrors).toEqual([]);
    await narrow.close();
  }

  it('adds an endpoint (secret shown once), sends a ping and sees it delivered in the log', async () => {
    expect(await heading(page)).toBe('Webhooks');
    expect(await page.locator('.event-nav [aria-current=page]').textContent()).toBe('Webhooks');
    await expectAccessible(page, 'webhooks, none yet');
    await shots('staff-webhooks-1-empty');

    await page.getByLabel('URL', { exact: true }).fill(rx.url.replace('127.0.0.1', 'localhost'));
    await page.getByLabel('Description (optional)').fill('Door display');
    await page.getByRole('checkbox', { name: /^scan\.created/ }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('heading', { name: 'Signing secret' }).waitFor();
    expect(await heading(page)).toBe('Webhook: Door display');
    const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible(page, 'webhook with its new secret');
    await screenshot(page, 'staff-webhooks-2-created-desktop');

    await page.getByRole('button', { name: 'Send a ping' }).click();
    await page.getByText('Ping queued').waitFor();
    expect(await page.content()).not.toContain(secret); // the redirect's page: shown once only
    await rx.until((all) => all.some((r) => r.json.type === 'ping'), 'the ping');
    const ping = rx.received.find((r) => r.json.type === 'ping')!;
    expect(() => rx.verify(ping, secret)).not.toThrow();

    // The log shows it delivered once the worker has recorded the attempt.
    const log = page.getByRole('table');
    await expect
      .poll(
        async () => {
          await page.reload();
          return log.getByRole('cell', { name: 'succeeded', exact: true }).count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    expect(await log.getByRole('cell', { name: '204', exact: true }).count()).toBe(1);
    expect(await log.getByText(ping.id).count()).toBe(1);
    expect(await page.getByRole('button', { name: `Redeliver ping ${ping.id}` }).count()).toBe(1);
    await expectAccessible(page, 'webhook with a delivered ping');
    await shots('staff-webhooks-3-delivered');

    await page.goto(`${t.origin}/staff/events/${eventId}/webhooks`);
    expect(await page.getByRole('cell', { name: 'Door display', exact: true }).count()).toBe(1);
    await shots('staff-webhooks-4-list');
    expect(errors).toEqual([]);
  });
});
