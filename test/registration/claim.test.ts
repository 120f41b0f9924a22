/**
 * POST /invitations/claim over HTTP against the real database: an invitee gets an account to sign
 * in with (docs/decisions.md "Account and sessions"; §8 the invitation token lets them in), the
 * matrix rows (test/access/rows/invitation-claim.ts), refusals that change nothing, and the rate limit.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvitation } from '../../src/modules/registration/invitations/invitations.service.js';
import { claimRows } from '../access/rows/invitation-claim.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let world: World;
let ip = 0;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function invite(email: string, firstName: string | null = 'Ivy', lastName: string | null = 'Invitee') {
  return t.deps.db.transaction((tx) =>
    createInvitation(t.deps, tx, { eventId: world.events.A.id, email, firstName, lastName, actor: {} }),
  );
}

function claim(
  token: string,
  headers: Record<string, string> = {},
  remoteAddress = `203.0.113.${++ip % 250}`,
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/invitations/claim',
    payload: { invitation_token: token },
    headers,
    remoteAddress,
  });
}

async function userCount(email: string): Promise<number> {
  const res = await t.deps.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM users WHERE lower(email) = ${email}`,
  );
  return Number(res.rows[0]!.n);
}

describe('POST /invitations/claim', () => {
  it('creates the invitee’s account once (named from the invitation) and answers {email, event}', async () => {
    const { token, email } = await invite('Ivy.Claim@Example.org');
    expect(await userCount(email)).toBe(0);
    const res = await claim(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: 'ivy.claim@example.org', event: world.events.A.name });
    expect(await userCount(email)).toBe(1);
    const again = await claim(token);
    expect(again.statusCode).toBe(200);
    expect(await userCount(email)).toBe(1);
    const row = await t.deps.db.execute<{ name: string; global_admin: boolean }>(
      sql`SELECT name, global_admin FROM users WHERE lower(email) = ${email}`,
    );
    expect(row.rows[0]).toMatchObject({ name: 'Ivy Invitee', global_admin: false });
  });

  it('keeps an existing account as it is', async () => {
    const { token } = await invite(world.users.participant.email.toUpperCase());
    const before = await snapshotDb(t.deps);
    const res = await claim(token);
    expect(res.statusCode).toBe(200);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('refuses unknown, malformed, expired and banned invitations with 422 and writes nothing', async () => {
    const expired = await invite('expired.claim@example.org');
    await t.deps.db.execute(
      sql`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = ${expired.invitationId}`,
    );
    const banned = await invite('banned.claim@example.org');
    await t.deps.db.transaction(async (tx) => {
      const ban = await tx.execute<{ id: string }>(
        sql`INSERT INTO bans (reason) VALUES ('test') RETURNING id`,
      );
      await tx.execute(
        sql`INSERT INTO ban_emails (ban_id, email) VALUES (${ban.rows[0]!.id}, 'banned.claim@example.org')`,
      );
    });
    const before = await snapshotDb(t.deps);
    for (const [token, error] of [
      ['x'.repeat(43), 'Invalid or expired invitation token'],
      ['not a token!', 'Invalid or expired invitation token'],
      [expired.token, 'Invalid or expired invitation token'],
      [banned.token, 'This email is banned from events'],
    ] as const) {
      const res = await claim(token);
      expect(res.statusCode, token).toBe(422);
      expect(res.json(), token).toEqual({ error });
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/invitations/claim',
      payload: { token: 'x' },
    });
    expect(bad.statusCode).toBe(422);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('is rate limited per IP (30 per minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await claim('y'.repeat(43), {}, '198.18.0.1')).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 422)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('invitation claim matrix rows', () => {
  it('every principal gets the same answer: a bearer credential plays no part', async () => {
    const { token } = await invite('matrix.claim@example.org');
    const before = await snapshotDb(t.deps, { ignoreColumns: [] });
    for (const row of claimRows.filter((r) => r.target === 'unknown')) {
      const res = await claim('z'.repeat(43), bearer(world.secrets[row.principal]));
      expect(res.statusCode, row.principal).toBe(row.expected.status);
      expect(res.json(), row.principal).toEqual({ error: row.expected.error });
    }
    expect(await snapshotDb(t.deps, { ignoreColumns: [] })).toEqual(before);
    for (const row of claimRows.filter((r) => r.target === 'live')) {
      const res = await claim(token, bearer(world.secrets[row.principal]));
      expect(res.statusCode, row.principal).toBe(row.expected.status);
      expect(res.json(), row.principal).toEqual({
        email: 'matrix.claim@example.org',
        event: world.events.A.name,
      });
    }
  });
});
