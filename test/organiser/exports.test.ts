/**
 * Participant exports over HTTP against the real database: the caller's visibility decides the
 * columns (PII hidden from `limited`, sensitive only for safeguarding leads and global admins),
 * closed presets are 403 with nothing audited, CSV carries a BOM and escapes formula cells, the
 * travel preset has one row per leg, filters narrow the rows, and every export is audited.
 */
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type PrincipalName, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  // A name a spreadsheet would run as a formula.
  await t.deps.database.pool.query(
    `UPDATE people SET preferred_name = '=HYPERLINK("http://x")' WHERE id = $1`,
    [world.regs.minorA.personId],
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
});

function exportUrl(preset: string, format: 'csv' | 'xlsx', query = '') {
  return `/api/v1/events/${world.events.A.id}/exports/${preset}.${format}${query}`;
}

/** A CSV with machine headers (`headers=keys`) unless `words`. */
async function csv(principal: PrincipalName, preset: string, query = '', words = false) {
  const sep = query ? '&' : '?';
  const res = await app.inject({
    url: exportUrl(preset, 'csv', words ? query : `${query}${sep}headers=keys`),
    headers: bearer(world.secrets[principal]),
  });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.body.startsWith('\uFEFF')).toBe(true);
  const rows = parse(res.body.slice(1)) as string[][];
  return { res, headers: rows[0]!, rows: rows.slice(1) };
}

async function exportsAudited(): Promise<{ metadata: Record<string, unknown>; actor_user_id: number }[]> {
  const { rows } = await t.deps.database.pool.query(
    `SELECT metadata, actor_user_id FROM audit_log WHERE action = 'exports.create' ORDER BY id`,
  );
  return rows;
}

const PII = ['phone', 'date_of_birth', 'address', 'origin_address'];
const SENSITIVE = [
  'allergies',
  'medical_conditions',
  'medications',
  'emergency_action_plan',
  'diet_type',
  'emergency_contacts',
  'guardian_phone',
  'high_support_notes',
];

describe('exports', () => {
  it('roster: name, email, status, checked in, for every registration of the event', async () => {
    const { res, headers, rows } = await csv('ops', 'roster');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="summit-alpha-roster.csv"');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(headers).toEqual([
      'participant_event_id',
      'first_name',
      'last_name',
      'preferred_name',
      'email',
      'status',
      'checked_in',
      'checked_in_at',
    ]);
    const { rows: regs } = await t.deps.database.pool.query(
      'SELECT id FROM registrations WHERE event_id = $1 ORDER BY id',
      [world.events.A.id],
    );
    expect(rows.map((r) => Number(r[0]))).toEqual(regs.map((r) => r.id));
    const alice = rows.find((r) => Number(r[0]) === world.regs.adultA.id)!;
    expect(alice.slice(1, 7)).toEqual([
      'Alice',
      'Anderson',
      'Ali',
      'alice.anderson@example.com',
      'complete',
      'yes',
    ]);
    expect(alice[7]).toBe('2026-07-10T09:00:00Z');
  });

  it('in words by default: headers, Yes/No, times in the event’s time zone', async () => {
    const { headers, rows } = await csv('ops', 'roster', '', true);
    expect(headers).toEqual([
      'Registration no.',
      'First name',
      'Last name',
      'Preferred name',
      'Email',
      'Registration status',
      'Checked in',
      'Checked in at',
    ]);
    const alice = rows.find((r) => Number(r[0]) === world.regs.adultA.id)!;
    // 09:00 UTC on 10 July is 10:00 in London (BST).
    expect(alice.slice(6)).toEqual(['Yes', '2026-07-10 10:00']);
    const max = rows.find((r) => Number(r[0]) === world.regs.minorA.id)!;
    expect(max.slice(6)).toEqual(['No', '']);
  });

  it('escapes cells a spreadsheet would run as formulas', async () => {
    const { rows } = await csv('eventAdmin', 'roster');
    const minor = rows.find((r) => Number(r[0]) === world.regs.minorA.id)!;
    expect(minor[3]).toBe(`'=HYPERLINK("http://x")`);
  });

  it('a limited user’s full export has no PII and no sensitive column', async () => {
    const { headers, rows } = await csv('limited', 'full');
    for (const h of [...PII, ...SENSITIVE]) expect(headers).not.toContain(h);
    expect(headers).toContain('assigned_room');
    expect(rows.length).toBeGreaterThan(0);
  });

  it('ops sees PII but not sensitive columns; a safeguarding lead sees both', async () => {
    const ops = await csv('ops', 'full');
    expect(ops.headers).toContain('phone');
    for (const h of SENSITIVE) expect(ops.headers).not.toContain(h);
    const lead = await csv('safeguarding', 'full');
    for (const h of [...PII, 'allergies', 'emergency_contacts', 'high_support_notes']) {
      if (h !== 'origin_address') expect(lead.headers).toContain(h);
    }
  });

  it('medical: 403 for ops, a series owner and limited, and nothing is audited', async () => {
    const before = await snapshotDb(t.deps);
    for (const p of ['ops', 'seriesOwner', 'limited', 'eventAdmin'] as const) {
      for (const preset of ['medical', 'emergency_contacts', 'dietary']) {
        for (const format of ['csv', 'xlsx'] as const) {
          const res = await app.inject({ url: exportUrl(preset, format), headers: bearer(world.secrets[p]) });
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual({ error: 'This export needs access to medical and safeguarding data' });
        }
      }
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('medical for a safeguarding lead: allergies, action plan and contacts; audited with the row count', async () => {
    const before = (await exportsAudited()).length;
    const { headers, rows } = await csv('safeguarding', 'medical', '?status=complete');
    const alice = rows.find((r) => Number(r[0]) === world.regs.adultA.id)!;
    const cell = (h: string) => alice[headers.indexOf(h)];
    expect(cell('allergies')).toBe('Peanuts');
    expect(cell('emergency_action_plan')).toBe('EpiPen then 999');
    expect(cell('emergency_contacts')).toContain('Andy Anderson (brother): +447700900001');
    expect(rows.every((r) => r.length === headers.length)).toBe(true);
    const audited = await exportsAudited();
    expect(audited).toHaveLength(before + 1);
    expect(audited.at(-1)).toEqual({
      actor_user_id: world.users.safeguarding.id,
      metadata: {
        preset: 'medical',
        format: 'csv',
        row_count: rows.length,
        filters: { status: ['complete'] },
        completed: true,
      },
    });
  });

  it('travel: one row per leg with the pickup state', async () => {
    const { headers, rows } = await csv('eventAdmin', 'travel');
    const alice = rows.filter((r) => Number(r[0]) === world.regs.adultA.id);
    const col = (r: string[], h: string) => r[headers.indexOf(h)];
    expect(alice.map((r) => [col(r, 'direction'), col(r, 'leg'), col(r, 'flight_code')])).toEqual([
      ['inbound', '1', 'TA100'],
      ['inbound', '2', 'TA200'],
      ['outbound', '', ''],
    ]);
    expect(alice.map((r) => col(r, 'pickup_state'))).toEqual(['collected', 'collected', '']);
    expect(col(alice[0]!, 'origin_address')).toBe('1 Beacon St, Boston MA');
    const limited = await csv('limited', 'travel');
    expect(limited.headers).not.toContain('origin_address');
  });

  it('filters: status, minor and checked_in; an unknown status is 422', async () => {
    const minors = await csv('eventAdmin', 'roster', '?minor=true');
    expect(minors.rows.map((r) => Number(r[0]))).toEqual([world.regs.minorA.id]);
    const checked = await csv('eventAdmin', 'roster', '?checked_in=true');
    expect(checked.rows.map((r) => Number(r[0]))).toEqual([world.regs.adultA.id]);
    const withdrawn = await csv('eventAdmin', 'roster', '?status=withdrawn,rejected');
    expect(withdrawn.rows.map((r) => r[5]).sort()).toEqual(['rejected', 'withdrawn']);
    const bad = await app.inject({
      url: exportUrl('roster', 'csv', '?status=complete,bogus'),
      headers: bearer(world.secrets.eventAdmin),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: 'Unknown status: bogus' });
    const unknown = await app.inject({ url: exportUrl('nope', 'csv'), headers: bearer(world.secrets.admin) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Export preset not found' });
  });

  it('medical, dietary and emergency lists: complete registrations by name, status column, widened by status=all', async () => {
    const medical = await csv('safeguarding', 'medical');
    const status = medical.headers.indexOf('status');
    expect(medical.rows.map((r) => r[status])).toEqual(['complete']);
    const all = await csv('safeguarding', 'emergency_contacts', '?status=all');
    expect(all.rows.map((r) => r[2])).toEqual(['Anderson', 'Minor', 'Rejected', 'Withdrawn']);
    expect(all.rows.map((r) => r[all.headers.indexOf('status')])).toEqual([
      'complete',
      'awaiting_guardian',
      'rejected',
      'withdrawn',
    ]);
    const audited = await exportsAudited();
    expect(audited.at(-2)!.metadata.filters).toEqual({ status: ['complete'] });
    expect(audited.at(-1)!.metadata.filters).toEqual({});
  });

  it('XLSX: one sheet named after the preset, header row, typed cells', async () => {
    const res = await app.inject({ url: exportUrl('dietary', 'xlsx'), headers: bearer(world.secrets.admin) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Dietary')!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(headers).toContain('Diet');
    const aliceRow = sheet
      .getRows(2, sheet.rowCount - 1)!
      .find((r) => Number(r.getCell(1).value) === world.regs.adultA.id)!;
    expect(aliceRow.getCell(headers.indexOf('Diet') + 1).value).toBe('vegetarian');
  });
});
