/**
 * The staff emails pages in headless Chromium at 360 px (docs/email.md "Editable wording", "Emails
 * sent"): a series organizer signs in, opens the event's Emails tab (nothing sent yet), its
 * "Wording and reminders" sub-tab, rewords the guardian invitation, previews the draft (the facts
 * and link filled in by Muster), saves it, and turns reminders off; then invites someone from the
 * Invitations page and finds the invitation on the Emails tab with its delivery state (also at
 * desktop width); every page passes the accessibility probe with no CSP violation. Screenshots in test-artifacts/screenshots/emails-*.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, makeEvent, makeUser, type SigninApp, startSigninApp } from '../signin/harness.js';
import { heading, signInWithCode } from './flow.js';
import { consoleErrors, describeBrowser, expectAccessible, launchBrowser, screenshot } from './harness.js';

describeBrowser('staff emails page in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let event: { id: number; seriesId: string };

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    event = await makeEvent(t.deps, 'Lakeside Camp');
    await makeUser(t.deps, 'olive.organizer@muster.example', { organizerOf: event.seriesId });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('reword, preview, save, switch reminders off', async () => {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const emails = `${t.origin}/staff/events/${event.id}/emails`;
    await page.goto(emails);
    await signInWithCode(t, page, 'olive.organizer@muster.example', 'emails-01-code');
    await page.waitForURL(emails);
    expect(await heading(page)).toBe('Emails');
    expect(await page.getByText('Nothing sent yet.').count()).toBe(1);
    await expectAccessible(page, 'emails sent (none yet)');
    await page.getByRole('link', { name: 'Wording and reminders' }).click();
    await page.waitForURL(`${emails}/wording`);
    await expectAccessible(page, 'emails');
    await screenshot(page, 'emails-02-list');

    await page.getByRole('link', { name: 'Parent or guardian invitation' }).click();
    expect(await heading(page)).toBe('Parent or guardian invitation');
    await expectAccessible(page, 'editor');
    await page.getByLabel('Subject').fill('Please answer for {{participant_name}}');
    await page
      .getByLabel('Message')
      .fill('Dear {{guardian_name}},\n\n{{link}}\n\nBefore {{expires_at}}, please.');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('#preview-subject').waitFor();
    expect(await page.locator('#preview-subject').textContent()).toBe('Please answer for Alex Example');
    const text = (await page.locator('#preview-text').textContent()) ?? '';
    expect(text).toContain('Dear Sam Example,');
    expect(text).toMatch(
      /Before \w+day \d{1,2} \w+ \d{4} at \d{2}:\d{2} Coordinated Universal Time, please\./,
    );
    await expectAccessible(page, 'preview');
    await screenshot(page, 'emails-03-preview');

    await page.getByRole('button', { name: 'Save wording' }).click();
    await page.waitForURL(/\?done=saved$/);
    expect(await page.getByRole('status').textContent()).toContain('Saved.');

    await page.getByRole('link', { name: '← All emails' }).click();
    await page.getByLabel('Send reminder emails').uncheck();
    await page.getByRole('button', { name: 'Save reminder setting' }).click();
    await page.waitForURL(/\?done=reminders$/);
    expect(await page.getByLabel('Send reminder emails').isChecked()).toBe(false);
    await expectAccessible(page, 'emails after');
    await screenshot(page, 'emails-04-saved');
    const rows = await t.deps.database.pool.query(
      `SELECT (SELECT count(*)::int FROM email_templates WHERE event_id = $1) AS templates,
              (SELECT email_reminders_enabled FROM events WHERE id = $1) AS reminders`,
      [event.id],
    );
    expect(rows.rows).toEqual([{ templates: 1, reminders: false }]);

    // What went out: an invitation sent from the Invitations page is listed on the Emails tab with
    // its delivery state, at 360 px and at desktop width.
    await page.goto(`${t.origin}/staff/events/${event.id}/invitations`);
    await page.getByLabel('Email address', { exact: true }).fill('pat.parent@example.org');
    await page.getByRole('button', { name: 'Send invitation', exact: true }).click();
    await t.smtp.waitFor((m) => m.to.includes('pat.parent@example.org'), 60_000);
    await page.goto(emails);
    const row = page.getByRole('row', { name: /pat\.parent@example\.org/ });
    for (let i = 0; i < 100 && !/Sent \d/.test((await row.textContent()) ?? ''); i++) {
      await new Promise((r) => setTimeout(r, 200));
      await page.reload();
    }
    expect(await row.textContent()).toMatch(/Invitation to register.*Sent \d/s);
    expect(await row.textContent()).toContain('Lakeside Camp');
    await expectAccessible(page, 'emails sent');
    await screenshot(page, 'emails-05-sent-360');
    const wide = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await wide.addCookies(await context.cookies());
    const desk = await wide.newPage();
    const deskErrors = consoleErrors(desk);
    await desk.goto(emails);
    expect(await desk.getByRole('row', { name: /pat\.parent@example\.org/ }).count()).toBe(1);
    await expectAccessible(desk, 'emails sent (desktop)');
    await screenshot(desk, 'emails-05-sent-desktop');
    expect(deskErrors).toEqual([]);
    await wide.close();
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
