/**
 * The whole sign-in flow over real HTTP, driven by a standard OAuth client library (oauth4webapi):
 * authorize URL with PKCE S256 → sign-in page → email form → code from a real SMTP server → code
 * form → 302 to the redirect URI → validateAuthResponse → token request against POST /session →
 * GET /me with the token. Then the token endpoint's refusals (docs/decisions.md "Account and sessions"): reuse, wrong verifier,
 * wrong redirect URI, wrong client, expiry — each 401 `Invalid session or user not found`.
 */
import { sql } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/db/schema/index.js';
import {
  codeFor,
  containsSecret,
  databaseText,
  formFields,
  getPage,
  makeEvent,
  makeUser,
  postForm,
  type SigninApp,
  startSigninApp,
} from './harness.js';

const INVALID = { error: 'Invalid session or user not found' };
const client: oauth.Client = { client_id: 'muster-mobile' };
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let t: SigninApp;
let as: oauth.AuthorizationServer;
/** Every secret the tests saw: none may be in the database or the logs. */
const secrets: string[] = [];

beforeAll(async () => {
  t = await startSigninApp();
  as = {
    issuer: t.origin,
    authorization_endpoint: `${t.api}/oauth/authorize`,
    token_endpoint: `${t.api}/session`,
  };
  const event = await makeEvent(t.deps);
  await makeUser(t.deps, 'ada@example.org', { name: 'Ada Lovelace', opsOf: event.id });
  await makeUser(t.deps, 'grace@example.org', { name: 'Grace Hopper' });
  await makeUser(t.deps, 'alan@example.org', { name: 'Alan Turing' });
});
afterAll(async () => {
  await t?.close();
});

interface Authorized {
  /** Parameters of the redirect, validated by oauth4webapi. */
  params: URLSearchParams;
  code: string;
  verifier: string;
  redirectUri: string;
  location: string;
}

/** Runs the browser part of the flow for `email`; returns the redirect's validated parameters. */
async function authorize(email: string, redirectUri = 'muster://oauth/callback'): Promise<Authorized> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('scope', 'ignored');

  const page = await getPage(url);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const signIn = formFields(await page.text(), '/authorize/email');
  const before = t.smtp.received.length;
  const sent = await postForm(new URL(signIn.action, t.origin).href, { ...signIn.fields, email });
  expect(sent.status).toBe(200);
  const codeForm = formFields(await sent.text());
  const code = await codeFor(t.smtp, email, before);
  secrets.push(code, verifier);
  const verified = await postForm(new URL(codeForm.action, t.origin).href, { ...codeForm.fields, code });
  expect(verified.status).toBe(302);
  const location = verified.headers.get('location')!;
  expect(location.startsWith(`${redirectUri}?`)).toBe(true);
  const params = oauth.validateAuthResponse(as, client, new URL(location), state);
  secrets.push(params.get('code')!);
  return { params, code: params.get('code')!, verifier, redirectUri, location };
}

function exchange(auth: Authorized, overrides: { redirectUri?: string; verifier?: string } = {}) {
  return oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    auth.params,
    overrides.redirectUri ?? auth.redirectUri,
    overrides.verifier ?? auth.verifier,
    { ...insecure, additionalParameters: { device_name: 'Test phone' } },
  );
}

function me(token: string) {
  return fetch(`${t.api}/me`, { headers: { authorization: `Bearer ${token}` } });
}

function postSession(body: Record<string, unknown>) {
  return fetch(`${t.api}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('full flow with oauth4webapi', () => {
  it('signs in by emailed code and the token works on GET /me', async () => {
    const auth = await authorize('Ada@Example.org');
    const response = await exchange(auth);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    secrets.push(result.access_token);
    expect(result.token_type).toBe('bearer');
    expect(result.expires_in).toBeGreaterThan(14 * 24 * 3600 - 60);
    expect(result.expires_in).toBeLessThanOrEqual(14 * 24 * 3600);

    const body = result as unknown as Record<string, unknown>;
    expect(body.token).toBe(result.access_token);
    expect(body.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(Date.parse(body.expires_at as string)).toBeGreaterThan(Date.now() + 13 * 24 * 3600 * 1000);
    const user = body.user as Record<string, unknown>;
    expect(Object.keys(user).sort()).toEqual(
      ['email', 'events', 'global_admin', 'id', 'is_organizer', 'is_participant', 'name'].sort(),
    );
    expect(user).toMatchObject({
      email: 'ada@example.org',
      name: 'Ada Lovelace',
      global_admin: false,
      is_organizer: true,
      is_participant: false,
    });
    expect((user.events as { name: string; role: string }[]).map((e) => [e.name, e.role])).toEqual([
      ['Signin Camp', 'ops'],
    ]);

    const res = await me(result.access_token);
    expect(res.status).toBe(200);
    const profile = (await res.json()) as Record<string, unknown>;
    const { events: _events, ...fields } = user;
    expect(profile).toEqual(fields);

    const audits = await t.deps.db.select().from(auditLog).where(sql`${auditLog.action} = 'session.create'`);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorUserId: user.id,
      credentialKind: 'mobile',
      credentialName: 'Test phone',
      targetType: 'mobile_token',
      metadata: { method: 'email', client_id: 'muster-mobile', device_name: 'Test phone' },
    });
  });

  it('accepts a loopback redirect URI on any port (RFC 8252 §7.3) and the JSON body of the contract', async () => {
    const auth = await authorize('grace@example.org', 'http://127.0.0.1:49152/callback');
    const res = await postSession({
      code: auth.code,
      redirect_uri: auth.redirectUri,
      code_verifier: auth.verifier,
      device_name: '  ',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token: string; user: { email: string; events: unknown[] } };
    secrets.push(body.token);
    expect(body.user.email).toBe('grace@example.org');
    expect(body.user.events).toEqual([]);
    expect((await me(body.token)).status).toBe(200);
  });
});

describe('POST /session refusals', () => {
  it('a code works once; presenting it again is 401 and revokes the token issued for it', async () => {
    const auth = await authorize('ada@example.org');
    const first = await exchange(auth);
    const { access_token } = await oauth.processAuthorizationCodeResponse(as, client, first);
    secrets.push(access_token);
    expect((await me(access_token)).status).toBe(200);

    // The client rotated its token meanwhile: the successor is revoked too.
    const refreshed = await fetch(`${t.api}/session/refresh`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(refreshed.status).toBe(200);
    const successor = ((await refreshed.json()) as { token: string }).token;
    secrets.push(successor);
    expect((await me(successor)).status).toBe(200);

    const again = await exchange(auth);
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual(INVALID);
    expect((await me(access_token)).status).toBe(401);
    expect((await me(successor)).status).toBe(401);
    const [audit] = await t.deps.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'session.code_replayed'`);
    expect((audit!.metadata as { revoked_token_ids: number[] }).revoked_token_ids).toHaveLength(1);
  });

  it('parallel exchanges of one code: exactly one succeeds', async () => {
    const auth = await authorize('grace@example.org');
    const body = { code: auth.code, redirect_uri: auth.redirectUri, code_verifier: auth.verifier };
    const results = await Promise.all(Array.from({ length: 5 }, () => postSession(body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('a wrong code_verifier is 401 and burns the code', async () => {
    const auth = await authorize('ada@example.org');
    const wrong = await exchange(auth, { verifier: oauth.generateRandomCodeVerifier() });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual(INVALID);
    const right = await exchange(auth);
    expect(right.status).toBe(401);
  });

  it('a different redirect_uri is 401', async () => {
    const auth = await authorize('grace@example.org');
    const res = await exchange(auth, { redirectUri: 'http://127.0.0.1/callback' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(INVALID);
  });

  it('another client_id is 401', async () => {
    const auth = await authorize('alan@example.org');
    const res = await postSession({
      code: auth.code,
      redirect_uri: auth.redirectUri,
      code_verifier: auth.verifier,
      client_id: 'someone-else',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(INVALID);
  });

  it('an expired code (older than 10 minutes) is 401', async () => {
    const auth = await authorize('alan@example.org');
    await t.deps.db.execute(
      sql`UPDATE authorization_codes SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
    );
    const res = await exchange(auth);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(INVALID);
  });

  it('an unknown code is 401; a malformed request is 422 or 400', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const unknown = await postSession({
      code: 'x'.repeat(43),
      redirect_uri: 'muster://oauth/callback',
      code_verifier: verifier,
    });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual(INVALID);

    const short = await postSession({
      code: 'x',
      redirect_uri: 'muster://oauth/callback',
      code_verifier: 'short',
    });
    expect(short.status).toBe(422);
    expect(await short.json()).toHaveProperty('error');

    const missing = await postSession({ code: 'x' });
    expect(missing.status).toBe(422);

    const extra = await postSession({
      code: 'x',
      redirect_uri: 'muster://oauth/callback',
      code_verifier: verifier,
      scope: 'admin',
    });
    expect(extra.status).toBe(422);

    const grant = await postSession({
      grant_type: 'client_credentials',
      code: 'x',
      redirect_uri: 'muster://oauth/callback',
      code_verifier: verifier,
    });
    expect(grant.status).toBe(422);

    const badJson = await fetch(`${t.api}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"code":',
    });
    expect(badJson.status).toBe(400);

    const repeated = await fetch(`${t.api}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'code=a&code=b',
    });
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toHaveProperty('error');
  });
});

describe('secrets at rest and in logs', () => {
  it('no code, verifier or token appears in the database or the logs', async () => {
    expect(secrets.length).toBeGreaterThan(20);
    const dump = await databaseText(t.deps);
    const logs = t.logs.join('\n');
    expect(logs).toContain('/api/v1/oauth/authorize');
    for (const secret of secrets) {
      expect(containsSecret(dump, secret), `database holds ${secret}`).toBe(false);
      expect(containsSecret(logs, secret), `logs hold ${secret}`).toBe(false);
    }
    // Request logs of the sign-in routes carry no query strings.
    expect(logs).not.toMatch(/oauth\/authorize\?/);
  });
});
