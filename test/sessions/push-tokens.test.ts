/**
 * Push tokens (docs/decisions.md "Account and sessions", "DELETE /push_tokens"): format recognition (Expo,
 * APNs, FCM), upsert statuses (201 new, 200 already the caller's or moved from another user), and
 * deletion of the caller's own tokens only (path and body forms).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTokens } from '../../src/db/schema/index.js';
import { generateApiSecret, generateMobileToken } from '../../src/lib/secrets.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type PrincipalName, type World } from '../support/world.js';
import { P, stateOf } from './helpers.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const SUCCESS = { success: true };
const NOT_FOUND = { error: 'Push token not found' };
const UNRECOGNISED = { error: 'Unrecognised push token format' };

const urlSafe = (n: number, seed = 'a') =>
  Array.from(
    { length: n },
    (_, i) =>
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[(i * 7 + seed.charCodeAt(0)) % 64],
  ).join('');
const hex64 = (c: string) => `${c.repeat(16)}0123456789abcdef0123456789ABCDEF0123456789abcdef`;

function register(secret: string | undefined, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: `${P}/push_tokens`,
    headers: bearer(secret),
    payload: payload as object,
  });
}
function deleteByPath(secret: string | undefined, token: string) {
  return t.app.inject({
    method: 'DELETE',
    url: `${P}/push_tokens/${encodeURIComponent(token)}`,
    headers: bearer(secret),
  });
}
function deleteByBody(secret: string | undefined, payload?: unknown) {
  return t.app.inject({
    method: 'DELETE',
    url: `${P}/push_tokens`,
    headers: { ...bearer(secret), 'content-type': 'application/json' },
    ...(payload === undefined ? { payload: '' } : { payload: JSON.stringify(payload) }),
  });
}
async function rowOf(token: string) {
  const [row] = await t.deps.db.select().from(pushTokens).where(eq(pushTokens.token, token));
  return row;
}

describe('POST /push_tokens', () => {
  it.each([
    ['Expo (ExponentPushToken)', 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]', 'expo'],
    ['Expo (ExpoPushToken)', 'ExpoPushToken[AbCdEf-1234_xyz]', 'expo'],
    ['APNs (64 hex)', hex64('f'), 'apns'],
    ['FCM (instance id : token)', `cXyZ12_-ab:APA91b${urlSafe(134)}`, 'fcm'],
    ['FCM (bare, 152 chars)', urlSafe(152, 'q'), 'fcm'],
  ])('%s → 201 when new, 200 when the caller registers it again', async (_name, token, platform) => {
    const me = world.users.ops;
    const first = await register(me.mobile, { token });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual(SUCCESS);
    const again = await register(me.mobile, { token });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(SUCCESS);
    const row = await rowOf(platform === 'apns' ? token.toLowerCase() : token);
    expect(row).toMatchObject({ userId: me.id, platform });
  });

  it('stores APNs tokens lowercase: another case of the same token is the same token', async () => {
    const upper = hex64('A').toUpperCase();
    expect((await register(world.users.limited.mobile, { token: upper })).statusCode).toBe(201);
    expect((await register(world.users.limited.mobile, { token: upper.toLowerCase() })).statusCode).toBe(200);
    expect(await rowOf(upper)).toBeUndefined();
    expect(await rowOf(upper.toLowerCase())).toMatchObject({ platform: 'apns' });
  });

  it('trims surrounding whitespace', async () => {
    const res = await register(world.users.limited.mobile, { token: '  ExponentPushToken[trimmed]\n' });
    expect(res.statusCode).toBe(201);
    expect(await rowOf('ExponentPushToken[trimmed]')).toBeDefined();
  });

  it('a token registered by another user moves to the caller (200)', async () => {
    const token = 'ExponentPushToken[shared-device]';
    expect((await register(world.users.eventAdmin.mobile, { token })).statusCode).toBe(201);
    const moved = await register(world.users.safeguarding.mobile, { token });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual(SUCCESS);
    expect(await rowOf(token)).toMatchObject({ userId: world.users.safeguarding.id });
    // The previous owner can no longer delete it; the new owner can.
    expect((await deleteByPath(world.users.eventAdmin.mobile, token)).statusCode).toBe(404);
    expect((await deleteByPath(world.users.safeguarding.mobile, token)).statusCode).toBe(200);
  });

  it('platform: a matching push service or a device OS is accepted; a contradicting one is 422', async () => {
    const fcm = `inst:${urlSafe(120, 'z')}`;
    expect(
      (await register(world.users.seriesOwner.mobile, { token: fcm, platform: 'android' })).statusCode,
    ).toBe(201);
    expect(await rowOf(fcm)).toMatchObject({ platform: 'fcm' });
    const apns = hex64('b');
    expect(
      (await register(world.users.seriesOwner.mobile, { token: apns, platform: 'apns' })).statusCode,
    ).toBe(201);
    expect(
      (await register(world.users.seriesOwner.mobile, { token: apns, platform: 'ios' })).statusCode,
    ).toBe(200);

    const before = await stateOf(t.deps);
    const wrong = await register(world.users.seriesOwner.mobile, {
      token: 'ExponentPushToken[abc]',
      platform: 'fcm',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      error: 'Push token format does not match platform fcm: it is a expo token',
    });
    const unknown = await register(world.users.seriesOwner.mobile, {
      token: 'ExponentPushToken[abc]',
      platform: 'web',
    });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json())).toEqual(['error']);
    expect(await stateOf(t.deps)).toEqual(before);
  });

  it.each([
    ['plain text', 'hello'],
    ['63 hex', hex64('c').slice(0, 63)],
    ['65 hex', `${hex64('c')}a`],
    ['64 chars, not hex', `${hex64('c').slice(0, 63)}g`],
    ['99 URL-safe chars', urlSafe(99)],
    ['FCM with 99 chars after the colon', `inst:${urlSafe(99)}`],
    ['FCM with a character outside the URL-safe set', `${urlSafe(120)}=`],
    ['Expo with empty brackets', 'ExponentPushToken[]'],
    ['Expo with a space inside', 'ExponentPushToken[a b]'],
    ['Expo without the closing bracket', 'ExponentPushToken[abc'],
    ['Expo with trailing text', 'ExponentPushToken[abc]x'],
    ['Expo with the wrong prefix case', 'exponentpushtoken[abc]'],
    ['a Muster mobile token', generateMobileToken()],
    ['a Muster API key', generateApiSecret('series_key')],
  ])('%s → 422 Unrecognised push token format, nothing stored', async (_name, token) => {
    const before = await stateOf(t.deps);
    const res = await register(world.users.ops.mobile, { token });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(UNRECOGNISED);
    expect(await stateOf(t.deps)).toEqual(before);
  });

  it.each<[string, unknown, string]>([
    ['no token', {}, 'body.token is required'],
    ['an empty token', { token: '' }, 'body.token must NOT have fewer than 1 characters'],
    ['an object token', { token: { a: 1 } }, 'body.token must be string'],
    // JSON bodies are not type-coerced (src/http/validation.ts): a number is not a string.
    ['a number token', { token: 5 }, 'body.token must be string'],
    [
      'a token over 1024 characters',
      { token: urlSafe(1025) },
      'body.token must NOT have more than 1024 characters',
    ],
  ])('%s → 422 %s', async (_name, payload, error) => {
    const before = await stateOf(t.deps);
    const res = await register(world.users.ops.mobile, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error });
    expect(await stateOf(t.deps)).toEqual(before);
  });

  it('malformed JSON → 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${P}/push_tokens`,
      headers: { ...bearer(world.users.ops.mobile), 'content-type': 'application/json' },
      payload: '{"token":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Malformed JSON in request body' });
  });

  it('10 parallel registrations of one new token by one user: one 201, nine 200, one row', async () => {
    const token = 'ExponentPushToken[parallel-registration]';
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => register(world.users.admin.mobile, { token })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
    ]);
    const rows = await t.deps.db.select().from(pushTokens).where(eq(pushTokens.token, token));
    expect(rows).toHaveLength(1);
  });
});

describe('DELETE /push_tokens/{token} and DELETE /push_tokens {token}', () => {
  it('path form: 200 for the caller’s token, then 404; URL-encoded Expo brackets and long FCM tokens work', async () => {
    const me = world.users.ops.mobile;
    const fcm = `inst-id:${urlSafe(160, 'k')}`;
    for (const token of ['ExponentPushToken[to-delete]', fcm]) {
      expect((await register(me, { token })).statusCode).toBe(201);
      const res = await deleteByPath(me, token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(SUCCESS);
      expect(await rowOf(token)).toBeUndefined();
      const again = await deleteByPath(me, token);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(NOT_FOUND);
    }
  });

  it('path form: an APNs token matches whatever its case', async () => {
    const token = hex64('d');
    expect((await register(world.users.ops.mobile, { token })).statusCode).toBe(201);
    expect((await deleteByPath(world.users.ops.mobile, token.toUpperCase())).statusCode).toBe(200);
    expect(await rowOf(token)).toBeUndefined();
  });

  it('body form: 200, then 404; a missing body or token is 422', async () => {
    const me = world.users.ops.mobile;
    const token = 'ExpoPushToken[body-delete]';
    expect((await register(me, { token })).statusCode).toBe(201);
    const res = await deleteByBody(me, { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(SUCCESS);
    const again = await deleteByBody(me, { token });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(NOT_FOUND);
    const noBody = await deleteByBody(me);
    expect(noBody.statusCode).toBe(422);
    expect(Object.keys(noBody.json())).toEqual(['error']);
    const noToken = await deleteByBody(me, {});
    expect(noToken.statusCode).toBe(422);
    expect(noToken.json()).toEqual({ error: 'body.token is required' });
  });

  it('another user’s token is 404 in both forms and stays registered', async () => {
    const token = 'ExponentPushToken[not-yours]';
    expect((await register(world.users.eventAdmin.mobile, { token })).statusCode).toBe(201);
    const before = await stateOf(t.deps);
    for (const res of [
      await deleteByPath(world.users.ops.mobile, token),
      await deleteByBody(world.users.ops.mobile, { token }),
      await deleteByPath(world.users.ops.mobile, 'never-registered'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    expect(await stateOf(t.deps)).toEqual(before);
    expect(await rowOf(token)).toMatchObject({ userId: world.users.eventAdmin.id });
  });
});

describe('who may call (action push_tokens.write: user credentials)', () => {
  it.each<[PrincipalName, number, string | null]>([
    ['none', 401, 'Unauthorized'],
    ['garbage', 401, 'Unauthorized'],
    ['expiredMobile', 401, 'Unauthorized'],
    ['revokedGlobal', 401, 'Unauthorized'],
    ['scopedToken', 403, 'This token is limited to: bans:write'],
    ['seriesKeyS1', 403, 'API keys cannot access this endpoint; it requires a user credential'],
    ['eventKeyA', 403, 'API keys cannot access this endpoint; it requires a user credential'],
    ['legacyKeyA', 403, 'API keys cannot access this endpoint; it requires a user credential'],
    ['participant', 201, null],
    ['globalToken', 201, null],
  ])('%s → %i', async (principal, status, error) => {
    const token = `ExponentPushToken[who-${principal}]`;
    const before = await stateOf(t.deps);
    const res = await register(world.secrets[principal], { token });
    expect(res.statusCode).toBe(status);
    if (error) {
      expect(res.json()).toEqual({ error });
      expect(await stateOf(t.deps)).toEqual(before);
      // The check order puts the credential before the body: an invalid body changes nothing either.
      expect((await register(world.secrets[principal], { token: 'bad' })).statusCode).toBe(status);
      expect((await deleteByPath(world.secrets[principal], token)).statusCode).toBe(status);
      expect((await deleteByBody(world.secrets[principal], { token })).statusCode).toBe(status);
    } else {
      expect(res.json()).toEqual(SUCCESS);
    }
  });
});
