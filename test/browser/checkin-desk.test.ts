/**
 * The check-in desk in headless Chromium, signed in through the real email-code flow:
 * - a check-in by name on the desk (desktop) appears on a second device's live feed (phone, 360 px);
 * - a QR code photo is decoded in the browser by zxing-wasm (served from this origin, under the
 *   staff CSP) and checks its person in; an unknown ticket is a message, never the "last" scan;
 * - offline (the browser context set offline): three people found in the cached list and checked
 *   in, the count of waiting scans shown, then back online: exactly three scans stored.
 * The desk's words come from the catalog through the page's #strings block.
 * Screenshots (desktop and 360 px) go to test-artifacts/screenshots/checkin-desk-*.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawMessage, staffText } from '../../src/lib/i18n/index.js';
import {
  freePort,
  makeEvent,
  makeRegistrant,
  makeUser,
  type SigninApp,
  startSigninApp,
} from '../signin/harness.js';
import { signInWithCode } from './flow.js';
import {
  CHROMIUM_PATH,
  consoleErrors,
  describeBrowser,
  expectAccessible,
  launchBrowser,
  screenshot,
} from './harness.js';

const PEOPLE = [
  ['ada@desk.example', 'Ada', 'Lovelace'],
  ['brian@desk.example', 'Brian', 'Kernighan'],
  ['grace@desk.example', 'Grace', 'Hopper'],
  ['linus@desk.example', 'Linus', 'Torvalds'],
  ['margaret@desk.example', 'Margaret', 'Hamilton'],
] as const;

/** A QR code holding `text` (zxing-wasm's writer, the same library the page decodes with). */
async function qrCode(text: string, scale: number) {
  const require = createRequire(import.meta.url);
  const writer = await import('zxing-wasm/writer');
  await writer.prepareZXingModule({
    overrides: { wasmBinary: readFileSync(require.resolve('zxing-wasm/writer/zxing_writer.wasm')) },
    fireImmediately: true,
  });
  return writer.writeBarcode(text, { format: 'QRCode', scale });
}

async function qrPng(text: string): Promise<Buffer> {
  return Buffer.from(await (await qrCode(text, 8)).image!.arrayBuffer());
}

/**
 * A Y4M video (640×480, 4:2:0) showing the QR code of `text` on white, for Chromium's fake camera
 * (`--use-file-for-fake-video-capture`). Returns the file's path.
 */
async function qrVideo(text: string): Promise<string> {
  const { symbol } = await qrCode(text, 1); // one byte per module: 0 dark, 255 light
  const [width, height, scale] = [640, 480, 12];
  const luma = Buffer.alloc(width * height, 235);
  const x0 = (width - symbol!.width * scale) / 2;
  const y0 = (height - symbol!.height * scale) / 2;
  for (let y = 0; y < symbol!.height * scale; y++) {
    for (let x = 0; x < symbol!.width * scale; x++) {
      const dark = symbol!.data[Math.floor(y / scale) * symbol!.width + Math.floor(x / scale)] === 0;
      luma[(y0 + y) * width + x0 + x] = dark ? 16 : 235;
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, Buffer.alloc((width * height) / 2, 128)]);
  const path = join(mkdtempSync(join(tmpdir(), 'desk-camera-')), 'qr.y4m');
  writeFileSync(
    path,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]),
  );
  return path;
}

describeBrowser('check-in desk in Chromium', () => {
  let t: SigninApp;
  let browser: Browser;
  let event: { id: number };
  let lunch: number;
  const regs = new Map<string, { registrationId: number }>();
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startSigninApp({ port: await freePort() });
    browser = await launchBrowser();
    event = await makeEvent(t.deps, 'Desk Camp');
    await makeUser(t.deps, 'door@desk.example', { name: 'Door Staff', opsOf: event.id });
    await makeUser(t.deps, 'gate@desk.example', { name: 'Gate Staff', opsOf: event.id });
    for (const [email, first, last] of PEOPLE) {
      regs.set(first, await makeRegistrant(t.deps, event.id, email, 'complete', { first, last }));
    }
    const { rows } = await t.deps.db.execute<{ id: number }>(
      sql`INSERT INTO scan_contexts (event_id, name, position) VALUES (${event.id}, 'Lunch', 5) RETURNING id`,
    );
    lunch = rows[0]!.id;
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  const desk = () => `${t.origin}/staff/events/${event.id}/checkin`;

  /** A signed-in desk page (email code flow), desktop or 360 px wide. */
  async function openDesk(email: string, size: 'phone' | 'desktop', shot: string, on: Browser = browser) {
    const context = await on.newContext(
      size === 'phone'
        ? { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true }
        : { viewport: { width: 1100, height: 900 } },
    );
    contexts.push(context);
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await page.goto(desk());
    await signInWithCode(t, page, email, `${shot}-signin`);
    await page.waitForURL(desk());
    await page.locator('#desk-live', { hasText: 'Live' }).waitFor();
    await page.locator('#desk[data-roster="cached"]').waitFor();
    return { context, page, errors };
  }

  async function scansOf(registrationId: number, contextId?: number): Promise<number> {
    const { rows } = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM scans WHERE registration_id = ${registrationId}
            AND (${contextId ?? null}::int IS NULL OR scan_context_id = ${contextId ?? null})`,
    );
    return Number(rows[0]!.n);
  }

  async function checkIn(page: Page, term: string, name: string) {
    await page.getByLabel('Name, email or number').fill(term);
    await page.getByRole('button', { name: `Check in ${name}` }).click();
    await page.locator('#desk-message', { hasText: `${name}: checked in` }).waitFor();
  }

  it('checks a person in by name and the scan appears on a second device’s live feed', async () => {
    const door = await openDesk('door@desk.example', 'desktop', 'checkin-desk-1');
    const gate = await openDesk('gate@desk.example', 'phone', 'checkin-desk-2');
    await expectAccessible(door.page, 'desk (desktop)');
    await expectAccessible(gate.page, 'desk (360 px)');

    await checkIn(door.page, 'lovelace', 'Ada Lovelace');
    await gate.page
      .locator('#desk-feed li', { hasText: 'Ada Lovelace checked in (Event check-in) by Door Staff' })
      .waitFor();
    // The script's words are the catalog's, rendered into the page's #strings block: what it
    // announces is the catalog's message with the name filled in.
    const words = JSON.parse((await door.page.locator('#strings').textContent()) ?? '{}') as Record<
      string,
      string
    >;
    for (const key of ['scripts.desk.said_in', 'scripts.desk.undo_last', 'scripts.live.live'])
      expect(words[key], key).toBe(rawMessage('en', `staff.${key}`));
    expect(await door.page.locator('#desk-message').textContent()).toContain(
      staffText('scripts.desk.said_in', { label: 'Ada Lovelace' }),
    );
    expect(await door.page.locator('#desk-live').textContent()).toBe(words['scripts.live.live']);
    expect(await scansOf(regs.get('Ada')!.registrationId)).toBe(1);
    // The desk shows the verdict panel (amber: the waiver is not signed), with an Undo.
    await door.page.locator('#desk-panel[data-verdict="warning"]', { hasText: 'Ada Lovelace' }).waitFor();
    await door.page.getByRole('button', { name: 'Undo last check-in' }).waitFor();
    await screenshot(door.page, 'checkin-desk-3-desktop');
    await screenshot(gate.page, 'checkin-desk-4-phone-360');

    // Undo the last check-in: the scan is deleted and both feeds say so.
    await door.page.getByRole('button', { name: 'Undo last check-in' }).click();
    await gate.page.locator('#desk-feed li', { hasText: 'Ada Lovelace check-in undone' }).waitFor();
    expect(await scansOf(regs.get('Ada')!.registrationId)).toBe(0);
    expect(door.errors).toEqual([]);
    expect(gate.errors).toEqual([]);
  });

  it('decodes a QR code photo in the browser and checks its person in', async () => {
    const { rows } = await t.deps.db.execute<{ uuid: string }>(
      sql`SELECT uuid::text FROM registrations WHERE id = ${regs.get('Linus')!.registrationId}`,
    );
    const { page, errors } = await openDesk('door@desk.example', 'phone', 'checkin-desk-qr');
    await page.locator('#desk-photo').setInputFiles({
      name: 'ticket.png',
      mimeType: 'image/png',
      buffer: await qrPng(`muster://checkin/${rows[0]!.uuid}`),
    });
    await page.locator('#desk-feed li', { hasText: 'Linus Torvalds checked in' }).waitFor();
    await page.locator('#desk-panel', { hasText: 'Linus Torvalds · Event check-in' }).waitFor();
    expect(await scansOf(regs.get('Linus')!.registrationId)).toBe(1);
    // A ticket Muster does not know: a message, and the panel (with its Undo) stays Linus's.
    await page.locator('#desk-photo').setInputFiles({
      name: 'unknown.png',
      mimeType: 'image/png',
      buffer: await qrPng('muster://checkin/00000000-0000-4000-8000-000000000000'),
    });
    await page
      .locator('#desk-message', { hasText: 'Not checked in: Participant not found for this event.' })
      .waitFor();
    await page.locator('#desk-panel', { hasText: 'Linus Torvalds · Event check-in' }).waitFor();
    await page.getByRole('button', { name: 'Undo last check-in' }).waitFor();
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]); // the unknown ticket's 404 answer
  });

  it('reads a ticket shown to the camera (Chromium’s fake camera playing a QR code video)', async () => {
    const { rows } = await t.deps.db.execute<{ uuid: string }>(
      sql`SELECT uuid::text FROM registrations WHERE id = ${regs.get('Ada')!.registrationId}`,
    );
    const video = await qrVideo(`muster://checkin/${rows[0]!.uuid}`);
    const camera = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
    try {
      const { page, errors } = await openDesk('gate@desk.example', 'phone', 'checkin-desk-camera', camera);
      await page.getByRole('button', { name: 'Scan', exact: true }).click();
      await page
        .locator('#desk-feed li', { hasText: 'Ada Lovelace checked in (Event check-in) by Gate Staff' })
        .waitFor();
      // The desk learns whose ticket it was from the feed and says so.
      await page.locator('#desk-message', { hasText: 'Ada Lovelace: checked in.' }).waitFor();
      await screenshot(page, 'checkin-desk-7-camera-360');
      await page.getByRole('button', { name: 'Stop camera' }).click();
      expect(await scansOf(regs.get('Ada')!.registrationId)).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await camera.close();
    }
  });

  it('forgets the cached participant list and the queue on sign-out', async () => {
    const { page } = await openDesk('gate@desk.example', 'desktop', 'checkin-desk-signout');
    // A string: the tests are type-checked without the DOM library.
    const deskDatabases = () =>
      page.evaluate<string[]>(
        `(async () => (await indexedDB.databases()).map((d) => d.name).filter((n) => n && n.startsWith('muster-desk')))()`,
      );
    expect(await deskDatabases()).toHaveLength(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('h1', { hasText: 'Signed out' }).waitFor();
    expect(await deskDatabases()).toEqual([]);
  });

  it('keeps checking in offline and stores exactly three scans when the network returns', async () => {
    const { context, page } = await openDesk('door@desk.example', 'phone', 'checkin-desk-offline');
    await page.getByLabel('Scan context').selectOption({ label: 'Lunch' });
    await context.setOffline(true);
    await page.locator('#desk-net', { hasText: 'Offline' }).waitFor();
    await checkIn(page, 'brian', 'Brian Kernighan');
    await checkIn(page, 'hopper', 'Grace Hopper');
    await checkIn(page, 'margaret@desk', 'Margaret Hamilton');
    await page.locator('#desk-queue', { hasText: '3 scans waiting to be sent' }).waitFor();
    await expectAccessible(page, 'desk offline (360 px)');
    await screenshot(page, 'checkin-desk-5-offline-360');
    for (const name of ['Brian', 'Grace', 'Margaret'])
      expect(await scansOf(regs.get(name)!.registrationId)).toBe(0);

    await context.setOffline(false);
    await page.locator('#desk-queue', { hasText: '0 scans waiting to be sent' }).waitFor();
    await page.locator('#desk-net', { hasText: 'Online' }).waitFor();
    const ids = ['Brian', 'Grace', 'Margaret'].map((n) => regs.get(n)!.registrationId);
    const { rows } = await t.deps.db.execute<{ registration_id: number; scan_context_id: number }>(
      sql`SELECT registration_id, scan_context_id FROM scans WHERE registration_id IN (${sql.join(ids, sql`, `)})`,
    );
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => Number(r.scan_context_id))).toEqual([lunch, lunch, lunch]);
    await screenshot(page, 'checkin-desk-6-back-online-360');
  });
});
