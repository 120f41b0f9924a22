/**
 * Who may name the adults allowed to collect a minor (docs/checkin.md "Presence"): never the minor
 * (own PATCH → 403, nothing changed); a guardian through the portal; a safeguarding lead through
 * the staff edit. An adult's own registration still sets its own.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { people } from '../../src/db/schema/index.js';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { giveToken } from '../guardian/tokens.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let world: World;

const P = '/api/v1';

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function linkUser(email: string, personId: number): Promise<string> {
  return t.deps.db.transaction(async (tx) => {
    const user = await createUser(tx, { email, name: email });
    await tx.update(people).set({ userId: user.id }).where(eq(people.id, personId));
    return (await issueMobileToken(tx, user.id)).secret;
  });
}

const call = (method: 'GET' | 'PATCH', url: string, secret: string | undefined, payload?: object) =>
  t.app.inject({ method, url: `${P}${url}`, headers: bearer(secret), ...(payload ? { payload } : {}) });

async function pickupAdults(registrationId: number): Promise<string | null> {
  const res = await t.deps.db.execute<{ a: string | null }>(
    sql`SELECT authorized_pickup_adults AS a FROM registration_safeguarding WHERE registration_id = ${registrationId}`,
  );
  return res.rows[0]?.a ?? null;
}

describe('authorised pickup adults', () => {
  it('a minor’s own PATCH is refused (403) and changes nothing; other fields still save', async () => {
    const minor = world.regs.minorA;
    const token = await linkUser('pickup.minor@example.com', minor.personId);
    const before = await snapshotDb(t.deps);
    const res = await call('PATCH', `/registrations/${minor.id}`, token, {
      safeguarding_detail: { authorized_pickup_adults: 'My friend Sam' },
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toEqual({
      error:
        'A minor’s authorised pickup adults are set by a parent or guardian (guardian portal) or the safeguarding lead',
    });
    expect(await snapshotDb(t.deps)).toEqual(before);
    const cleared = await call('PATCH', `/registrations/${minor.id}`, token, {
      safeguarding_detail: { authorized_pickup_adults: null },
    });
    expect(cleared.statusCode).toBe(403);
    const other = await call('PATCH', `/registrations/${minor.id}`, token, {
      safeguarding_detail: { curfew_acknowledged: true },
    });
    expect(other.statusCode, other.body).toBe(200);
  });

  it('an adult’s own PATCH still sets it', async () => {
    const adult = world.regs.adultA;
    const token = await linkUser('pickup.adult@example.com', adult.personId);
    const res = await call('PATCH', `/registrations/${adult.id}`, token, {
      safeguarding_detail: { authorized_pickup_adults: 'My partner Lee' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await pickupAdults(adult.id)).toBe('My partner Lee');
  });

  it('a guardian sets it through the portal (audited); the portal shows it', async () => {
    const minor = world.regs.minorA;
    const token = await giveToken(t.deps.db, world.guardianA);
    const res = await call('PATCH', `/guardian/${token}`, undefined, {
      authorized_pickup_adults: '  Ana Grey (mother), Bo Grey (uncle) ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().child.authorized_pickup_adults).toBe('Ana Grey (mother), Bo Grey (uncle)');
    expect(await pickupAdults(minor.id)).toBe('Ana Grey (mother), Bo Grey (uncle)');
    const audit = await t.deps.db.execute<{ fields: string[] }>(
      sql`SELECT metadata->'fields' AS fields FROM audit_log WHERE action = 'guardians.portal.update' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows[0]!.fields).toContain('authorized_pickup_adults');
  });

  it('a safeguarding lead sets it through the staff edit; ops may not', async () => {
    const minor = world.regs.minorA;
    const url = `/events/${world.events.A.id}/participants/${minor.id}`;
    const body = { safeguarding_detail: { authorized_pickup_adults: 'Ana Grey (mother)' } };
    const ops = await call('PATCH', url, world.users.ops.mobile, body);
    expect(ops.statusCode).toBe(403);
    const lead = await call('PATCH', url, world.users.safeguarding.mobile, body);
    expect(lead.statusCode, lead.body).toBe(200);
    expect(await pickupAdults(minor.id)).toBe('Ana Grey (mother)');
  });
});
