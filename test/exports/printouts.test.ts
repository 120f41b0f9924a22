/**
 * Printouts (docs/exports.md "Printouts") over HTTP against the real database, read back with
 * pdf-parse: badges name the right people and their QR code (rendered to an image and decoded by
 * zxing-wasm) is the registration UUID; the door list is sorted by last name with letter headings
 * and alerts in words; medical cards and the emergency sheet are for safeguarding leads and global
 * admins only (403 for everyone else, nothing audited); a limited user's PDFs hold no phone, date
 * of birth or address; every printout is audited like an export.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type PrincipalName, type World } from '../support/world.js';
import { getPage, signedInBrowser } from '../web/support.js';
import { limitedSecrets } from './support.js';

const require = createRequire(import.meta.url);
let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function pdf(principal: PrincipalName, file: string) {
  return t.app.inject({
    url: `/api/v1/events/${world.events.A.id}/exports/${file}`,
    headers: bearer(world.secrets[principal]),
  });
}

async function textOf(body: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

async function ok(principal: PrincipalName, file: string): Promise<{ body: Buffer; text: string }> {
  const res = await pdf(principal, file);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="summit-alpha-[a-z_]+\.pdf"$/);
  return { body: res.rawPayload, text: await textOf(res.rawPayload) };
}

const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('printouts', () => {
  it('badges: complete registrations by default, name, full name and pronouns; status=all widens', async () => {
    const { text } = await ok('eventAdmin', 'badges.pdf');
    expect(text).toContain('Ali');
    expect(text).toContain('Alice Anderson');
    expect(text).toContain('they/them');
    expect(text).toContain('Summit Alpha');
    for (const other of ['Max Minor', 'Wanda', 'Rex']) expect(text).not.toContain(other);
    const all = await ok('eventAdmin', 'badges.pdf?status=all');
    for (const name of ['Alice Anderson', 'Max Minor', 'Wanda Withdrawn', 'Rex Rejected'])
      expect(all.text).toContain(name);
  });

  it('a badge’s QR code decodes to the registration UUID', async () => {
    const { body } = await ok('eventAdmin', 'badges.pdf?layout=label-4x3');
    const parser = new PDFParse({ data: new Uint8Array(body) });
    const shot = await parser.getScreenshot({
      partial: [1],
      scale: 3,
      imageBuffer: true,
      imageDataUrl: false,
    });
    await parser.destroy();
    const reader = await import('zxing-wasm/reader');
    reader.prepareZXingModule({
      overrides: { wasmBinary: readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm')) },
      fireImmediately: true,
    });
    const found = await reader.readBarcodes(shot.pages[0]!.data, { formats: ['QRCode'] });
    const { rows } = await t.deps.database.pool.query(`SELECT uuid FROM registrations WHERE id = $1`, [
      world.regs.adultA.id,
    ]);
    expect(found.map((r) => r.text)).toEqual([rows[0].uuid]);
  }, 120_000);

  it('badge layouts: A4 sheets, US Letter, label sizes', async () => {
    const sizes: Record<string, string> = {
      a4: '/MediaBox [0 0 595.28 841.89]',
      letter: '/MediaBox [0 0 612 792]',
      'label-4x3': '/MediaBox [0 0 288 216]',
    };
    for (const [layout, box] of Object.entries(sizes)) {
      const { body } = await ok('ops', `badges.pdf?layout=${layout}`);
      expect(body.toString('latin1'), layout).toContain(box);
    }
    const bad = await pdf('ops', 'badges.pdf?layout=a3');
    expect(bad.statusCode).toBe(422);
  });

  it('door list: by last name with letter headings, status, under 18, alerts in words, per scan context', async () => {
    const { text } = await ok('limited', `door_list.pdf?status=all&scan_context=${world.contexts.checkInA}`);
    const flatText = flat(text);
    expect(flatText).toContain('Door list:');
    const order = ['Anderson, Alice (Ali)', 'Minor, Max', 'Rejected, Rex', 'Withdrawn, Wanda'].map((n) =>
      flatText.indexOf(n),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const letter of ['A', 'M', 'R', 'W']) expect(text).toMatch(new RegExp(`^${letter}$`, 'm'));
    expect(flatText).toContain('Waiting for a parent or guardian to complete the form');
    expect(flatText).toContain('Registration withdrawn');
    expect(flatText).toContain('Medical alert: ask the safeguarding lead');
    expect(flatText).toContain('Scanned here');
    // Alice was checked in at 09:00 UTC: 10:00 in London.
    expect(flatText).toContain('2026-07-10 10:00');
    const bad = await pdf('limited', 'door_list.pdf?scan_context=999999');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: 'Unknown scan context for this event' });
  });

  it('medical cards and the emergency sheet: 403 for everyone but safeguarding leads and global admins, nothing audited', async () => {
    const browser = await signedInBrowser(t.deps, world.users.ops.id);
    const before = await snapshotDb(t.deps);
    for (const p of ['eventAdmin', 'ops', 'limited', 'seriesOwner', 'seriesOrganizer'] as const) {
      for (const file of ['medical_cards.pdf', 'emergency_sheet.pdf']) {
        const res = await pdf(p, file);
        expect(res.statusCode, `${p} ${file}`).toBe(403);
        expect(res.json()).toEqual({ error: 'This export needs access to medical and safeguarding data' });
      }
    }
    const page = await getPage(
      t.app,
      browser,
      `/staff/events/${world.events.A.id}/exports/medical_cards.pdf`,
    );
    expect(page.statusCode).toBe(403);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('medical cards for a safeguarding lead: allergies, action plan, contacts, guardians', async () => {
    for (const p of ['safeguarding', 'admin'] as const) {
      const { text } = await ok(p, 'medical_cards.pdf?status=all');
      const f = flat(text);
      expect(f).toContain('Anderson, Alice (Ali)');
      expect(f).toContain('Peanuts');
      expect(f).toContain('EpiPen then 999');
      expect(f).toContain('Andy Anderson (brother): +447700900001');
      expect(f).toContain('ANAPHYLAXIS RISK');
      expect(f).toContain('Minor, Max');
      expect(f).toContain('Parents and guardians');
    }
  });

  it('emergency sheet for a group (a trip): only its members, with contacts', async () => {
    const { rows } = await t.deps.database.pool.query(
      `INSERT INTO groups (event_id, name, color) VALUES ($1, 'Bus 1', '#225588') RETURNING id`,
      [world.events.A.id],
    );
    await t.deps.database.pool.query(
      `INSERT INTO registration_groups (registration_id, group_id) VALUES ($1, $2)`,
      [world.regs.minorA.id, rows[0].id],
    );
    const { text } = await ok('safeguarding', `emergency_sheet.pdf?status=all&group=${rows[0].id}`);
    const f = flat(text);
    expect(f).toContain('Emergency contacts: Bus 1');
    expect(f).toContain('Minor, Max');
    expect(f).not.toContain('Anderson, Alice');
    const badges = await ok('ops', `badges.pdf?status=all&group=${rows[0].id}`);
    expect(badges.text).toContain('Bus 1');
    expect(badges.text).toContain('Max Minor');
  });

  it('a limited user’s PDFs hold no phone, date of birth or address', async () => {
    const secrets = await limitedSecrets(t, world.events.A.id);
    expect(secrets.length).toBeGreaterThan(8);
    for (const file of ['badges.pdf?status=all', 'door_list.pdf?status=all']) {
      const { text } = await ok('limited', file);
      for (const s of secrets) expect(flat(text), file).not.toContain(s);
    }
  });

  it('every printout is audited like an export', async () => {
    await ok('safeguarding', 'emergency_sheet.pdf');
    const { rows } = await t.deps.database.pool.query(
      `SELECT actor_user_id, metadata FROM audit_log WHERE action = 'exports.create' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]).toEqual({
      actor_user_id: world.users.safeguarding.id,
      metadata: {
        preset: 'emergency_sheet',
        format: 'pdf',
        row_count: 1,
        filters: { status: ['complete'] },
        completed: true,
      },
    });
    const csv = await pdf('admin', 'badges.csv');
    expect(csv.statusCode).toBe(404);
    expect(csv.json()).toEqual({ error: 'The badges export is available as PDF only' });
  });
});
