/**
 * Per-language fields on a staff form in headless Chromium at 360 px (issue 28 item 3,
 * docs/languages.md "How organisers offer and write per-language content"): on an event offering
 * English and Spanish, a series organizer writes the guardian invitation in both, previews it as a
 * Spanish reader and saves; the page passes the accessibility probe and axe-core, has no
 * horizontal scroll, and the Spanish wording is stored as the translation.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, makeEvent, makeUser, type SigninApp, startSigninApp } from '../signin/harness.js';
import { heading, signInWithCode } from './flow.js';
import { consoleErrors, describeBrowser, expectAccessible, launchBrowser, screenshot } from './harness.js';

describeBrowser('staff form per language in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let event: { id: number; seriesId: string };

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    event = await makeEvent(t.deps, 'Campamento del Lago');
    await t.deps.database.pool.query(
      `UPDATE events SET default_language = 'en', languages = '{en,es}' WHERE id = $1`,
      [event.id],
    );
    await makeUser(t.deps, 'olga.organizer@muster.example', { organizerOf: event.seriesId });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('writes the guardian invitation in English and Spanish, saves both', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const url = `${t.origin}/staff/events/${event.id}/emails/guardian_invitation`;
    await page.goto(url);
    await signInWithCode(t, page, 'olga.organizer@muster.example', 'org-languages-01-code');
    await page.waitForURL(url);
    expect(await heading(page)).toBe('Parent or guardian invitation');
    await page.getByLabel('Subject (English (en))').fill('Please answer for {{participant_name}}');
    await page.getByLabel('Message (English (en))').fill('Dear {{guardian_name}},\n\n{{link}}');
    await page.getByLabel('Subject (Español (es))').fill('Responde por {{participant_name}}');
    await page.getByLabel('Message (Español (es))').fill('Hola {{guardian_name}}:\n\n{{link}}');
    await expectAccessible(page, 'editor with Spanish');
    const widths = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    )) as { scroll: number; client: number };
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await screenshot(page, 'org-languages-02-editor');
    await page.getByRole('button', { name: 'Save wording' }).click();
    await page.waitForURL(/\?done=saved$/);
    expect(await page.getByLabel('Subject (Español (es))').inputValue()).toBe(
      'Responde por {{participant_name}}',
    );
    await expectAccessible(page, 'saved');
    const rows = await t.deps.database.pool.query(
      `SELECT subject, translations FROM email_templates WHERE event_id = $1`,
      [event.id],
    );
    expect(rows.rows).toEqual([
      {
        subject: 'Please answer for {{participant_name}}',
        translations: {
          es: { subject: 'Responde por {{participant_name}}', body: 'Hola {{guardian_name}}:\n\n{{link}}' },
        },
      },
    ]);
    expect(errors).toEqual([]);
  });
});
