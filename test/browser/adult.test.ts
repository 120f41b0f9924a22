/**
 * One full adult registration in headless Chromium, phone-sized: the invitation
 * email from the test SMTP server → landing page → one-time-code sign-in → every form section
 * (with a validation error and its error summary on the way) → submit → typed consent signatures →
 * complete. Screenshots in test-artifacts/screenshots/adult-*.png.
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

describeBrowser('adult registration in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let event: OpenEvent;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    event = await openEvent(t, 'Harbour Summit');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('invitation → sign in → sections → submit → consents → complete', async () => {
    const link = await inviteAndReadLink(t, event, 'ada@example.org', 'Ada', 'Lovelace');
    const context = await newContext(browser, 'phone');
    const page = await context.newPage();
    const errors = consoleErrors(page);

    await page.goto(link);
    expect(await heading(page)).toBe('Register for Harbour Summit');
    await expectAccessible(page, 'landing');
    await screenshot(page, 'adult-01-landing');
    await page.getByRole('button', { name: 'Continue' }).click();
    await signInWithCode(t, page, 'ada@example.org', 'adult-02-code');
    await page.getByRole('button', { name: 'Start my registration' }).click();
    await page.waitForURL(/\/register\/\d+\?done=started$/);
    const pe = /\/register\/(\d+)/.exec(page.url())![1]!;
    await expectAccessible(page, 'overview');
    await screenshot(page, 'adult-03-overview');

    await page.getByRole('link', { name: 'About you' }).click();
    await fillSection(
      page,
      'About you',
      {
        'Legal first name': 'Ada',
        'Legal last name': 'Lovelace',
        'Preferred name (optional)': 'Ada',
        'Date of birth': '1990-12-10',
        'Mobile phone': 'call me maybe',
        'T-shirt size': 'M',
        'Address line 1': '12 St James Square',
        'Town or city': 'London',
        Country: 'United Kingdom',
      },
      'adult-04-personal',
    );
    // The invalid phone comes back with an error summary linked to the field.
    expect(await heading(page)).toBe('About you');
    const summary = page.locator('.error-summary');
    expect(await summary.textContent()).toContain(
      'Mobile phone must be a phone number in international format',
    );
    await expectAccessible(page, 'personal with errors');
    await screenshot(page, 'adult-05-personal-error');
    await summary.getByRole('link').first().click();
    expect(await page.evaluate('document.activeElement.id')).toBe('f-phone');
    await fillSection(page, 'About you', { 'Mobile phone': '+44 7700 900123' }, 'adult-06-personal-fixed');

    await fillSection(
      page,
      'Accommodation',
      { 'Check-in date': '2027-06-30', 'Check-out date': '2027-07-05' },
      'adult-07-accommodation',
    );
    await fillSection(
      page,
      'Medical',
      { Allergies: 'Penicillin', 'I am at risk of anaphylaxis': false },
      'adult-08-medical',
    );
    await fillSection(page, 'Dietary', { Diet: 'vegetarian' }, 'adult-09-dietary');
    await fillSection(page, 'Accessibility', { 'I need step-free access': true }, 'adult-10-accessibility');
    expect(await heading(page)).toBe('Travel');
    await page.getByLabel('How are you travelling?').first().selectOption('train');
    await page.getByLabel('Departing from (city)').first().fill('Bristol');
    await page.getByLabel('Arrival date and time (UTC)').first().fill('2027-06-30T15:30');
    await screenshot(page, 'adult-11-travel');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await fillSection(
      page,
      'Emergency contacts',
      { 'Full name': 'Charles Babbage', 'Relationship to you': 'Friend', 'Phone number': '+447700900456' },
      'adult-12-contacts',
      'Emergency contact 1',
    );
    expect(await heading(page)).toBe('Parents or guardians');
    await page.getByRole('button', { name: 'Save and continue' }).click();

    expect(page.url()).toBe(`${t.origin}/register/${pe}`);
    await page.getByRole('button', { name: 'Submit registration' }).click();
    await page.waitForURL(/\?done=submitted$/);
    await expectAccessible(page, 'submitted');
    await screenshot(page, 'adult-13-submitted');
    expect(await page.locator('#status').textContent()).toContain('In progress');

    const signed = await signConsents(page, 'Ada Lovelace', 'adult-14-consent');
    expect(signed).toBeGreaterThan(0);
    expect(await page.locator('#status').textContent()).toBe('Complete: you are registered');
    await expectAccessible(page, 'complete');
    await screenshot(page, 'adult-15-complete');

    const res = await t.deps.database.pool.query<{ status: string }>(
      'SELECT status FROM registrations WHERE id = $1',
      [Number(pe)],
    );
    expect(res.rows[0]!.status).toBe('complete');
    // The one refused form post (422, the invalid phone) is all the browser reports.
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
    await context.close();
  }, 180_000);
});
