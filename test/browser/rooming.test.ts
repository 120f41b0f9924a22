/**
 * The rooming board in headless Chromium (issue 30 "Done when", docs/rooming.md "Pages"): a
 * safeguarding lead signs in through the real email-code flow, runs a dry run, applies it, moves one
 * person by keyboard (the card's list and its Move button) into a room that breaks a rule, sees the
 * rule in words (in the card at once, and on Move), and keeps the move with a reason; a card dragged
 * onto the Unassigned column is moved there. An event admin's board shows rooms and names but
 * no gender identity. Every page axe-core clean; at 360 px no horizontal scrolling. Screenshots
 * `rooming-*`.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawMessage } from '../../src/lib/i18n/index.js';
import { freePort, type SigninApp, startSigninApp } from '../signin/harness.js';
import { type RoomingScene, seedRoomingScene } from '../support/rooming-world.js';
import { buildWorld, type World } from '../support/world.js';
import { signedInPage } from './flow.js';
import { describeBrowser, expectAccessible, launchBrowser, screenshot } from './harness.js';

describeBrowser('rooming board in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let world: World;
  let scene: RoomingScene;
  let board: string;

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    world = await buildWorld(t.deps);
    scene = await seedRoomingScene(t.deps, world.events.A.id);
    board = `/staff/events/${world.events.A.id}/rooming`;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const roomOf = async (id: number) =>
    (
      (
        await t.deps.database.pool.query(
          'SELECT assigned_room FROM registration_accommodations WHERE registration_id = $1',
          [id],
        )
      ).rows[0] as { assigned_room: string | null }
    ).assigned_room;
  /** Measured once the page has loaded: before its stylesheet applies, a table is as wide as its text. */
  const noSideScroll = async (page: Page) => {
    await page.waitForLoadState('load');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  };

  it('a safeguarding lead plans, applies, moves someone by keyboard into a rule-breaking room and keeps it with a reason', async () => {
    const { context, page, errors } = await signedInPage(t, browser, {
      email: world.users.safeguarding.email,
      shot: 'rooming-lead',
      path: board,
      options: { viewport: { width: 1100, height: 900 } },
    });
    await expectAccessible(page, 'rooming board before the plan');

    await page.getByRole('button', { name: 'Plan rooms' }).click();
    const plan = page.locator('#plan');
    await plan.getByRole('heading', { name: 'The plan (not saved yet)' }).waitFor();
    expect(await plan.textContent()).toContain(
      'Keeps assigned room “101”, which is not a room of the inventory',
    );
    expect(await roomOf(scene.people.hugo)).toBeNull();
    await expectAccessible(page, 'rooming board with the plan');
    await screenshot(page, 'rooming-plan');

    await page.getByRole('button', { name: 'Apply plan' }).click();
    await page.getByText('The plan was applied').waitFor();
    expect(await roomOf(scene.people.hugo)).toBe('Elm');
    const girls = (await roomOf(scene.people.fern))!;
    expect(await roomOf(scene.people.gail)).toBe(girls);

    // By keyboard: focus Hugo's list, type the room's name, Tab to Move, Enter.
    await page.getByLabel('Move Hugo Hill to').focus();
    await page.keyboard.type(girls);
    expect(await page.getByLabel('Move Hugo Hill to').inputValue()).toBe(
      String(girls === 'Oak' ? scene.rooms.oak : scene.rooms.birch),
    );
    // Shown at once, before anything is sent: the card's check names the rule.
    const check = page.locator(`#check-${scene.people.hugo}`);
    await check.getByText('breaks a rule').waitFor();
    expect(await check.textContent()).toContain(`${girls} is designated female`);
    expect(await roomOf(scene.people.hugo)).toBe('Elm');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const warning = page.getByRole('alert').filter({ hasText: 'This move breaks a rule' });
    await warning.waitFor();
    const text = (await warning.textContent()) ?? '';
    expect(text).toContain(
      `Hugo Hill: ${girls} is designated female; this person may be placed in male rooms`,
    );
    expect(text).toContain(`${girls} holds 2 and would have 3`);
    expect(await roomOf(scene.people.hugo)).toBe('Elm');
    await expectAccessible(page, 'rooming board with a rule warning');
    await screenshot(page, 'rooming-warning');

    await page.getByLabel('Reason to keep this move').fill('Brother of Fern; parents asked in writing');
    await page.getByRole('button', { name: 'Keep the move' }).click();
    await page.getByText('The move was kept with your reason.').waitFor();
    expect(await roomOf(scene.people.hugo)).toBe(girls);
    const card = page.locator(`#person-${scene.people.hugo}`);
    expect(await card.textContent()).toContain(
      'Kept against a rule: Brother of Fern; parents asked in writing',
    );
    await expectAccessible(page, 'rooming board after the kept move');

    // Drag-and-drop sends the same move: Ivan's card onto the Unassigned column.
    await page.locator(`#person-${scene.people.ivan}`).dragTo(page.locator('.board-col[data-room-id=""]'));
    await page.getByText('The move was saved.').waitFor();
    expect(await roomOf(scene.people.ivan)).toBeNull();
    // The page's scripts read their words from the #strings block, rendered from the catalog
    // (rooming-board.js itself shows none: a move's outcome is the server's page).
    const words = JSON.parse((await page.locator('#strings').textContent()) ?? '{}') as Record<
      string,
      string
    >;
    expect(words['scripts.staff.copied']).toBe(rawMessage('en', 'staff.scripts.staff.copied'));
    // The warning page answers 422 (the move was not made), which Chromium logs; nothing else.
    expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
    await context.close();
  });

  it('at 360 px the board and the rooms page fit without sideways scrolling (lead)', async () => {
    const { context, page } = await signedInPage(t, browser, {
      email: world.users.safeguarding.email,
      shot: 'rooming-lead-360',
      path: board,
      options: { viewport: { width: 360, height: 800 }, isMobile: true, hasTouch: true },
    });
    await noSideScroll(page);
    await expectAccessible(page, 'rooming board at 360 px');
    await screenshot(page, 'rooming-board-360');
    await page.getByRole('link', { name: 'Rooms and their details' }).click();
    await page.getByRole('heading', { name: 'Rooms', level: 1 }).waitFor();
    await noSideScroll(page);
    await expectAccessible(page, 'rooms page at 360 px');
    await screenshot(page, 'rooming-rooms-360');
    await context.close();
  });

  it('an event admin’s board shows rooms and names, and no gender identity', async () => {
    const { context, page, errors } = await signedInPage(t, browser, {
      email: world.users.eventAdmin.email,
      shot: 'rooming-admin',
      path: board,
      options: { viewport: { width: 360, height: 800 }, isMobile: true, hasTouch: true },
    });
    const html = await page.content();
    expect(html).toContain('Hugo Hill');
    expect(html).toContain('Gail Green');
    expect(html).not.toContain('Ivan Irons'); // unassigned: the event admin's board has rooms only
    for (const hidden of [
      'Gender identity',
      'boy',
      'girl',
      'Minor',
      'Kept against a rule',
      'Brother of Fern',
    ])
      expect(html, hidden).not.toContain(hidden);
    expect(await page.locator('select').count()).toBe(0);
    await noSideScroll(page);
    await expectAccessible(page, 'event admin’s rooming board');
    await screenshot(page, 'rooming-admin-360');
    expect(errors).toEqual([]);
    await context.close();
  });
});
