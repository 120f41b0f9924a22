/**
 * A guardian whose browser asks for Spanish (Accept-Language es) completes the guardian portal in
 * Spanish, and each consent they sign records the language and the document version shown
 * (issue 28, docs/languages.md). The participant registers in English first (minor.test.ts flow).
 * Screenshots in test-artifacts/screenshots/guardian-es-*.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translator } from '../../src/lib/i18n/index.js';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { fillSection, inviteAndReadLink, type OpenEvent, openEvent, signInWithCode } from './flow.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
} from './harness.js';

const es = translator('es');

describeBrowser('a Spanish-reading guardian in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let event: OpenEvent;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    event = await openEvent(t, 'Campamento del Lago');
    await t.deps.database.pool.query(`UPDATE events SET languages = '{en,es,de,ar}' WHERE id = $1`, [
      event.id,
    ]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('completes the portal in Spanish; consents record es and the version shown', async () => {
    const link = await inviteAndReadLink(t, event, 'leo@example.org', 'Leo', 'Lago');
    const participant = await newContext(browser, 'desktop');
    const page = await participant.newPage();
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await signInWithCode(t, page, 'leo@example.org', 'guardian-es-01-code');
    await page.getByRole('button', { name: 'Start my registration' }).click();
    await page.waitForURL(/\/register\/\d+\?done=started$/);
    const pe = /\/register\/(\d+)/.exec(page.url())![1]!;
    const section = async (key: string) => page.goto(`${t.origin}/register/${pe}/${key}`);
    await section('personal');
    await fillSection(
      page,
      'About you',
      { 'Legal first name': 'Leo', 'Legal last name': 'Lago', 'Date of birth': '2012-03-04' },
      'guardian-es-02-personal',
    );
    await section('emergency-contacts');
    await fillSection(
      page,
      'Emergency contacts',
      { 'Full name': 'Mia Lago', 'Relationship to you': 'Aunt', 'Phone number': '+447700900222' },
      'guardian-es-03-contacts',
      'Emergency contact 1',
    );
    await section('guardians');
    await fillSection(
      page,
      'Parents or guardians',
      {
        'Full name': 'Lucía Lago',
        'Email address': 'lucia@example.org',
        'Phone number': '+447700900333',
        'Relationship to you': 'Mother',
      },
      'guardian-es-04-guardian',
      'Parent or guardian (primary)',
    );
    await page.getByRole('button', { name: 'Submit registration' }).click();
    await page.waitForURL(/\?done=submitted$/);

    const mail = await t.smtp.waitFor((m) => m.to.includes('lucia@example.org'), 60_000);
    const portalLink = /(http:\/\/\S+\/guardian\/\S+)/.exec(mail.text)![1]!.replace(/[).,]+$/, '');
    const guardian = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: 'es-ES',
      extraHTTPHeaders: { 'accept-language': 'es-ES,es;q=0.9' },
    });
    const gpage = await guardian.newPage();
    const gerrors = consoleErrors(gpage);
    await gpage.goto(portalLink);
    const portalUrl = gpage.url();
    expect(await gpage.locator('html').getAttribute('lang')).toBe('es');
    expect((await gpage.locator('h1').textContent())?.trim()).toBe(
      es('guardian.title', { name: 'Leo Lago' }),
    );
    await expectAccessible(gpage, 'portal in Spanish');
    await screenshot(gpage, 'guardian-es-05-portal');
    for (const radio of await gpage.locator('input[type=radio][value=granted]').all()) await radio.check();
    const contact = gpage.getByRole('group', { name: es('guardian.contact_legend') });
    await contact.getByLabel(es('form.full_name')).fill('Gonzalo Lago');
    await contact.getByLabel(es('form.relationship')).fill('Padre');
    await contact.getByLabel(es('form.phone')).fill('+447700900444');
    await gpage.getByRole('button', { name: es('guardian.save') }).click();
    await gpage.waitForLoadState();
    expect(await gpage.locator('html').getAttribute('lang')).toBe('es');

    let signed = 0;
    for (;;) {
      const sign = gpage.getByRole('link', { name: es('guardian.read_and_sign') }).first();
      if ((await sign.count()) === 0) break;
      await sign.click();
      expect(await gpage.locator('html').getAttribute('lang')).toBe('es');
      await expectAccessible(gpage, `consent ${signed} in Spanish`);
      await gpage.getByLabel(es('consent.name_label')).fill('Lucía Lago');
      await gpage.getByLabel(es('consent.agree')).check();
      await screenshot(gpage, `guardian-es-06-consent-${signed + 1}`);
      await gpage.getByRole('button', { name: es('consent.sign'), exact: true }).click();
      await gpage.waitForLoadState();
      signed++;
      await gpage.goto(portalUrl);
      if (signed > 10) throw new Error('consent loop');
    }
    expect(signed).toBeGreaterThan(0);
    await gpage.getByRole('button', { name: es('guardian.approve') }).click();
    await gpage.waitForLoadState();
    expect(await gpage.locator('html').getAttribute('lang')).toBe('es');
    await screenshot(gpage, 'guardian-es-07-approved');

    const consents = await t.deps.database.pool.query<{ document_language: string; shown: boolean }>(
      `SELECT c.document_language,
              d.version = (SELECT max(version) FROM event_consent_documents x
                            WHERE x.event_id = d.event_id AND x.consent_type = d.consent_type) AS shown
         FROM consents c JOIN event_consent_documents d ON d.id = c.document_id
        WHERE c.registration_id = $1 AND c.signed_at IS NOT NULL`,
      [Number(pe)],
    );
    expect(consents.rows.length).toBe(signed);
    for (const c of consents.rows) expect(c).toEqual({ document_language: 'es', shown: true });
    const reg = await t.deps.database.pool.query<{ status: string }>(
      'SELECT status FROM registrations WHERE id = $1',
      [Number(pe)],
    );
    expect(reg.rows[0]!.status).toBe('complete');
    expect(gerrors).toEqual([]);
    await participant.close();
    await guardian.close();
  }, 240_000);
});
