/**
 * A participant switches language on the registration form (issue 28, docs/languages.md): the form
 * comes back in Spanish, the next page stays Spanish, and the next email they get (the sign-in code,
 * read from the SMTP outbox) is Spanish. Screenshots in test-artifacts/screenshots/participant-lang-*.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translator } from '../../src/lib/i18n/index.js';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { inviteAndReadLink, type OpenEvent, openEvent, signInWithCode } from './flow.js';
import { describeBrowser, expectAccessible, launchBrowser, newContext, screenshot } from './harness.js';

const es = translator('es');

describeBrowser('a participant switching language in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let event: OpenEvent;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    event = await openEvent(t, 'Lakeside Languages');
    await t.deps.database.pool.query(`UPDATE events SET languages = '{en,es,de,ar}' WHERE id = $1`, [
      event.id,
    ]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('switches on the form, keeps Spanish on the next page and in the next email', async () => {
    const link = await inviteAndReadLink(t, event, 'ana@example.org', 'Ana', 'Lang');
    const context = await newContext(browser, 'phone');
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await signInWithCode(t, page, 'ana@example.org', 'participant-lang-01-code');
    await page.getByRole('button', { name: 'Start my registration' }).click();
    await page.waitForURL(/\/register\/\d+\?done=started$/);
    const pe = /\/register\/(\d+)/.exec(page.url())![1]!;
    await page.goto(`${t.origin}/register/${pe}/personal`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.getByRole('button', { name: 'Español' }).click();
    await page.waitForURL(new RegExp(`/register/${pe}/personal`));
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await expectAccessible(page, 'form in Spanish');
    await screenshot(page, 'participant-lang-02-form-es');

    await page.goto(`${t.origin}/register/${pe}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await screenshot(page, 'participant-lang-03-overview-es');

    // The next email: sign out, sign in again from a fresh browser; the code email is Spanish.
    const before = t.smtp.received.length;
    const fresh = await newContext(browser, 'phone');
    const again = await fresh.newPage();
    await again.goto(`${t.origin}/register/${pe}`);
    await again.locator('input[type=email]').fill('ana@example.org');
    await again.locator('form[action$="/authorize/email"] button[type=submit]').click();
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('ana@example.org') && t.smtp.received.indexOf(m) >= before,
      60_000,
    );
    const code = /(\d{6})/.exec(mail.text)![1]!;
    expect(mail.subject).toBe(es('email.sign_in_code.subject', { code }));
    await context.close();
    await fresh.close();
  }, 240_000);
});
