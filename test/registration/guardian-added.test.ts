/**
 * docs/decisions.md "Guardian portal": guardians are emailed their portal link when a minor submits. A guardian added by
 * the participant's own PATCH while the registration waits for its guardians (`awaiting_guardian`)
 * is emailed at once (not at a later resubmission); guardians already invited at their address are
 * not emailed again; before submission nobody is emailed (the submit does it).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { people } from '../../src/db/schema/index.js';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { call, emailsSettled, P, type RegHarness, startRegHarness } from './harness.js';

let h: RegHarness;
let minorToken: string;
const NORA = 'nora.newguardian@example.com';

// biome-ignore lint/suspicious/noExplicitAny: test reads nested JSON freely
type Json = Record<string, any>;

async function linkUser(email: string, personId: number): Promise<string> {
  return h.t.deps.db.transaction(async (tx) => {
    const user = await createUser(tx, { email, name: email });
    await tx.update(people).set({ userId: user.id }).where(eq(people.id, personId));
    return (await issueMobileToken(tx, user.id)).secret;
  });
}

async function emailsTo(address: string): Promise<number> {
  const res = await h.t.deps.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM email_log WHERE lower(to_email) = ${address}`,
  );
  return res.rows[0]!.n;
}

beforeAll(async () => {
  h = await startRegHarness();
  const minor = h.world.regs.minorA;
  minorToken = await linkUser('max.minor.guardians@example.com', minor.personId);
  // The minor has submitted and its guardians were invited then (at their current addresses).
  await h.t.deps.db.execute(
    sql`UPDATE registrations SET submitted_at = now(), status = 'awaiting_guardian' WHERE id = ${minor.id}`,
  );
  await h.t.deps.db.execute(
    sql`UPDATE guardians SET invite_token_sent_at = now(), invited_via_email = lower(btrim(email)) WHERE registration_id = ${minor.id}`,
  );
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function guardiansOf(registrationId: number, token: string): Promise<Json[]> {
  const res = await call(h.app, 'GET', `${P}/registrations/${registrationId}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().participant.guardians as Json[];
}

describe('a guardian added after submission', () => {
  it('is emailed the portal link at once; the others are not emailed again', {
    timeout: 60_000,
  }, async () => {
    const minor = h.world.regs.minorA;
    const existing = (await guardiansOf(minor.id, minorToken)).map((g) => ({ name: g.name, email: g.email }));
    const before = await Promise.all(existing.map((g) => emailsTo(String(g.email).toLowerCase())));

    const res = await call(h.app, 'PATCH', `${P}/registrations/${minor.id}`, minorToken, {
      guardians: [...existing, { name: 'Nora New', email: NORA, relationship: 'aunt' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const nora = (res.json().participant.guardians as Json[]).find((g) => g.email === NORA);
    expect(nora).toMatchObject({ status: 'invited' });

    const mail = await h.smtp.waitFor((m) => m.to.includes(NORA));
    const token = /\/guardian\/accept\?token=([A-Za-z0-9_-]{20,})/.exec(mail.text)![1]!;
    const portal = await call(h.app, 'GET', `${P}/guardian/${token}`);
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().guardian).toMatchObject({ email: NORA, status: 'invited' });

    await emailsSettled(h);
    expect(await emailsTo(NORA)).toBe(1);
    expect(await Promise.all(existing.map((g) => emailsTo(String(g.email).toLowerCase())))).toEqual(before);

    // The same guardians again: nobody is emailed.
    const again = await call(h.app, 'PATCH', `${P}/registrations/${minor.id}`, minorToken, {
      guardians: [...existing, { name: 'Nora New', email: NORA, relationship: 'aunt' }],
    });
    expect(again.statusCode, again.body).toBe(200);
    await emailsSettled(h);
    expect(await emailsTo(NORA)).toBe(1);
  });

  it('is not emailed before the registration is submitted (the submit does it)', async () => {
    const adult = h.world.regs.adultA;
    const status = await h.t.deps.db.execute<{ status: string }>(
      sql`SELECT status FROM registrations WHERE id = ${adult.id}`,
    );
    expect(status.rows[0]!.status).not.toBe('awaiting_guardian');
    const address = 'otto.notyet@example.com';
    const res = await call(
      h.app,
      'PATCH',
      `${P}/registrations/${adult.id}`,
      h.world.users.participant.mobile,
      {
        guardians: [{ name: 'Otto Notyet', email: address }],
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    await emailsSettled(h);
    expect(await emailsTo(address)).toBe(0);
  });
});
