/**
 * Languages in headless Chromium (issue 28, docs/languages.md): a browser asking for Arabic gets a
 * right-to-left page (`<html lang="ar" dir="rtl">`) that passes axe-core and has no horizontal
 * scroll at 360 px; the language switch changes the page and the choice is kept on the next page.
 * Screenshots in test-artifacts/screenshots/languages-*.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { consoleErrors, describeBrowser, expectAccessible, launchBrowser, screenshot } from './harness.js';

describeBrowser('languages in Chromium', () => {
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

  it('an Arabic page is right-to-left, accessible and fits 360 px', async () => {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
      locale: 'ar',
      extraHTTPHeaders: { 'accept-language': 'ar' },
    });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await page.goto(`${t.origin}/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('ar');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.evaluate('getComputedStyle(document.body).direction')).toBe('rtl');
    await expectAccessible(page, 'arabic home');
    const widths = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    )) as { scroll: number; client: number };
    expect(widths.client).toBe(360);
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await screenshot(page, 'languages-arabic-360');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('the language switch changes the page and the choice is kept on the next page', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${t.origin}/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.getByRole('button', { name: 'Español' }).click();
    await page.waitForLoadState();
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.getByRole('button', { name: 'Español' }).getAttribute('aria-current')).toBe('true');
    await expectAccessible(page, 'home in Spanish');
    await page.goto(`${t.origin}/signin?next=%2F`);
    await page.waitForLoadState();
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await screenshot(page, 'languages-switch-kept');
    await context.close();
  }, 120_000);
});
