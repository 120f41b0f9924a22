/**
 * Participants sign in (docs/decisions.md "Registration side"): anyone whose email is on a registration in any status but
 * `rejected`, and not banned, gets an emailed code; the user account is created at the first
 * verified code and linked to their participant records, so their tickets appear. A rejected or
 * banned registrant gets the same page and no code, and nobody is created. The demo's participants
 * (`muster seed`, imported as complete, in_progress, …) sign in the same way.
 */
import { sql } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../src/db/schema/index.js';
import { seedDemo } from '../../src/demo/seed.js';
import {
  ban,
  clientParams,
  codeFor,
  makeEvent,
  makeRegistrant,
  makeUser,
  requestCode,
  type SigninApp,
  startSigninApp,
  verify,
} from './harness.js';

let t: SigninApp;
const registrations = new Map<string, number>();
const SIGN_IN = ['invited', 'in_progress', 'awaiting_guardian', 'complete', 'withdrawn'] as const;

beforeAll(async () => {
  t = await startSigninApp();
  const event = await makeEvent(t.deps);
  for (const status of [...SIGN_IN, 'rejected'] as const) {
    const { registrationId } = await makeRegistrant(t.deps, event.id, `${status}@example.org`, status, {
      first: 'Sam',
      last: status,
    });
    registrations.set(status, registrationId);
  }
  await makeRegistrant(t.deps, event.id, 'banned@example.org', 'complete');
  const admin = await makeUser(t.deps, 'admin@example.org', { globalAdmin: true });
  await ban(t.deps, ['banned@example.org'], admin.id);
});
afterAll(async () => {
  await t?.close();
});

async function userCount(): Promise<number> {
  return (await t.deps.db.select().from(users)).length;
}

/** The app's POST /session with the code from a verified sign-in's redirect (`back`). */
function redeem(back: Response, redirectUri: string, verifier: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/session',
    payload: {
      code: new URL(back.headers.get('location')!).searchParams.get('code'),
      redirect_uri: redirectUri,
      code_verifier: verifier,
    },
  });
}

describe('participants sign in with an emailed code', () => {
  it.each(SIGN_IN)(
    'a %s registrant gets a code, an account at the first code, and their ticket',
    async (status) => {
      const address = `${status}@example.org`;
      const before = await userCount();
      const verifier = oauth.generateRandomCodeVerifier();
      const params = clientParams({ code_challenge: await oauth.calculatePKCECodeChallenge(verifier) });
      const after = t.smtp.received.length;
      const { requestId } = await requestCode(t, address.toUpperCase(), params);
      const code = await codeFor(t.smtp, address, after);
      // Requesting a code creates nobody; the verified code does.
      expect(await userCount()).toBe(before);
      const back = await verify(t, requestId!, code);
      expect(back.status).toBe(302);
      expect(await userCount()).toBe(before + 1);

      const session = await redeem(back, params.redirect_uri, verifier);
      expect(session.statusCode).toBe(200);
      expect(session.json().user).toMatchObject({
        email: address,
        name: `Sam ${status}`,
        global_admin: false,
        is_organizer: false,
        is_participant: true,
        events: [],
      });
      const tickets = await t.app.inject({
        url: '/api/v1/tickets',
        headers: { authorization: `Bearer ${session.json().token}` },
      });
      expect(tickets.statusCode).toBe(200);
      expect(tickets.json().tickets.map((ticket: { id: number }) => ticket.id)).toEqual([
        registrations.get(status),
      ]);
      const [audit] = await t.deps.db
        .select()
        .from(auditLog)
        .where(
          sql`${auditLog.action} = 'user.create' AND ${auditLog.targetId} = ${String(session.json().user.id)}`,
        );
      expect(audit).toMatchObject({ credentialKind: 'sign_in' });

      // The second sign-in reuses the account.
      const again = await requestCode(t, address, params);
      const second = await verify(t, again.requestId!, await codeFor(t.smtp, address, after + 1));
      expect(second.status).toBe(302);
      expect(await userCount()).toBe(before + 1);
    },
  );

  it('a rejected or banned registrant gets the same page, no code, and no account', async () => {
    const before = await userCount();
    for (const address of ['rejected@example.org', 'banned@example.org']) {
      const { res, requestId } = await requestCode(t, address);
      expect(res.status).toBe(200);
      const guess = await verify(t, requestId!, '123456', 'application/json');
      expect(guess.status).toBe(400);
    }
    await new Promise((r) => setTimeout(r, 1000));
    for (const address of ['rejected@example.org', 'banned@example.org'])
      expect(t.smtp.received.filter((m) => m.to.includes(address))).toEqual([]);
    expect(await userCount()).toBe(before);
  });
});

describe('the demo’s participants sign in', () => {
  it('an imported complete and in_progress demo participant get a code, sign in and see their ticket', async () => {
    const demo = await t.deps.db.transaction((tx) => seedDemo(tx, { participants: 20, seed: 5 }));
    const { rows } = await t.deps.db.execute<{ email: string; status: string; id: number }>(sql`
      SELECT DISTINCT ON (r.status) p.email, r.status, r.id
        FROM registrations r JOIN people p ON p.id = r.person_id
       WHERE r.event_id = ${demo.eventId} AND r.status IN ('complete', 'in_progress')
       ORDER BY r.status, r.id`);
    expect(rows.map((r) => r.status)).toEqual(['complete', 'in_progress']);
    for (const row of rows) {
      const verifier = oauth.generateRandomCodeVerifier();
      const params = clientParams({ code_challenge: await oauth.calculatePKCECodeChallenge(verifier) });
      const after = t.smtp.received.length;
      const { requestId } = await requestCode(t, row.email, params);
      const back = await verify(t, requestId!, await codeFor(t.smtp, row.email, after));
      expect(back.status, row.email).toBe(302);
      const session = await redeem(back, params.redirect_uri, verifier);
      expect(session.statusCode).toBe(200);
      expect(session.json().user).toMatchObject({
        email: row.email,
        is_participant: true,
        is_organizer: false,
      });
      const tickets = await t.app.inject({
        url: '/api/v1/tickets',
        headers: { authorization: `Bearer ${session.json().token}` },
      });
      expect(tickets.statusCode).toBe(200);
      expect(tickets.json().tickets).toContainEqual(
        expect.objectContaining({ id: row.id, status: row.status, confirmed: row.status === 'complete' }),
      );
    }
  }, 120_000);
});
