/**
 * The web sign-in in headless Chromium: /signin → Muster's one-time-code pages → code from the
 * test SMTP server → back on the site with a session cookie; sign out revokes it. Desktop and phone.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, makeUser, type SigninApp, startSigninApp } from '../signin/harness.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
} from './harness.js';

describeBrowser('web sign-in in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs in with an emailed code and signs out (phone viewport)', async () => {
    await makeUser(t.deps, 'grace@example.org', { name: 'Grace' });
    const context = await newContext(browser, 'phone');
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await page.goto(`${t.origin}/`);
    await expectAccessible(page, 'home');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email address').fill('grace@example.org');
    await screenshot(page, 'signin-1-email');
    await page.getByRole('button', { name: 'Email me a sign-in code' }).click();
    await page.getByLabel('Sign-in code').waitFor();
    const mail = await t.smtp.waitFor((m) => m.to.includes('grace@example.org'));
    const code = /(\d{6})/.exec(mail.text)![1]!;
    await page.getByLabel('Sign-in code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.origin}/`);
    expect(await page.locator('header.site').textContent()).toContain('Signed in as grace@example.org');
    await expectAccessible(page, 'home (signed in)');
    await screenshot(page, 'signin-2-home');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'muster_session')!;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe('Lax');
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await page.locator('h1').textContent()).toBe('Signed out');
    expect((await context.cookies()).some((c) => c.name === 'muster_session')).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
