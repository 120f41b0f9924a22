/**
 * Staff edits in headless Chromium (issue 14 "Done when"): a safeguarding lead signs in through the
 * real email-code flow, opens a participant's page, edits the dietary section in place (htmx), and
 * the change is read back through `GET /api/v1/events/{e}/participants?updated_since=`; `ops`
 * sees no Edit button there, and the same edit posted from their session is refused (403) with
 * nothing changed. Screenshots at desktop size and 360 px.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { buildWorld, type World } from '../support/world.js';
import { signInWithCode } from './flow.js';
import {
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
} from './harness.js';

describeBrowser('staff participant page in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let world: World;
  let pagePath: string;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    world = await buildWorld(t.deps);
    pagePath = `/staff/events/${world.events.A.id}/participants/${world.regs.adultA.id}`;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(email: string, width?: number): Promise<{ context: BrowserContext; page: Page }> {
    const context = width
      ? await browser.newContext({ viewport: { width, height: 800 }, isMobile: true, hasTouch: true })
      : await newContext(browser, 'desktop');
    const page = await context.newPage();
    await page.goto(`${t.origin}/signin?next=${encodeURIComponent(pagePath)}`);
    await signInWithCode(t, page, email, `staff-participant-signin-${width ?? 'desktop'}`);
    await page.waitForURL(`${t.origin}${pagePath}`);
    return { context, page };
  }

  async function sync(token: string, since?: string) {
    const q = since ? `?updated_since=${encodeURIComponent(since)}` : '';
    const res = await fetch(`${t.api}/events/${world.events.A.id}/participants${q}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { participants: Record<string, unknown>[]; synced_at: string };
  }

  it('a safeguarding lead edits the dietary section in place; the sync list carries the change', async () => {
    const lead = world.users.safeguarding;
    const { synced_at } = await sync(lead.mobile);
    const { context, page } = await signedIn(lead.email);
    const errors = consoleErrors(page);
    await expectAccessible(page, 'participant page');
    await screenshot(page, 'staff-participant-desktop');
    const dietary = page.locator('#sec-dietary');
    await dietary.getByRole('link', { name: 'Edit dietary' }).click();
    await page.getByRole('heading', { name: 'Edit dietary' }).waitFor();
    expect(page.url()).toBe(`${t.origin}${pagePath}`); // swapped in place, no navigation
    // Keyboard focus follows the swap to the form's heading.
    await expect
      .poll(() => page.evaluate<string>('document.activeElement?.textContent ?? ""'))
      .toBe('Edit dietary');
    await page.getByLabel('Diet', { exact: true }).fill('pescatarian');
    await page.getByLabel('Intolerances').fill('Gluten (coeliac)');
    await expectAccessible(page, 'dietary form');
    await screenshot(page, 'staff-participant-edit-dietary');
    await page.getByRole('button', { name: 'Save dietary' }).click();
    await dietary.getByText('Saved.').waitFor();
    await expect
      .poll(() => page.evaluate<string>('document.activeElement?.textContent ?? ""'))
      .toBe('Dietary');
    expect(await page.locator('#sec-dietary').textContent()).toContain('Gluten (coeliac)');

    const changed = await sync(lead.mobile, synced_at);
    expect(changed.participants.map((p) => p.participant_event_id)).toEqual([world.regs.adultA.id]);
    expect(changed.participants[0]!.diet_type).toBe('pescatarian');
    // The list carries the top-level fields; the detail the whole section.
    const detail = await fetch(`${t.api}/events/${world.events.A.id}/participants/${world.regs.adultA.id}`, {
      headers: { authorization: `Bearer ${lead.mobile}` },
    });
    expect(
      ((await detail.json()) as { participant: { dietary_detail: unknown } }).participant.dietary_detail,
    ).toEqual({
      intolerances: 'Gluten (coeliac)',
      notes: 'No mushrooms',
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('ops sees no Edit on the dietary section, and the same edit is refused (403) with nothing changed', async () => {
    const ops = world.users.ops;
    const { synced_at } = await sync(world.users.safeguarding.mobile);
    const { context, page } = await signedIn(ops.email);
    expect(await page.locator('#sec-dietary').getByRole('link', { name: /Edit/ }).count()).toBe(0);
    expect(await page.content()).not.toContain('Gluten (coeliac)');
    const direct = await page.goto(`${t.origin}${pagePath}/sections/dietary/edit`);
    expect(direct?.status()).toBe(403);
    await page.goto(`${t.origin}${pagePath}`);
    const csrf = await page.locator('input[name=_csrf]').first().inputValue();
    const res = await page.request.post(`${t.origin}${pagePath}/sections/dietary`, {
      form: { _csrf: csrf, diet_type: 'carnivore', 'dietary_detail.intolerances': 'none' },
    });
    expect(res.status()).toBe(403);
    expect((await sync(world.users.safeguarding.mobile, synced_at)).participants).toEqual([]);
    await context.close();
  });

  it('reads at 360 px without horizontal scrolling', async () => {
    const { context, page } = await signedIn(world.users.eventAdmin.email, 360);
    await expectAccessible(page, 'participant page at 360 px');
    await screenshot(page, 'staff-participant-360');
    await page.locator('#sec-accommodation').getByRole('link', { name: 'Edit accommodation' }).click();
    await page.getByRole('heading', { name: 'Edit accommodation' }).waitFor();
    await expectAccessible(page, 'accommodation form at 360 px');
    // A 422 is swapped in too: the form comes back with the field's error.
    await page.getByLabel('Check-out date').fill('2026-07-01');
    await page.getByRole('button', { name: 'Save accommodation' }).click();
    await page.locator('#sec-accommodation .error-summary').waitFor();
    expect(await page.locator('#sec-accommodation').textContent()).toContain(
      'Check-out date must not be before',
    );
    await expectAccessible(page, 'accommodation form with an error at 360 px');
    await screenshot(page, 'staff-participant-edit-360');
    await page.getByRole('link', { name: 'Withdraw' }).click();
    await page.getByRole('button', { name: /Yes, withdraw/ }).waitFor();
    await expectAccessible(page, 'withdraw confirmation at 360 px');
    await screenshot(page, 'staff-participant-confirm-360');
    await context.close();
  });
});
