/**
 * The door's settings in headless Chromium against a real database (issue 24), signed in through
 * the real email-code flow:
 * - an event admin edits a scan context's refuse list on the settings page (at 360 px, then
 *   restores the default on the desktop) and the check-in desk's next verdicts follow each change;
 * - the desk's "Sound and vibration for each answer" is off by default, remembered on the device,
 *   and once on gives an admitted and a refused scan different vibration patterns and tones (spies
 *   on navigator.vibrate and AudioContext, installed before the page's scripts run).
 * axe-core runs on every page shown. Screenshots: test-artifacts/screenshots/door-settings-*.
 */
import { sql } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { grantEventRole } from '../../src/modules/accounts/users.service.js';
import {
  freePort,
  makeEvent,
  makeRegistrant,
  makeUser,
  type SigninApp,
  startSigninApp,
} from '../signin/harness.js';
import { signedInPage } from './flow.js';
import { describeBrowser, expectAccessible, launchBrowser, screenshot } from './harness.js';

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1100, height: 900 };
/** Records every vibration and every tone the page makes, in `window.__feedback`. */
const FEEDBACK_SPY = `
  window.__feedback = [];
  Object.defineProperty(Navigator.prototype, 'vibrate', {
    configurable: true,
    value(pattern) { window.__feedback.push({ vibrate: pattern }); return true; },
  });
  const RealAudio = window.AudioContext;
  window.AudioContext = class extends RealAudio {
    createOscillator() {
      const osc = super.createOscillator();
      const start = osc.start.bind(osc);
      osc.start = (...at) => { window.__feedback.push({ tone: osc.frequency.value }); return start(...at); };
      return osc;
    }
  };`;

describeBrowser('the door’s settings in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let event: { id: number };
  const contexts: BrowserContext[] = [];
  const ids = new Map<string, number>();
  const ctxIds = new Map<string, number>();

  async function person(name: string, status: 'complete' | 'withdrawn', dob = '1990-01-01') {
    const [first, last] = name.split(' ') as [string, string];
    const email = `${first.toLowerCase()}@settings.example`;
    const { personId, registrationId } = await makeRegistrant(t.deps, event.id, email, status, {
      first,
      last,
    });
    ids.set(name, registrationId);
    await t.deps.db.execute(sql`UPDATE people SET date_of_birth = ${dob} WHERE id = ${personId}`);
    await t.deps.db.execute(
      sql`INSERT INTO consents (registration_id, consent_type, status) VALUES (${registrationId}, 'waiver', 'signed')`,
    );
  }

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    event = await makeEvent(t.deps, 'Settings Camp');
    const lead = await makeUser(t.deps, 'lead@settings.example', { name: 'Event Lead' });
    await t.deps.db.transaction((tx) => grantEventRole(tx, lead.id, event.id, 'event_admin'));
    await makeUser(t.deps, 'ops@settings.example', { name: 'Door Ops', opsOf: event.id });
    await person('Mia Young', 'complete', '2012-03-04');
    await person('Kim Gone', 'withdrawn');
    await person('Ada Early', 'complete');
    await person('Bo Fine', 'complete');
    await person('Cy Out', 'withdrawn');
    const { rows } = await t.deps.db.execute<{ id: number; name: string }>(
      sql`INSERT INTO scan_contexts (event_id, name, position, checks_in) VALUES (${event.id}, 'Hall', 5, true)
          RETURNING id, name`,
    );
    ctxIds.set('Hall', Number(rows[0]!.id));
    const check = await t.deps.db.execute<{ id: number }>(
      sql`SELECT id FROM scan_contexts WHERE event_id = ${event.id} AND name = 'Event check-in'`,
    );
    ctxIds.set('Event check-in', Number(check.rows[0]!.id));
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  /** A signed-in 360 px browser on `path`; `init` runs before every page's scripts. */
  async function signedIn(email: string, shot: string, path: string, init?: string) {
    const signed = await signedInPage(t, browser, { email, shot, path, options: { viewport: PHONE }, init });
    contexts.push(signed.context);
    return signed;
  }

  async function openDesk(context: string, init?: string) {
    const path = `/staff/events/${event.id}/checkin?context=${ctxIds.get(context)}`;
    const desk = await signedIn('ops@settings.example', `door-settings-desk-${context}`, path, init);
    await desk.page.locator('#desk-live', { hasText: 'Live' }).waitFor();
    return desk;
  }

  /** Taps "Check in" next to `name` and waits for the panel of that scan: its verdict. */
  async function tap(page: Page, name: string): Promise<string | null> {
    await page.getByLabel('Name, email or number').fill(name.split(' ')[1]!);
    // The previous panel may name the same person: wait for this scan's own panel.
    await page.evaluate(`document.getElementById('desk-panel').removeAttribute('data-verdict')`);
    await page.getByRole('button', { name: `Check in ${name}` }).click();
    const panel = page.locator('#desk-panel[data-verdict]', { hasText: name });
    await panel.waitFor();
    return panel.getAttribute('data-verdict');
  }

  async function verdictsOf(name: string) {
    const { rows } = await t.deps.db.execute<{ verdict: string }>(
      sql`SELECT verdict FROM scans WHERE registration_id = ${ids.get(name)!} ORDER BY id`,
    );
    return rows.map((r) => r.verdict);
  }

  it('an event admin edits a refuse list (360 px), then restores the default (desktop): the desk follows', async () => {
    const settings = `/staff/events/${event.id}/scan-contexts`;
    const lead = await signedIn('lead@settings.example', 'door-settings-lead', settings);
    const section = lead.page.locator(`#context-${ctxIds.get('Event check-in')}`);
    await expectAccessible(lead.page, 'scan contexts, 360 px');
    await screenshot(lead.page, 'door-settings-1-page-360');
    const desk = await openDesk('Event check-in');

    // The default: a withdrawn registration is refused, a minor is let in with a warning.
    expect(await tap(desk.page, 'Mia Young')).toBe('warning');
    expect(await tap(desk.page, 'Kim Gone')).toBe('refused');

    await section.getByLabel('Under 18').check();
    await section.getByLabel('Registration withdrawn').uncheck();
    await section.getByRole('button', { name: 'Save Event check-in' }).click();
    await lead.page.getByRole('status').getByText('Saved.').waitFor();
    await section.getByText('Uses its own refuse list.').waitFor();
    expect(await section.getByLabel('Under 18').isChecked()).toBe(true);
    await expectAccessible(lead.page, 'scan contexts after saving, 360 px');
    await screenshot(lead.page, 'door-settings-2-saved-360');

    // Now the minor is refused (nothing stored) and the withdrawn registration let in with a warning.
    expect(await tap(desk.page, 'Mia Young')).toBe('refused');
    await desk.page.locator('#desk-panel').getByText('Under 18').waitFor();
    expect(await tap(desk.page, 'Kim Gone')).toBe('warning');
    expect(await verdictsOf('Mia Young')).toEqual(['warning']);
    expect(await verdictsOf('Kim Gone')).toEqual(['warning']);

    await lead.page.setViewportSize(DESKTOP);
    await expectAccessible(lead.page, 'scan contexts, desktop');
    await section.getByRole('button', { name: 'Use the default refuse list at Event check-in' }).click();
    await lead.page.getByRole('status').getByText('uses the default list again').waitFor();
    await section.getByText('Uses the default refuse list.').waitFor();
    await expectAccessible(lead.page, 'scan contexts after restoring, desktop');
    await screenshot(lead.page, 'door-settings-3-default-desktop');

    // Back to the default: Kim (withdrawn) is refused again, the minor let in with a warning.
    expect(await tap(desk.page, 'Kim Gone')).toBe('refused');
    expect(await tap(desk.page, 'Mia Young')).toBe('warning');
    const { rows } = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'scan_contexts.update'
            AND target_id = ${String(ctxIds.get('Event check-in'))}`,
    );
    expect(rows[0]!.n).toBe(2);
    expect(lead.errors).toEqual([]);
    expect(desk.errors.filter((e) => !e.includes('409'))).toEqual([]);
  });

  it('sound and vibration: off by default, remembered, different for admitted and refused', async () => {
    const { page, errors } = await openDesk('Hall', FEEDBACK_SPY);
    const box = page.getByLabel('Sound and vibration for each answer');
    expect(await box.isChecked()).toBe(false);
    expect(await tap(page, 'Ada Early')).toBe('admitted');
    expect(await page.evaluate('window.__feedback')).toEqual([]);

    await box.check();
    await expectAccessible(page, 'desk with sound and vibration on');
    expect(await tap(page, 'Bo Fine')).toBe('admitted');
    const admitted = await page.evaluate('window.__feedback.splice(0)');
    expect(await tap(page, 'Cy Out')).toBe('refused');
    const refused = await page.evaluate('window.__feedback.splice(0)');
    expect(admitted).toEqual([{ vibrate: 40 }, { tone: 880 }]);
    expect(refused).toEqual([{ vibrate: [250, 120, 250] }, { tone: 220 }, { tone: 220 }]);

    await page.reload();
    await page.locator('#desk-live', { hasText: 'Live' }).waitFor();
    expect(await page.getByLabel('Sound and vibration for each answer').isChecked()).toBe(true);
    expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
  });
});
