/**
 * A 20,000-registration XLSX export read back with exceljs: every registration is one row, in id
 * order, with its values, and the audit entry counts 20,000 rows. Rows are seeded with two
 * set-based INSERTs. (Time and server memory of this export are measured by bench/scenarios/export.ts.)
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';

const N = 20_000;
let t: TestApp;
let eventId: number;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  ({ eventId, token } = await t.deps.db.transaction(async (tx) => {
    const series = await createSeries(tx, { name: 'Big Series', slug: 'big-series' });
    const event = await createEventRecord(tx, {
      seriesId: series.id,
      name: 'Big Event',
      slug: 'big-event',
      supportEmail: 'big@muster.example',
      startsAt: '2026-07-10T08:00:00Z',
      endsAt: '2026-07-12T17:00:00Z',
      setupComplete: true,
    });
    const admin = await createUser(tx, {
      email: 'big.admin@muster.test',
      name: 'Big Admin',
      globalAdmin: true,
    });
    return { eventId: event.id, token: (await issueMobileToken(tx, admin.id)).secret };
  }));
  const pool = t.deps.database.pool;
  await pool.query(
    `INSERT INTO people (email, legal_first_name, legal_last_name)
     SELECT 'p' || n || '@big.test', 'First' || n, 'Last' || n FROM generate_series(1, $1) n`,
    [N],
  );
  await pool.query(
    `INSERT INTO registrations (event_id, person_id, status)
     SELECT $1, p.id, CASE WHEN p.id % 2 = 0 THEN 'complete' ELSE 'invited' END
       FROM people p WHERE p.email LIKE '%@big.test' ORDER BY p.id`,
    [eventId],
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
});

it('exports 20,000 registrations as XLSX that exceljs reads back whole', async () => {
  const res = await t.app.inject({
    url: `/api/v1/events/${eventId}/exports/roster.xlsx`,
    headers: bearer(token),
  });
  expect(res.statusCode).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = book.getWorksheet('Roster')!;
  expect(sheet.rowCount).toBe(N + 1);
  expect((sheet.getRow(1).values as unknown[]).slice(1, 7)).toEqual([
    'Registration no.',
    'First name',
    'Last name',
    'Preferred name',
    'Email',
    'Registration status',
  ]);
  const { rows } = await t.deps.database.pool.query<{ id: number; email: string }>(
    `SELECT r.id, p.email FROM registrations r JOIN people p ON p.id = r.person_id WHERE r.event_id = $1 ORDER BY r.id`,
    [eventId],
  );
  const ids: number[] = [];
  sheet.eachRow((row, i) => {
    if (i > 1) ids.push(row.getCell(1).value as number);
  });
  expect(ids).toEqual(rows.map((r) => r.id));
  const last = sheet.getRow(N + 1);
  expect(last.getCell(5).value).toBe(rows.at(-1)!.email);
  expect(last.getCell(7).value).toBe(false);
  const audit = await t.deps.database.pool.query(
    `SELECT metadata FROM audit_log WHERE action = 'exports.create' AND event_id = $1`,
    [eventId],
  );
  expect(audit.rows).toEqual([
    { metadata: { preset: 'roster', format: 'xlsx', row_count: N, filters: {}, completed: true } },
  ]);
}, 180_000);
