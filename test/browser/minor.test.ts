/**
 * A minor with a guardian in headless Chromium, desktop-sized: invitation email →
 * landing → code sign-in → sections (a date of birth under 18 on the event's start, a guardian) →
 * submit → awaiting_guardian → the guardian's email link → portal (permissions, emergency contact,
 * typed consent signatures) → approve → complete, seen by the participant too. Screenshots in
 * test-artifacts/screenshots/minor-*.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import {
  fillSection,
  heading,
  inviteAndReadLink,
  type OpenEvent,
  openEvent,
  signConsents,
  signInWithCode,
} from './flow.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
} from './harness.js';

describeBrowser('minor registration with a guardian in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let event: OpenEvent;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    event = await openEvent(t, 'Lakeside Camp');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('invitation → sections → submit → awaiting_guardian → guardian portal → complete', async () => {
    const link = await inviteAndReadLink(t, event, 'max@example.org', 'Max', 'Minor');
    const participant = await newContext(browser, 'desktop');
    const page = await participant.newPage();
    const errors = consoleErrors(page);

    await page.goto(link);
    await screenshot(page, 'minor-01-landing');
    await page.getByRole('button', { name: 'Continue' }).click();
    await signInWithCode(t, page, 'max@example.org', 'minor-02-code');
    await page.getByRole('button', { name: 'Start my registration' }).click();
    await page.waitForURL(/\/register\/\d+\?done=started$/);
    const pe = /\/register\/(\d+)/.exec(page.url())![1]!;
    const section = async (key: string) => page.goto(`${t.origin}/register/${pe}/${key}`);

    await section('personal');
    await fillSection(
      page,
      'About you',
      { 'Legal first name': 'Max', 'Legal last name': 'Minor', 'Date of birth': '2012-03-04' },
      'minor-03-personal',
    );
    await section('emergency-contacts');
    await fillSection(
      page,
      'Emergency contacts',
      { 'Full name': 'Mia Minor', 'Relationship to you': 'Aunt', 'Phone number': '+447700900222' },
      'minor-04-contacts',
      'Emergency contact 1',
    );
    await section('guardians');
    await fillSection(
      page,
      'Parents or guardians',
      {
        'Full name': 'Gail Minor',
        'Email address': 'gail@example.org',
        'Phone number': '+447700900333',
        'Relationship to you': 'Mother',
      },
      'minor-05-guardian',
      'Parent or guardian (primary)',
    );
    expect(page.url()).toBe(`${t.origin}/register/${pe}`);
    await page.getByRole('button', { name: 'Submit registration' }).click();
    await page.waitForURL(/\?done=submitted$/);
    expect(await page.locator('#status').textContent()).toBe(
      'Submitted: waiting for your parent or guardian',
    );
    expect(await page.getByRole('link', { name: 'Read and sign' }).count()).toBe(0);
    await expectAccessible(page, 'awaiting guardian');
    await screenshot(page, 'minor-06-awaiting-guardian');

    // The guardian: the link from their email, in their own browser, without signing in.
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('gail@example.org') && /parent or guardian/.test(m.subject),
      60_000,
    );
    const portalLink = /(http:\/\/\S+\/guardian\/\S+)/.exec(mail.text)![1]!.replace(/[).,]+$/, '');
    const guardian = await newContext(browser, 'phone');
    const gpage = await guardian.newPage();
    const gerrors = consoleErrors(gpage);
    await gpage.goto(portalLink);
    expect(await heading(gpage)).toBe("Approve Max Minor's registration");
    await expectAccessible(gpage, 'portal');
    await screenshot(gpage, 'minor-07-portal');
    for (const name of [
      'Photos and video of your child may be used in event media',
      'Your child may be photographed during the event',
      'Your child may travel with event staff (transfers and outings)',
      'Staff may consent to emergency medical treatment if you cannot be reached',
    ])
      await gpage.getByRole('group', { name, exact: true }).getByLabel('Yes, I agree').check();
    const contact = gpage.getByRole('group', { name: 'Emergency contact for the event' });
    await contact.getByLabel('Full name').fill('Gary Minor');
    await contact.getByLabel('Relationship to you').fill('Father');
    await contact.getByLabel('Phone number').fill('+447700900444');
    await gpage.getByRole('button', { name: 'Save answers' }).click();
    expect(await gpage.locator('.notice').textContent()).toBe('Your answers are saved.');
    await screenshot(gpage, 'minor-08-portal-saved');

    const signed = await signConsents(gpage, 'Gail Minor', 'minor-09-consent');
    expect(signed).toBeGreaterThan(0);
    await gpage.getByRole('button', { name: 'I approve this registration' }).click();
    expect(await gpage.locator('.notice').textContent()).toBe(
      'Thank you: you have approved this registration.',
    );
    expect(await gpage.locator('#child-status').textContent()).toBe('Complete');
    await expectAccessible(gpage, 'portal approved');
    await screenshot(gpage, 'minor-10-approved');

    await page.goto(`${t.origin}/register/${pe}`);
    expect(await page.locator('#status').textContent()).toBe('Complete: you are registered');
    await screenshot(page, 'minor-11-complete');
    const res = await t.deps.database.pool.query<{ status: string }>(
      'SELECT status FROM registrations WHERE id = $1',
      [Number(pe)],
    );
    expect(res.rows[0]!.status).toBe('complete');
    expect(errors).toEqual([]);
    expect(gerrors).toEqual([]);
    await participant.close();
    await guardian.close();
  }, 180_000);
});
