/**
 * POST /session with an upstream provider's authorization code, as the deployed mobile app signs
 * in (mobile-app.md §2): the app runs the authorization code flow with PKCE (S256, a 128-character
 * verifier, scope `email`, redirect `attend://oauth/callback`) against a real local oidc-provider,
 * then posts the provider's code; Muster redeems it with its client secret and the app's verifier,
 * reads the provider's userinfo, and matches the user by verified email. Muster's own codes keep
 * working in the same endpoint.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { auditLog, people, users } from '../../src/db/schema/index.js';
import {
  ban,
  clientParams,
  codeFor,
  containsSecret,
  freePort,
  makeEvent,
  makeRegistrant,
  makeUser,
  requestCode,
  type SigninApp,
  startSigninApp,
  verify,
} from './harness.js';
import { appAuthorize, startProvider, type TestProvider } from './provider.js';

const CLIENT_SECRET = 'upstream-app-secret-0123456789abcdef';
const APP_REDIRECT = 'attend://oauth/callback';
const ACCOUNTS = {
  ada: { email: 'Ada@Example.org', email_verified: true },
  stranger: { email: 'stranger@example.org', email_verified: true },
  unverified: { email: 'ada@example.org', email_verified: false },
  banned: { email: 'banned@example.org', email_verified: true },
  pat: { email: 'pat@example.org', email_verified: true },
  rejected: { email: 'rejected@example.org', email_verified: true },
};

let t: SigninApp;
let idp: TestProvider;
const seen: string[] = [CLIENT_SECRET];

beforeAll(async () => {
  idp = await startProvider(
    await freePort(),
    [
      {
        client_id: 'attend-app',
        client_secret: CLIENT_SECRET,
        application_type: 'native',
        redirect_uris: [APP_REDIRECT, 'attend://other'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    ACCOUNTS,
  );
  t = await startSigninApp({
    env: {
      MUSTER_UPSTREAM_TOKEN_URL: `${idp.issuer}/token`,
      MUSTER_UPSTREAM_USERINFO_URL: `${idp.issuer}/userinfo-oauth2`,
      MUSTER_UPSTREAM_CLIENT_ID: 'attend-app',
      MUSTER_UPSTREAM_CLIENT_SECRET: CLIENT_SECRET,
      MUSTER_UPSTREAM_REDIRECT_URIS: `${APP_REDIRECT}, https://app.example/cb`,
    },
  });
  const event = await makeEvent(t.deps);
  const admin = await makeUser(t.deps, 'ada@example.org', { name: 'Ada', opsOf: event.id });
  await makeUser(t.deps, 'banned@example.org');
  await ban(t.deps, ['banned@example.org'], admin.id);
  await makeRegistrant(t.deps, event.id, 'pat@example.org', 'complete', { first: 'Patricia', last: 'Doe' });
  await makeRegistrant(t.deps, event.id, 'rejected@example.org', 'rejected');
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

interface AppCode {
  code: string;
  verifier: string;
}

/** What the app does before calling Muster: the provider's authorize endpoint, login, its code. */
async function upstreamCode(login: string, redirectUri = APP_REDIRECT): Promise<AppCode> {
  const got = await appAuthorize(idp, login, 'attend-app', redirectUri);
  expect(got.verifier).toHaveLength(128);
  seen.push(got.code, got.verifier);
  return got;
}

function postSession(body: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: '/api/v1/session', payload: body });
}

const INVALID = { error: 'Invalid session or user not found' };

describe('MUSTER_UPSTREAM_* configuration', () => {
  const all = {
    MUSTER_UPSTREAM_TOKEN_URL: 'https://id.example/oauth/token',
    MUSTER_UPSTREAM_USERINFO_URL: 'https://id.example/api/v1/me',
    MUSTER_UPSTREAM_CLIENT_ID: 'app',
    MUSTER_UPSTREAM_CLIENT_SECRET: 'secret',
    MUSTER_UPSTREAM_REDIRECT_URIS: 'attend://oauth/callback, attendscanner://oauth/callback',
  };
  it('all five or none; https only off localhost; the redirect URIs are a list', () => {
    expect(loadConfig({}).upstreamExchange).toBeNull();
    expect(loadConfig(all).upstreamExchange).toMatchObject({
      clientId: 'app',
      redirectUris: ['attend://oauth/callback', 'attendscanner://oauth/callback'],
    });
    const { MUSTER_UPSTREAM_CLIENT_SECRET: _secret, ...partial } = all;
    expect(() => loadConfig(partial)).toThrow(/MUSTER_UPSTREAM_CLIENT_SECRET required/);
    expect(() => loadConfig({ ...all, MUSTER_UPSTREAM_TOKEN_URL: 'http://id.example/token' })).toThrow(
      /MUSTER_UPSTREAM_TOKEN_URL must use https/,
    );
  });
});

describe('POST /session with the upstream provider’s code', () => {
  it('signs in a staff member by verified email and answers what the app reads', async () => {
    const { code, verifier } = await upstreamCode('ada');
    const res = await postSession({ code, redirect_uri: APP_REDIRECT, code_verifier: verifier });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    seen.push(body.token);
    expect(body.user).toMatchObject({
      email: 'ada@example.org',
      name: 'Ada',
      global_admin: false,
      is_organizer: true,
      is_participant: false,
    });
    expect(typeof body.user.id).not.toBe('undefined');
    const me = await t.app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${body.token}` } });
    expect(me.json()).toMatchObject({ email: 'ada@example.org', is_organizer: true });
    const audits = await t.deps.db.select().from(auditLog).where(sql`${auditLog.action} = 'session.create'`);
    expect(audits.at(-1)!.metadata).toMatchObject({ method: 'upstream', client_id: 'attend-app' });

    // The provider's code is single use: the same body again is refused.
    const replay = await postSession({ code, redirect_uri: APP_REDIRECT, code_verifier: verifier });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual(INVALID);
  });

  it('the provider checks the app’s verifier: a wrong one is a 401', async () => {
    const { code } = await upstreamCode('ada');
    const res = await postSession({
      code,
      redirect_uri: APP_REDIRECT,
      code_verifier: randomBytes(96).toString('base64url'),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
  });

  it('a redirect URI outside MUSTER_UPSTREAM_REDIRECT_URIS is refused without spending the code', async () => {
    const { code, verifier } = await upstreamCode('ada', 'attend://other');
    const refused = await postSession({ code, redirect_uri: 'attend://other', code_verifier: verifier });
    expect(refused.statusCode).toBe(401);
    // Muster never sent it upstream: the provider still redeems it for its own redirect URI.
    const direct = await fetch(`${idp.issuer}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'attend://other',
        code_verifier: verifier,
        client_id: 'attend-app',
        client_secret: CLIENT_SECRET,
      }),
    });
    expect(direct.status).toBe(200);
  });

  it('never creates staff: an unknown address, an unverified one and a banned participant get 401', async () => {
    const usersBefore = (await t.deps.db.select().from(users)).length;
    for (const login of ['stranger', 'unverified', 'banned']) {
      const { code, verifier } = await upstreamCode(login);
      const res = await postSession({ code, redirect_uri: APP_REDIRECT, code_verifier: verifier });
      expect(res.statusCode, login).toBe(401);
      expect(res.json()).toEqual(INVALID);
    }
    expect((await t.deps.db.select().from(users)).length).toBe(usersBefore);
  });

  it('a participant on a registration gets an account at the first verified sign-in; rejected does not', async () => {
    const { code, verifier } = await upstreamCode('pat');
    const res = await postSession({ code, redirect_uri: APP_REDIRECT, code_verifier: verifier });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      email: 'pat@example.org',
      name: 'Patricia Doe',
      is_organizer: false,
      is_participant: true,
    });
    const [person] = await t.deps.db.select().from(people).where(sql`${people.email} = 'pat@example.org'`);
    expect(person!.userId).toBe(res.json().user.id);

    const rejected = await upstreamCode('rejected');
    const refused = await postSession({
      code: rejected.code,
      redirect_uri: APP_REDIRECT,
      code_verifier: rejected.verifier,
    });
    expect(refused.statusCode).toBe(401);
    expect(await t.deps.db.select().from(users).where(sql`${users.email} = 'rejected@example.org'`)).toEqual(
      [],
    );
  });

  it('codes issued by Muster’s own sign-in page still work in the same endpoint', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const params = clientParams({ code_challenge: await oauth.calculatePKCECodeChallenge(verifier) });
    const after = t.smtp.received.length;
    const { requestId } = await requestCode(t, 'ada@example.org', params);
    const back = await verify(t, requestId!, await codeFor(t.smtp, 'ada@example.org', after));
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const res = await postSession({ code, redirect_uri: params.redirect_uri, code_verifier: verifier });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('ada@example.org');
  });

  it('keeps codes, verifiers, tokens and the client secret out of the logs', () => {
    const logs = t.logs.join('\n');
    expect(logs).toContain('upstream code exchange failed');
    for (const secret of seen) expect(containsSecret(logs, secret), 'a secret is in the logs').toBe(false);
  });
});
