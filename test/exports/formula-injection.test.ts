/**
 * CSV formula injection (docs/exports.md "CSV"): values holding bare LF, bare CR, CRLF, quotes and
 * each formula character, planted in every text field the exports carry (one of them by the
 * participant through their own PATCH, as an attacker would), then every spreadsheet preset
 * downloaded as CSV from the API and from the Exports page and read back the way a spreadsheet
 * reads it: no row has more or fewer records than an RFC 4180 reader finds, and no cell starts a
 * formula. A phone number stays a phone number and round-trips unchanged through a CSV parser.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESET_NAMES, PRESETS } from '../../src/modules/exports/presets.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type PrincipalName, type World } from '../support/world.js';
import { getPage, signedInBrowser } from '../web/support.js';
import { formulaCells, PLANTED, spreadsheetRows } from './support.js';

let t: TestApp;
let world: World;
const SHEETS = PRESET_NAMES.filter((p) => PRESETS[p].formats.includes('csv'));

async function plant(): Promise<void> {
  const q = (text: string, values: unknown[]) => t.deps.database.pool.query(text, values);
  const v = (i: number) => PLANTED[i % PLANTED.length]!;
  for (const reg of [world.regs.adultA, world.regs.minorA]) {
    const id = reg.id;
    await q(
      `UPDATE people SET preferred_name = $2, pronouns = $3, address = jsonb_build_object('line_1', $4::text, 'city', 'London') WHERE id = $1`,
      [reg.personId, v(0), v(1), v(2)],
    );
    await q(`UPDATE registrations SET tshirt_size = $2 WHERE id = $1`, [id, v(3)]);
    await q(
      `INSERT INTO registration_medical (registration_id, medical_conditions, medications, emergency_action_plan, additional_notes, allergy_severity, life_threatening_allergies)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (registration_id) DO UPDATE SET medical_conditions = $2,
       medications = $3, emergency_action_plan = $4, additional_notes = $5, allergy_severity = $6, life_threatening_allergies = $7`,
      [id, v(4), v(5), v(6), v(7), v(8), v(9)],
    );
    await q(
      `INSERT INTO registration_dietary (registration_id, diet_type, intolerances, notes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (registration_id) DO UPDATE SET diet_type = $2, intolerances = $3, notes = $4`,
      [id, v(10), v(11), v(0)],
    );
    await q(
      `INSERT INTO registration_accommodations (registration_id, notes, venue_name, roommate_preferences, accessibility_needs, assigned_room, gender_identity)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (registration_id) DO UPDATE SET notes = $2, venue_name = $3,
       roommate_preferences = $4, accessibility_needs = $5, assigned_room = $6, gender_identity = $7`,
      [id, v(1), v(2), v(3), v(4), v(5), v(6)],
    );
    await q(
      `INSERT INTO registration_safeguarding (registration_id, high_support_notes, authorized_pickup_adults, other_instructions)
       VALUES ($1, $2, $3, $4) ON CONFLICT (registration_id) DO UPDATE SET high_support_notes = $2,
       authorized_pickup_adults = $3, other_instructions = $4`,
      [id, v(7), v(8), v(9)],
    );
    await q(`UPDATE guardians SET name = $2, relationship = $3, email = $4 WHERE registration_id = $1`, [
      id,
      v(10),
      v(11),
      v(5),
    ]);
    await q(`UPDATE emergency_contacts SET name = $2 WHERE registration_id = $1`, [id, v(6)]);
    await q(
      `UPDATE travels SET notes = $2, carrier = $3, origin_address = $4, departure_city = $5 WHERE registration_id = $1`,
      [id, v(0), v(1), v(2), v(3)],
    );
  }
  // A phone that is not E.164 (typed before phones were normalised) is text like any other.
  await q(`UPDATE people SET phone = $2 WHERE id = $1`, [world.regs.minorA.personId, '=2+2']);
  const { rows } = await q(`INSERT INTO groups (event_id, name) VALUES ($1, $2) RETURNING id`, [
    world.events.A.id,
    '@group\n=1',
  ]);
  await q(`INSERT INTO registration_groups (registration_id, group_id) VALUES ($1, $2)`, [
    world.regs.adultA.id,
    rows[0].id,
  ]);
}

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
  await plant();
  // The attack of the report: the participant plants a formula after a line feed in their own record.
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/api/v1/registrations/${world.regs.adultA.id}`,
    headers: bearer(world.secrets.participant),
    payload: { allergies: "peanuts\n=cmd|' /C calc'!A0" },
  });
  expect(res.statusCode, res.body).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

function check(body: string, label: string): string[][] {
  expect(body.charCodeAt(0), label).toBe(0xfeff);
  const text = body.slice(1);
  const rfc = parse(text, { relax_column_count: false }) as string[][];
  const sheet = spreadsheetRows(text);
  expect(sheet.length, `${label}: a line end inside a value split a row`).toBe(rfc.length);
  expect(sheet, label).toEqual(rfc);
  expect(formulaCells(sheet), label).toEqual([]);
  return rfc;
}

describe('CSV formula injection', () => {
  it('the planted values are in the files, quoted, and no cell starts a formula (API, every preset)', async () => {
    const seen = new Set<string>();
    for (const principal of ['admin', 'safeguarding', 'limited', 'ops'] as PrincipalName[]) {
      for (const preset of SHEETS) {
        for (const query of ['?status=all', '?status=all&headers=keys']) {
          const res = await t.app.inject({
            url: `/api/v1/events/${world.events.A.id}/exports/${preset}.csv${query}`,
            headers: bearer(world.secrets[principal]),
          });
          if (res.statusCode === 403) continue;
          expect(res.statusCode, `${principal} ${preset}`).toBe(200);
          for (const cell of check(res.body, `${principal} ${preset}${query}`).flat()) seen.add(cell);
        }
      }
    }
    // The participant's value arrives whole in one cell (its line feed inside the quotes).
    expect(seen).toContain("peanuts\n=cmd|' /C calc'!A0");
    expect(seen).toContain('\'=HYPERLINK("http://x")');
    expect(seen).toContain("'@SUM(A1)");
    expect(seen).toContain("'\t=1+1");
    expect(seen).toContain("'\r=2+2");
    expect(seen).toContain("'-10+20");
    expect(seen).toContain("'+44 cmd");
    expect(seen).toContain('pollen\r\n+SUM(1,2)');
    expect(seen).toContain("'=2+2");
    expect(seen).toContain('say "hi", then\n-2+3');
  }, 300_000);

  it('from the Exports page with the session cookie, every preset the same way', async () => {
    for (const user of ['safeguarding', 'limited'] as const) {
      const browser = await signedInBrowser(t.deps, world.users[user].id);
      for (const preset of SHEETS) {
        const res = await getPage(
          t.app,
          browser,
          `/staff/events/${world.events.A.id}/exports/${preset}.csv?status=all`,
        );
        if (res.statusCode === 403) continue;
        expect(res.statusCode, `${user} ${preset}`).toBe(200);
        check(res.body, `page ${user} ${preset}`);
      }
    }
  }, 300_000);

  it('a phone number round-trips unchanged through a CSV parser', async () => {
    const res = await t.app.inject({
      url: `/api/v1/events/${world.events.A.id}/exports/emergency_contacts.csv`,
      headers: bearer(world.secrets.safeguarding),
    });
    const rows = check(res.body, 'emergency contacts');
    const phone = rows[0]!.indexOf('Phone');
    const alice = rows.find((r) => Number(r[0]) === world.regs.adultA.id)!;
    const { rows: stored } = await t.deps.database.pool.query(`SELECT phone FROM people WHERE id = $1`, [
      world.regs.adultA.personId,
    ]);
    expect(stored[0].phone).toMatch(/^\+44[0-9]+$/);
    expect(alice[phone]).toBe(stored[0].phone);
    expect(rows[0]!.indexOf('Guardian phone')).toBeGreaterThan(0);
  });
});
