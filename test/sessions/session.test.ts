/**
 * DELETE /session and POST /session/refresh (spec "POST /session/refresh"; docs/decisions.md "Credentials and roles";
 * quality.md "20 parallel refreshes of one mobile token → no 5xx and exactly one live successor"),
 * and the `X-Token-Refresh-Recommended` header on these routes and the push-token routes.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mobileTokens } from '../../src/db/schema/index.js';
import { digestSecret } from '../../src/lib/secrets.js';
import { bearer, get, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type PrincipalName, type World } from '../support/world.js';
import { DAY, mobileToken, P, stateOf } from './helpers.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const UNAUTHORIZED = { error: 'Unauthorized' };
const MOBILE_ONLY = { error: 'This endpoint requires a mobile token' };
const KEYS_DENIED = { error: 'API keys cannot access this endpoint; it requires a user credential' };
const SCOPED = { error: 'This token is limited to: bans:write' };
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const MOBILE_SECRET = /^mst_m_[0-9A-Za-z]{49}$/;

/** Every principal that is not a live mobile token, with the exact refusal (docs/decisions.md "Account and sessions"). */
const REFUSED: [PrincipalName, number, object][] = [
  ['none', 401, UNAUTHORIZED],
  ['garbage', 401, UNAUTHORIZED],
  ['badChecksum', 401, UNAUTHORIZED],
  ['expiredMobile', 401, UNAUTHORIZED],
  ['revokedMobile', 401, UNAUTHORIZED],
  ['revokedEventKey', 401, UNAUTHORIZED],
  ['expiredGlobal', 401, UNAUTHORIZED],
  ['revokedGlobal', 401, UNAUTHORIZED],
  ['demotedGlobal', 401, UNAUTHORIZED],
  ['globalToken', 403, MOBILE_ONLY],
  ['scopedToken', 403, SCOPED],
  ['seriesKeyS1', 403, KEYS_DENIED],
  ['eventKeyA', 403, KEYS_DENIED],
  ['legacyKeyA', 403, KEYS_DENIED],
];

function del(secret: string | undefined, extra: { payload?: string; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method: 'DELETE',
    url: `${P}/session`,
    ...(extra.payload !== undefined ? { payload: extra.payload } : {}),
    headers: { ...bearer(secret), ...(extra.headers ?? {}) },
  });
}

function refresh(
  secret: string | undefined,
  extra: { payload?: string; headers?: Record<string, string> } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: `${P}/session/refresh`,
    ...(extra.payload !== undefined ? { payload: extra.payload } : {}),
    headers: { ...bearer(secret), ...(extra.headers ?? {}) },
  });
}

async function tokenRow(id: number) {
  const [row] = await t.deps.db.select().from(mobileTokens).where(eq(mobileTokens.id, id));
  return row!;
}

async function auditsFor(action: string, credentialId: number) {
  return t.deps.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.credentialId, String(credentialId))));
}

function json(res: LightMyRequestResponse) {
  return res.json() as Record<string, unknown>;
}

describe('DELETE /session', () => {
  it('revokes the presented mobile token: 200 {success:true}, then 401 everywhere', async () => {
    const tok = await mobileToken(t.deps, world.users.ops.id);
    expect((await get(t.app, `${P}/me`, tok.secret)).statusCode).toBe(200);

    const res = await del(tok.secret);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });

    for (const r of [
      await get(t.app, `${P}/me`, tok.secret),
      await get(t.app, `${P}/events`, tok.secret),
      await get(t.app, `${P}/events/${world.events.A.id}/participants`, tok.secret),
      await del(tok.secret),
      await refresh(tok.secret),
      await t.app.inject({
        method: 'POST',
        url: `${P}/push_tokens`,
        headers: bearer(tok.secret),
        payload: { token: 'ExponentPushToken[signedout]' },
      }),
    ]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual(UNAUTHORIZED);
    }
    const row = await tokenRow(tok.id);
    expect(row.revokedAt).not.toBeNull();
    expect(row.replacedById).toBeNull();
    const audits = await auditsFor('session.delete', tok.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorUserId: world.users.ops.id,
      credentialKind: 'mobile',
      targetType: 'mobile_token',
      targetId: String(tok.id),
    });
  });

  it('works with Content-Type: application/json and no body, and with an empty object', async () => {
    const a = await mobileToken(t.deps, world.users.limited.id);
    const resA = await del(a.secret, { payload: '', headers: { 'content-type': 'application/json' } });
    expect(resA.statusCode).toBe(200);
    expect(resA.json()).toEqual({ success: true });
    const b = await mobileToken(t.deps, world.users.limited.id);
    const resB = await del(b.secret, { payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(resB.statusCode).toBe(200);
    expect((await get(t.app, `${P}/me`, b.secret)).statusCode).toBe(401);
  });

  it('leaves the user’s other tokens alive', async () => {
    const a = await mobileToken(t.deps, world.users.readOnly.id);
    const b = await mobileToken(t.deps, world.users.readOnly.id);
    expect((await del(a.secret)).statusCode).toBe(200);
    expect((await get(t.app, `${P}/me`, b.secret)).statusCode).toBe(200);
    expect((await get(t.app, `${P}/me`, world.users.readOnly.mobile)).statusCode).toBe(200);
  });

  it.each(REFUSED)('%s → %i with the exact error, nothing changed', async (principal, status, body) => {
    const before = await stateOf(t.deps);
    const res = await del(world.secrets[principal]);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(body);
    expect(await stateOf(t.deps)).toEqual(before);
  });
});

describe('POST /session/refresh', () => {
  it('issues a 14-day successor and revokes the presented token, in one step', async () => {
    const old = await mobileToken(t.deps, world.users.ops.id);
    const started = Date.now();
    const res = await refresh(old.secret);
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'token', 'user']);
    expect(body.token).toMatch(MOBILE_SECRET);
    expect(body.token).not.toBe(old.secret);
    expect(body.expires_at).toMatch(ISO_MICROS);
    const expiresAt = Date.parse(body.expires_at as string);
    expect(expiresAt).toBeGreaterThanOrEqual(started + 14 * DAY - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 14 * DAY + 1000);

    // user: the spec's five fields plus the /me flags (same shape as POST /session); events as GET /events.
    const user = body.user as Record<string, unknown>;
    expect(Object.keys(user).sort()).toEqual([
      'email',
      'events',
      'global_admin',
      'id',
      'is_organizer',
      'is_participant',
      'name',
    ]);
    expect(user).toMatchObject({
      id: world.users.ops.id,
      name: 'Olga Ops',
      email: 'ops@muster.test',
      global_admin: false,
    });
    const events = await get(t.app, `${P}/events`, body.token as string);
    expect(events.statusCode).toBe(200);
    expect(user.events).toEqual((events.json() as { events: unknown[] }).events);
    expect((user.events as { id: number }[]).map((e) => e.id)).toEqual([world.events.A.id]);

    // The old token is dead everywhere; the new one works.
    const oldMe = await get(t.app, `${P}/me`, old.secret);
    expect(oldMe.statusCode).toBe(401);
    expect(oldMe.json()).toEqual(UNAUTHORIZED);
    expect((await refresh(old.secret)).statusCode).toBe(401);
    expect((await get(t.app, `${P}/me`, body.token as string)).statusCode).toBe(200);

    // Stored: digest only, the old record points at its successor (same device name).
    const [successor] = await t.deps.db
      .select()
      .from(mobileTokens)
      .where(eq(mobileTokens.tokenDigest, digestSecret(body.token as string)));
    expect(successor).toMatchObject({
      userId: world.users.ops.id,
      deviceName: 'Test phone',
      revokedAt: null,
    });
    const oldRow = await tokenRow(old.id);
    expect(oldRow.revokedAt).not.toBeNull();
    expect(oldRow.replacedById).toBe(successor!.id);

    const audits = await auditsFor('session.refresh', old.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorUserId: world.users.ops.id,
      credentialKind: 'mobile',
      targetType: 'mobile_token',
      targetId: String(successor!.id),
      metadata: { replaced_token_id: old.id },
    });
    expect(JSON.stringify(audits)).not.toContain(body.token as string);
  });

  it('a global admin gets global_admin true and every event', async () => {
    const old = await mobileToken(t.deps, world.users.admin.id);
    const res = await refresh(old.secret);
    expect(res.statusCode).toBe(200);
    const user = json(res).user as { global_admin: boolean; events: { id: number }[] };
    expect(user.global_admin).toBe(true);
    expect(user.events.map((e) => e.id).sort()).toEqual(
      [world.events.A.id, world.events.B.id, world.events.C.id].sort(),
    );
  });

  it('accepts no body, an empty JSON body and an ignored JSON value; malformed JSON is 400 and keeps the token', async () => {
    for (const extra of [
      {},
      { payload: '', headers: { 'content-type': 'application/json' } },
      { payload: '{}', headers: { 'content-type': 'application/json' } },
      { payload: '{"token":"ignored"}', headers: { 'content-type': 'application/json' } },
    ]) {
      const tok = await mobileToken(t.deps, world.users.eventAdmin.id);
      const res = await refresh(tok.secret, extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(200);
      expect(json(res).token).toMatch(MOBILE_SECRET);
    }
    const tok = await mobileToken(t.deps, world.users.eventAdmin.id);
    const before = await stateOf(t.deps);
    const bad = await refresh(tok.secret, {
      payload: '{"x":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'Malformed JSON in request body' });
    expect(await stateOf(t.deps)).toEqual(before);
    expect((await get(t.app, `${P}/me`, tok.secret)).statusCode).toBe(200);
  });

  it.each(REFUSED)('%s → %i with the exact error, nothing changed', async (principal, status, body) => {
    const before = await stateOf(t.deps);
    const res = await refresh(world.secrets[principal]);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(body);
    expect(await stateOf(t.deps)).toEqual(before);
  });

  it('20 parallel refreshes of one token: no 5xx, exactly one live successor, the losers leave nothing', async () => {
    const userId = world.users.safeguarding.id;
    const old = await mobileToken(t.deps, userId);
    const countTokens = async () =>
      (
        await t.deps.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM mobile_tokens WHERE user_id = ${userId}`,
        )
      ).rows[0]!.n;
    const tokensBefore = await countTokens();

    const responses = await Promise.all(Array.from({ length: 20 }, () => refresh(old.secret)));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    const winners = responses.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    for (const r of responses.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual(UNAUTHORIZED);
    }

    const token = json(winners[0]!).token as string;
    expect(await countTokens()).toBe(tokensBefore + 1);
    const live = await t.deps.db.execute<{ id: number; token_digest: string }>(
      sql`SELECT id, token_digest FROM mobile_tokens WHERE user_id = ${userId} AND revoked_at IS NULL AND id > ${old.id}`,
    );
    expect(live.rows).toHaveLength(1);
    expect(live.rows[0]!.token_digest).toBe(digestSecret(token));
    expect((await tokenRow(old.id)).replacedById).toBe(live.rows[0]!.id);
    expect(await auditsFor('session.refresh', old.id)).toHaveLength(1);
    expect((await get(t.app, `${P}/me`, token)).statusCode).toBe(200);
    expect((await get(t.app, `${P}/me`, old.secret)).statusCode).toBe(401);
  });

  it('20 parallel sign-outs of one token: one 200, the rest 401, no 5xx', async () => {
    const tok = await mobileToken(t.deps, world.users.safeguarding.id);
    const responses = await Promise.all(Array.from({ length: 20 }, () => del(tok.secret)));
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 401)).toHaveLength(19);
    expect(await auditsFor('session.delete', tok.id)).toHaveLength(1);
  });
});

describe('X-Token-Refresh-Recommended (docs/decisions.md "Credentials and roles": < 3 days left)', () => {
  const HEADER = 'x-token-refresh-recommended';

  it('is sent on the push-token routes for a token near expiry, and not for a fresh one', async () => {
    const near = await mobileToken(t.deps, world.users.ops.id, 2 * DAY);
    const fresh = await mobileToken(t.deps, world.users.ops.id);
    const token = 'ExponentPushToken[refresh-header-test]';
    for (const [secret, expected] of [
      [near.secret, 'true'],
      [fresh.secret, undefined],
    ] as const) {
      const post = await t.app.inject({
        method: 'POST',
        url: `${P}/push_tokens`,
        headers: bearer(secret),
        payload: { token },
      });
      expect(post.statusCode).toBe(expected ? 201 : 200);
      expect(post.headers[HEADER]).toBe(expected);
      const delPath = await t.app.inject({
        method: 'DELETE',
        url: `${P}/push_tokens/${encodeURIComponent(token)}`,
        headers: bearer(secret),
      });
      expect(delPath.statusCode).toBe(200);
      expect(delPath.headers[HEADER]).toBe(expected);
      // Also on an error response of an authenticated request (404: not the caller's token).
      const delBody = await t.app.inject({
        method: 'DELETE',
        url: `${P}/push_tokens`,
        headers: bearer(secret),
        payload: { token },
      });
      expect(delBody.statusCode).toBe(404);
      expect(delBody.headers[HEADER]).toBe(expected);
      if (expected)
        await t.app.inject({
          method: 'POST',
          url: `${P}/push_tokens`,
          headers: bearer(secret),
          payload: { token },
        });
    }
  });

  it('respects the 3-day boundary', async () => {
    const inside = await mobileToken(t.deps, world.users.ops.id, 3 * DAY - 60_000);
    const outside = await mobileToken(t.deps, world.users.ops.id, 3 * DAY + 60_000);
    expect((await get(t.app, `${P}/me`, inside.secret)).headers[HEADER]).toBe('true');
    expect((await get(t.app, `${P}/me`, outside.secret)).headers[HEADER]).toBeUndefined();
  });

  it('is not sent when the response rotates or ends the session (it would describe a dead token)', async () => {
    const near = await mobileToken(t.deps, world.users.ops.id, DAY);
    const res = await refresh(near.secret);
    expect(res.statusCode).toBe(200);
    expect(res.headers[HEADER]).toBeUndefined();
    const next = json(res).token as string;
    const me = await get(t.app, `${P}/me`, next);
    expect(me.statusCode).toBe(200);
    expect(me.headers[HEADER]).toBeUndefined();

    const near2 = await mobileToken(t.deps, world.users.ops.id, DAY);
    const out = await del(near2.secret);
    expect(out.statusCode).toBe(200);
    expect(out.headers[HEADER]).toBeUndefined();
  });

  it('is never sent on a 401 or to a non-mobile credential', async () => {
    const res = await refresh(world.secrets.expiredMobile);
    expect(res.statusCode).toBe(401);
    expect(res.headers[HEADER]).toBeUndefined();
    const global = await t.app.inject({
      method: 'POST',
      url: `${P}/push_tokens`,
      headers: bearer(world.secrets.globalToken),
      payload: { token: 'ExponentPushToken[global-token-user]' },
    });
    expect(global.statusCode).toBe(201);
    expect(global.headers[HEADER]).toBeUndefined();
  });
});
