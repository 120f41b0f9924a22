/**
 * XLSX exports read back with exceljs (docs/exports.md "XLSX"): for every spreadsheet preset a sheet
 * named after it with a bold, frozen header row, an autofilter over the header and column widths,
 * and an "About" sheet; typed cells (a date is a Date showing the event's wall-clock time, a
 * boolean a boolean, a number a number; no preset leaves a date or a yes/no as text); the catering
 * summary counts without names; a limited user's files (CSV and XLSX) hold no phone (theirs,
 * guardians', emergency contacts'), date of birth or address.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESET_NAMES, PRESETS } from '../../src/modules/exports/presets.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type PrincipalName, type World } from '../support/world.js';
import { limitedSecrets } from './support.js';

let t: TestApp;
let world: World;
const SHEETS = PRESET_NAMES.filter((p) => PRESETS[p].formats.includes('xlsx'));

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function download(principal: PrincipalName, file: string) {
  return t.app.inject({
    url: `/api/v1/events/${world.events.A.id}/exports/${file}`,
    headers: bearer(world.secrets[principal]),
  });
}

async function book(principal: PrincipalName, file: string): Promise<ExcelJS.Workbook> {
  const res = await download(principal, file);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return wb;
}

const headerOf = (sheet: ExcelJS.Worksheet) => (sheet.getRow(1).values as unknown[]).slice(1) as string[];

function rowOf(sheet: ExcelJS.Worksheet, regId: number): Record<string, unknown> {
  const headers = headerOf(sheet);
  for (let i = 2; i <= sheet.rowCount; i++) {
    const row = sheet.getRow(i);
    if (row.getCell(1).value === regId)
      return Object.fromEntries(headers.map((h, j) => [h, row.getCell(j + 1).value]));
  }
  throw new Error(`registration ${regId} not in ${sheet.name}`);
}

describe('XLSX exports', () => {
  it.each(SHEETS)('%s: named sheet, bold frozen header, autofilter, widths, About sheet', async (preset) => {
    const wb = await book('admin', `${preset}.xlsx?status=all`);
    const sheet = wb.getWorksheet(PRESETS[preset].label)!;
    expect(sheet, `sheet ${PRESETS[preset].label}`).toBeDefined();
    const headers = headerOf(sheet);
    expect(headers.length).toBeGreaterThan(2);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const last = sheet
      .getRow(1)
      .getCell(headers.length)
      .address.replace(/[0-9]+$/, '');
    expect(sheet.autoFilter).toBe(`A1:${last}1`);
    for (let c = 1; c <= headers.length; c++) {
      expect(sheet.getRow(1).getCell(c).font?.bold, `${preset} header ${c} bold`).toBe(true);
      expect(sheet.getColumn(c).width ?? 0).toBeGreaterThanOrEqual(6);
    }
    // Typed cells in every preset: a date, time, yes/no or number column never holds text.
    const typeOf = new Map(PRESETS[preset].columns.map((c) => [c.label, c.type]));
    for (let r = 2; r <= sheet.rowCount; r++)
      sheet.getRow(r).eachCell((cell, col) => {
        const type = typeOf.get(headers[col - 1]!);
        if (type && type !== 'text' && type !== 'phone')
          expect(typeof cell.value, `${preset} ${cell.address} (${type})`).not.toBe('string');
      });
    const about = wb.getWorksheet('About')!;
    const lines = Object.fromEntries(
      about
        .getSheetValues()
        .slice(1)
        .map((r) => [(r as unknown[])[1], (r as unknown[])[2]]),
    );
    expect(lines.Event).toBe('Summit Alpha');
    expect(lines.Export).toBe(`${PRESETS[preset].label} (XLSX)`);
    expect(lines['Exported by']).toBe(`${world.users.admin.name} <${world.users.admin.email}>`);
    expect(lines['Exported at']).toBeInstanceOf(Date);
    expect(lines['Registration status']).toBe('Any');
    expect(lines.Rows).toBe(sheet.rowCount - 1);
  });

  it('typed cells: numbers, booleans, dates and times in the event’s time zone', async () => {
    const wb = await book('admin', 'full.xlsx');
    const alice = rowOf(wb.getWorksheet('Everything')!, world.regs.adultA.id);
    expect(alice['Registration no.']).toBe(world.regs.adultA.id);
    expect(alice['Checked in']).toBe(true);
    expect(alice['Waiver signed']).toBe(true);
    expect(alice['Under 18']).toBe(false);
    expect(typeof alice.Age).toBe('number');
    // First check-in 2026-07-10T09:00:00Z is 10:00 in London (BST): the cell shows 10:00.
    const at = alice['Checked in at'] as Date;
    expect(at).toBeInstanceOf(Date);
    expect(at.toISOString()).toBe('2026-07-10T10:00:00.000Z');
    expect((alice['Date of birth'] as Date).toISOString()).toBe('1990-04-01T00:00:00.000Z');
    const { rows } = await t.deps.database.pool.query(`SELECT phone FROM people WHERE id = $1`, [
      world.regs.adultA.personId,
    ]);
    // A phone is a text cell holding the stored E.164 number: Excel shows it unchanged.
    expect(alice.Phone).toBe(rows[0].phone);
    const max = rowOf(wb.getWorksheet('Everything')!, world.regs.minorA.id);
    expect(max['Checked in']).toBe(false);
    expect(max['Checked in at']).toBeNull();
    expect(max['Under 18']).toBe(true);
  });

  it('headers=keys keeps the machine names', async () => {
    const wb = await book('ops', 'roster.xlsx?headers=keys');
    expect(headerOf(wb.getWorksheet('Roster')!).slice(0, 3)).toEqual([
      'participant_event_id',
      'first_name',
      'last_name',
    ]);
  });

  it('catering: counts by diet, intolerances and risk flags, per day, without names', async () => {
    for (const principal of ['ops', 'eventAdmin', 'limited'] as const) {
      const wb = await book(principal, 'catering.xlsx?status=all');
      const sheet = wb.getWorksheet('Catering summary')!;
      const headers = headerOf(sheet);
      expect(headers.slice(0, 3)).toEqual(['What', 'Item', 'Total']);
      // Event A runs 10–14 July (London): one column per day.
      expect(headers.slice(3)).toEqual([
        '2026-07-10',
        '2026-07-11',
        '2026-07-12',
        '2026-07-13',
        '2026-07-14',
      ]);
      const rows = sheet
        .getSheetValues()
        .slice(2)
        .map((r) => (r as unknown[]).slice(1));
      const text = JSON.stringify(rows);
      for (const name of ['Alice', 'Anderson', 'Max', 'Minor', 'Wanda']) expect(text).not.toContain(name);
      const find = (what: string, item: string) => rows.find((r) => r[0] === what && r[1] === item);
      expect(find('People', 'Registrations counted')?.[2]).toBe(4);
      expect(find('Diet', 'Vegetarian')?.[2]).toBeGreaterThanOrEqual(1);
      expect(find('Allergy risk', 'Anaphylaxis risk')?.[2]).toBeGreaterThanOrEqual(1);
      for (const r of rows) for (const n of r.slice(2)) expect(typeof n).toBe('number');
    }
  });

  it('a limited user’s CSV and XLSX files hold no phone, date of birth or address', async () => {
    const secrets = await limitedSecrets(t, world.events.A.id);
    // Person, guardian and emergency-contact phones, dates of birth, addresses, travel origins.
    expect(secrets.length).toBeGreaterThan(8);
    let files = 0;
    for (const preset of SHEETS) {
      for (const format of ['csv', 'xlsx'] as const) {
        const res = await download('limited', `${preset}.${format}?status=all`);
        if (res.statusCode === 403) continue;
        files++;
        let text = res.body;
        if (format === 'xlsx') {
          const wb = new ExcelJS.Workbook();
          await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
          text = JSON.stringify(wb.worksheets.map((s) => s.getSheetValues()));
        }
        for (const secret of secrets) expect(text, `${preset}.${format}`).not.toContain(secret);
      }
    }
    expect(files).toBe(10);
  });
});
