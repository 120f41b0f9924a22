/**
 * Phone numbers (docs/participant-record.md "Phone numbers"): normalised to E.164 on write with the
 * event's country as the default region, refused with a plain 422 when not a number, shown in
 * international format, found by any run of digits (only by callers who may see phones), and
 * stored numbers from before brought to E.164 at start-up with the original kept in the audit.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPhone, normalisePhone, phoneSearchDigits, regionOf } from '../../src/lib/phone.js';
import { normaliseStoredPhones } from '../../src/modules/participants/phone-backfill.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

describe('lib/phone', () => {
  it('reads a number with the event’s country as the default region', () => {
    expect(normalisePhone('+44 7700 900123', 'GB')).toBe('+447700900123');
    expect(normalisePhone('07700 900123', 'GB')).toBe('+447700900123');
    expect(normalisePhone('(020) 7946-0958', 'GB')).toBe('+442079460958');
    expect(normalisePhone('+1 202 555 0143', 'GB')).toBe('+12025550143');
    expect(normalisePhone('07700 900123', null)).toBeNull();
    expect(normalisePhone('12', 'GB')).toBeNull();
    expect(normalisePhone('call me', 'GB')).toBeNull();
    expect(normalisePhone('+44 7700 900123 ext', 'GB')).toBeNull();
  });
  it('turns the event’s country into a region, shows numbers in international format', () => {
    expect(regionOf('United Kingdom')).toBe('GB');
    expect(regionOf('gb')).toBe('GB');
    expect(regionOf('France')).toBe('FR');
    expect(regionOf('Atlantis')).toBeNull();
    expect(regionOf(null)).toBeNull();
    expect(formatPhone('+447700900123')).toBe('+44 7700 900123');
    expect(formatPhone('typed as is')).toBe('typed as is');
  });
  it('gives the digit runs a search term may match', () => {
    expect(phoneSearchDigits('07700 900123', 'GB')).toEqual(['07700900123', '7700900123']);
    expect(phoneSearchDigits('7700900123', 'GB')).toContain('7700900123');
    expect(phoneSearchDigits('Ada', 'GB')).toEqual([]);
    expect(phoneSearchDigits('12', 'GB')).toEqual([]);
  });
});

describe('phones over HTTP', () => {
  let t: TestApp;
  let world: World;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    world = await buildWorld(t.deps);
    await t.deps.db.execute(
      sql`UPDATE events SET location_country = 'United Kingdom' WHERE id = ${world.events.A.id}`,
    );
    base = `/api/v1/events/${world.events.A.id}/participants`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: 'GET' | 'PATCH', url: string, token: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  const storedPhone = async () =>
    (
      await t.deps.db.execute<{ phone: string }>(
        sql`SELECT phone FROM people WHERE id = ${world.regs.adultA.personId}`,
      )
    ).rows[0]!.phone;

  it('a staff edit stores a national number as E.164 (event country GB)', async () => {
    const res = await call('PATCH', `${base}/${world.regs.adultA.id}`, world.users.eventAdmin.mobile, {
      phone: '07700 900123',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await storedPhone()).toBe('+447700900123');
  });

  it('a number that is not one is a 422 naming the field, and nothing changes', async () => {
    const res = await call('PATCH', `${base}/${world.regs.adultA.id}`, world.users.eventAdmin.mobile, {
      phone: '12',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().problems).toEqual([
      { field: 'phone', message: 'phone must be a phone number in international format, e.g. +447700900123' },
    ]);
    expect(await storedPhone()).toBe('+447700900123');
  });

  it('search finds "+44 7700 900123" by "7700900123" and by "07700 900123"; limited does not', async () => {
    for (const q of ['7700900123', '07700 900123', '+44 7700 900123']) {
      const res = await call(
        'GET',
        `${base}/search?q=${encodeURIComponent(q)}`,
        world.users.eventAdmin.mobile,
      );
      expect(res.statusCode).toBe(200);
      expect(
        res.json().results.map((r: { participant_event_id: number }) => r.participant_event_id),
        q,
      ).toContain(world.regs.adultA.id);
    }
    const limited = await call('GET', `${base}/search?q=7700900123`, world.users.limited.mobile);
    expect(limited.json().results).toEqual([]);
  });

  it('the staff table finds the phone too and shows it in international format', async () => {
    const { signedInBrowser, getPage } = await import('../web/support.js');
    const admin = await signedInBrowser(t.deps, world.users.eventAdmin.id);
    const page = await getPage(
      t.app,
      admin,
      `/staff/events/${world.events.A.id}/participants?q=${encodeURIComponent('07700 900123')}`,
    );
    expect(page.body).toContain('<td>+44 7700 900123</td>');
    expect(page.body).toMatch(/<h2 id="results-heading"[^>]*>1 participant</);
  });

  it('stored numbers from before are rewritten at start-up, the original kept in the audit', async () => {
    await t.deps.db.execute(
      sql`UPDATE people SET phone = '07700 900456' WHERE id = ${world.regs.adultA.personId}`,
    );
    await t.deps.db.execute(
      sql`UPDATE people SET phone = 'not a number' WHERE id = ${world.regs.regB.personId}`,
    );
    expect(await normaliseStoredPhones(t.deps.db)).toBeGreaterThanOrEqual(1);
    expect(await storedPhone()).toBe('+447700900456');
    const audit = await t.deps.db.execute<{ metadata: Record<string, string> }>(
      sql`SELECT metadata FROM audit_log WHERE action = 'phones.normalise' AND target_id = ${String(world.regs.adultA.personId)}`,
    );
    expect(audit.rows.map((r) => r.metadata)).toEqual([
      { field: 'phone', original: '07700 900456', phone: '+447700900456' },
    ]);
    const kept = await t.deps.db.execute<{ phone: string }>(
      sql`SELECT phone FROM people WHERE id = ${world.regs.regB.personId}`,
    );
    expect(kept.rows[0]!.phone).toBe('not a number');
    expect(await normaliseStoredPhones(t.deps.db)).toBe(0);
  });
});
