/**
 * Staff invitations and API keys pages in headless Chromium, signed in through the real email-code
 * flow: a series owner pastes two addresses, sees both sent and pending (and the invitees' emails
 * arrive), finds the same two pending invitations above the participants table (resends one from
 * there: its email arrives) and counted on the overview; reaches the API keys from the event's
 * navigation, creates an API key whose secret is shown once (copied with the Copy button) and gone
 * on reload, and revokes it after a confirmation. Each page checked for
 * the accessibility basics, no console errors (CSP), screenshots at desktop width and 360 px.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { grantSeriesRole } from '../../src/modules/accounts/users.service.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { freePort, makeUser, type SigninApp, startSigninApp } from '../signin/harness.js';
import { heading, signInWithCode } from './flow.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
} from './harness.js';

const OWNER = 'oona.owner@example.org';

describeBrowser('staff invitations and API keys in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let eventId: number;
  let seriesSlug: string;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    const owner = await makeUser(t.deps, OWNER, { name: 'Oona Owner' });
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
      await grantSeriesRole(tx, owner.id, series.id, 'owner');
      eventId = event.id;
      seriesSlug = series.slug;
    });
    context = await newContext(browser, 'desktop');
    page = await context.newPage();
    errors = consoleErrors(page);
    await page.goto(`${t.origin}/staff/events/${eventId}/invitations`);
    await signInWithCode(t, page, OWNER, 'staff-invitations-0-signin');
    await page.waitForURL(`${t.origin}/staff/events/${eventId}/invitations`);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  /** Screenshots of the current URL at desktop width and at 360 px (same session). */
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
    await screenshot(small, `${name}-360`);
    expect(smallErrors).toEqual([]);
    await narrow.close();
  }

  it('invites two people by pasting a list and sees them pending', async () => {
    expect(await heading(page)).toBe('Invitations');
    await expectAccessible(page, 'invitations');
    await page
      .getByLabel('Email addresses, one per line')
      .fill('sam.sailor@example.org\nrae.rower@example.org, Rae, Rower');
    await page.getByRole('button', { name: 'Send invitations' }).click();
    await page.getByRole('heading', { name: 'Sent 2 of 2' }).waitFor();
    const pending = page.getByRole('table');
    await expect
      .poll(() => pending.getByRole('cell', { name: 'sam.sailor@example.org', exact: true }).count())
      .toBe(1);
    expect(await pending.getByRole('cell', { name: 'rae.rower@example.org', exact: true }).count()).toBe(1);
    expect(await pending.getByRole('cell', { name: 'Rae Rower', exact: true }).count()).toBe(1);
    expect(
      await page.getByRole('button', { name: 'Resend the invitation to sam.sailor@example.org' }).count(),
    ).toBe(1);
    await expectAccessible(page, 'invitations after the list');
    for (const to of ['sam.sailor@example.org', 'rae.rower@example.org'])
      await t.smtp.waitFor((m) => m.to.includes(to) && /invited to register/.test(m.subject), 60_000);
    // The pending list as a fresh GET (the staff navigation marks this page).
    await page.goto(`${t.origin}/staff/events/${eventId}/invitations`);
    expect(await page.locator('.event-nav [aria-current=page]').textContent()).toBe('Invitations');
    // A series owner reaches the series' API keys from the event's navigation.
    expect(await page.locator('.event-nav a', { hasText: 'API keys' }).getAttribute('href')).toMatch(
      /^\/staff\/series\/[0-9a-f-]{36}\/api-keys$/,
    );
    await shots('staff-invitations-1-pending');
    expect(errors).toEqual([]);
  });

  it('the same pending invitations are counted and listed on the participants table and the overview', async () => {
    await page.goto(`${t.origin}/staff/events/${eventId}/participants`);
    await page.getByRole('heading', { name: 'Invitations pending: 2' }).waitFor();
    const pending = page.locator('section[aria-labelledby=pending-heading]');
    expect(await pending.getByText('sam.sailor@example.org', { exact: true }).count()).toBe(1);
    expect(await pending.getByText('rae.rower@example.org', { exact: true }).count()).toBe(1);
    expect(
      await pending.getByRole('button', { name: 'Resend the invitation to rae.rower@example.org' }).count(),
    ).toBe(1);
    await expectAccessible(page, 'participants table with pending invitations');
    await shots('staff-invitations-2-table');
    // Resend from the table: a fresh invitation email reaches the outbox, back on the page.
    const before = t.smtp.received.length;
    await pending.getByRole('button', { name: 'Resend the invitation to rae.rower@example.org' }).click();
    await t.smtp.waitFor(
      (m) => m.to.includes('rae.rower@example.org') && t.smtp.received.indexOf(m) >= before,
      60_000,
    );
    await page.goto(`${t.origin}/staff/events/${eventId}`);
    const counted = page.getByText('Invitations pending (emailed, not yet accepted):');
    expect(await counted.locator('a').textContent()).toBe('2');
    await expectAccessible(page, 'overview with pending invitations');
    expect(errors).toEqual([]);
  });

  it('creates an API key: the secret is shown once, not on reload', async () => {
    await page.goto(`${t.origin}/staff/series/${seriesSlug}/api-keys`);
    expect(await heading(page)).toBe('API keys: Harbour Camps');
    await expectAccessible(page, 'API keys');
    await page.getByLabel('Name').fill('Ticketing sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'Key “Ticketing sync” created' }).waitFor();
    const secret = await page.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^mst_s_/);
    // The copy button puts the secret on the clipboard and says so.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.origin });
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await expectAccessible(page, 'API keys with the new secret');
    await screenshot(page, 'staff-api-keys-1-created-desktop');
    const api = await fetch(`${t.api}/series/current`, { headers: { authorization: `Bearer ${secret}` } });
    expect(api.status).toBe(200);
    await page.reload();
    expect(await heading(page)).toBe('API keys: Harbour Camps');
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByLabel('Secret').count()).toBe(0);
    expect(await page.getByRole('cell', { name: 'Ticketing sync', exact: true }).count()).toBe(1);
    await shots('staff-api-keys-2-list');
    // Revoke asks first (web/public/js/confirm.js): dismissed, nothing happens; accepted, revoked.
    const revoke = page.getByRole('button', { name: 'Revoke the key Ticketing sync' });
    page.once('dialog', (d) => void d.dismiss());
    await revoke.click();
    expect(await revoke.count()).toBe(1);
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await revoke.click();
    await page.getByText('Key revoked').waitFor();
    expect(asked).toContain('Revoke the key Ticketing sync?');
    const refused = await fetch(`${t.api}/series/current`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(refused.status).toBe(401);
    await page.goto(`${t.origin}/staff/events/${eventId}/team`);
    expect(await heading(page)).toBe('Event team');
    await expectAccessible(page, 'event team');
    await shots('staff-team-1-event');
    expect(errors).toEqual([]);
  });
});
