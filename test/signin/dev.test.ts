/**
 * The development-only `{dev_email}` sign-in (docs/decisions.md "Account and sessions"): exists only with MUSTER_DEV_SIGN_IN=true.
 * Without the flag the field is unknown (422) and absent from the OpenAPI document.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { auditLog, mobileTokens } from '../../src/db/schema/index.js';
import { get, startTestApp, type TestApp } from '../support/app.js';
import { ban, makeUser } from './harness.js';

let off: TestApp;
let on: TestApp;

beforeAll(async () => {
  [off, on] = await Promise.all([startTestApp(), startTestApp({ MUSTER_DEV_SIGN_IN: 'true' })]);
  for (const t of [off, on]) {
    const admin = await makeUser(t.deps, 'admin@example.org', { globalAdmin: true });
    await makeUser(t.deps, 'ada@example.org', { name: 'Ada' });
    await makeUser(t.deps, 'banned@example.org');
    await ban(t.deps, ['banned@example.org'], admin.id);
  }
});
afterAll(async () => {
  await Promise.all([off?.close(), on?.close()]);
});

const post = (t: TestApp, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/session', payload });

/** The documented JSON body properties of POST /session. */
function sessionBodySchema(t: TestApp): Record<string, unknown> {
  const doc = t.app.swagger() as unknown as {
    paths: Record<
      string,
      {
        post: {
          requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
        };
      }
    >;
  };
  return doc.paths['/api/v1/session']!.post.requestBody.content['application/json']!.schema.properties;
}

async function tokenCount(t: TestApp): Promise<number> {
  return (await t.deps.db.select().from(mobileTokens)).length;
}

describe('MUSTER_DEV_SIGN_IN', () => {
  it('defaults to off', () => {
    expect(loadConfig({}).devSignIn).toBe(false);
    expect(loadConfig({ MUSTER_DEV_SIGN_IN: 'true' }).devSignIn).toBe(true);
    expect(() => loadConfig({ MUSTER_DEV_SIGN_IN: 'yes' })).toThrow(/MUSTER_DEV_SIGN_IN/);
  });

  it('off: dev_email is an unknown field (422) and issues nothing', async () => {
    const before = await tokenCount(off);
    for (const payload of [
      { dev_email: 'ada@example.org' },
      {
        dev_email: 'ada@example.org',
        code: 'x',
        redirect_uri: 'muster://oauth/callback',
        code_verifier: 'v'.repeat(43),
      },
    ]) {
      const res = await post(off, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: 'body: unknown field dev_email (development sign-in is not enabled)',
      });
    }
    const form = await off.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'dev_email=ada%40example.org',
    });
    expect(form.statusCode).toBe(422);
    expect(await tokenCount(off)).toBe(before);
    expect(Object.keys(sessionBodySchema(off))).not.toContain('dev_email');
  });

  it('on: signs in an existing user', async () => {
    const res = await post(on, { dev_email: ' ADA@example.org ', device_name: 'Simulator' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ email: 'ada@example.org', name: 'Ada', events: [] });
    expect(body.access_token).toBe(body.token);
    expect(body.token_type).toBe('Bearer');
    expect((await get(on.app, '/api/v1/me', body.token)).statusCode).toBe(200);
    const [audit] = await on.deps.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'session.create'`);
    expect(audit).toMatchObject({
      credentialKind: 'mobile',
      metadata: { method: 'dev', device_name: 'Simulator' },
    });
    expect(Object.keys(sessionBodySchema(on))).toContain('dev_email');
  });

  it('on: unknown users and banned participants get 401; nobody is created', async () => {
    const before = await tokenCount(on);
    for (const dev_email of ['nobody@example.org', 'banned@example.org']) {
      const res = await post(on, { dev_email });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid session or user not found' });
    }
    expect(await tokenCount(on)).toBe(before);
  });

  it('on: dev_email cannot be mixed with a code, and the code fields stay required without it', async () => {
    const mixed = await post(on, {
      dev_email: 'ada@example.org',
      code: 'x',
      redirect_uri: 'muster://oauth/callback',
      code_verifier: 'v'.repeat(43),
    });
    expect(mixed.statusCode).toBe(422);
    const none = await post(on, { device_name: 'x' });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toEqual({ error: 'code, redirect_uri and code_verifier are required' });
  });
});
