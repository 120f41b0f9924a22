/**
 * Upstream OpenID Connect: a real local oidc-provider is the upstream identity
 * provider; Muster's sign-in page offers it, Muster exchanges its code with openid-client, matches
 * the user by verified email and never creates one, then issues its own authorization code, which
 * a standard OAuth client (oauth4webapi) exchanges at POST /session.
 */
import { sql } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, authorizationCodes, users } from '../../src/db/schema/index.js';
import {
  ban,
  containsSecret,
  formFields,
  freePort,
  getPage,
  makeUser,
  postForm,
  type SigninApp,
  startSigninApp,
} from './harness.js';
import { startProvider, type TestProvider } from './provider.js';

const ACCOUNTS: Record<string, { email: string; email_verified: boolean }> = {
  ada: { email: 'Ada@Example.org', email_verified: true },
  stranger: { email: 'stranger@example.org', email_verified: true },
  unverified: { email: 'ada@example.org', email_verified: false },
  banned: { email: 'banned@example.org', email_verified: true },
};
const CLIENT_SECRET = 'upstream-client-secret-0123456789abcdef';

let t: SigninApp;
let idp: TestProvider;
let issuer: string;
const seen: string[] = [];

beforeAll(async () => {
  const [musterPort, idpPort] = [await freePort(), await freePort()];
  idp = await startProvider(
    idpPort,
    [
      {
        client_id: 'muster',
        client_secret: CLIENT_SECRET,
        redirect_uris: [`http://127.0.0.1:${musterPort}/api/v1/oauth/oidc/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    ACCOUNTS,
  );
  issuer = idp.issuer;
  t = await startSigninApp({
    port: musterPort,
    env: {
      MUSTER_OIDC_ISSUER: issuer,
      MUSTER_OIDC_CLIENT_ID: 'muster',
      MUSTER_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    },
  });
  const admin = await makeUser(t.deps, 'ada@example.org', { name: 'Ada', globalAdmin: true });
  await makeUser(t.deps, 'banned@example.org');
  await ban(t.deps, ['banned@example.org'], admin.id);
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

interface Attempt {
  /** Muster's answer to the provider's redirect back. */
  callback: Response;
  callbackUrl: string;
  verifier: string;
  state: string;
}

/**
 * A browser: Muster's sign-in page → "Sign in with …" → the provider (cookies kept, logins
 * answered by the interaction handler above) → Muster's callback. Returns Muster's callback answer.
 */
async function upstreamSignIn(login: string | 'deny'): Promise<Attempt> {
  idp.nextLogin = login;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(`${t.api}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: 'muster-mobile',
    redirect_uri: 'muster://oauth/callback',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  }))
    url.searchParams.set(k, v);
  const page = await getPage(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain(`Sign in with ${new URL(issuer).host}`);
  expect(page.headers.get('content-security-policy')).toContain(`form-action 'self' muster: ${issuer}`);
  const form = formFields(html, '/authorize/oidc');
  const res = await postForm(new URL(form.action, t.origin).href, form.fields);
  expect(res.status).toBe(302);

  const location = await idp.walk(new URL(res.headers.get('location')!, issuer));
  expect(location.href.startsWith(`${t.api}/oauth/oidc/callback`)).toBe(true);
  seen.push(location.searchParams.get('code') ?? '', location.searchParams.get('state') ?? '');
  return { callback: await getPage(location), callbackUrl: location.href, verifier, state };
}

async function authorizationCodeCount(): Promise<number> {
  return (await t.deps.db.select().from(authorizationCodes)).length;
}

describe('sign-in with the upstream provider', () => {
  it('matches the user by verified email and issues a Muster code that POST /session exchanges', async () => {
    const attempt = await upstreamSignIn('ada');
    expect(attempt.callback.status).toBe(302);
    const location = new URL(attempt.callback.headers.get('location')!);
    expect(location.href.startsWith('muster://oauth/callback?')).toBe(true);

    const as: oauth.AuthorizationServer = { issuer: t.origin, token_endpoint: `${t.api}/session` };
    const client: oauth.Client = { client_id: 'muster-mobile' };
    const params = oauth.validateAuthResponse(as, client, location, attempt.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      'muster://oauth/callback',
      attempt.verifier,
      { [oauth.allowInsecureRequests]: true },
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    seen.push(params.get('code')!, tokens.access_token, attempt.verifier);
    const me = await fetch(`${t.api}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'ada@example.org', global_admin: true });
    const [audit] = await t.deps.db.select().from(auditLog).where(sql`${auditLog.action} = 'session.create'`);
    expect(audit!.metadata).toMatchObject({ method: 'oidc', client_id: 'muster-mobile' });

    // The provider's redirect works once.
    const replay = await getPage(attempt.callbackUrl);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('not valid or was already used');
  });

  it('refuses an address without a Muster account and creates nothing', async () => {
    const usersBefore = (await t.deps.db.select().from(users)).length;
    const codesBefore = await authorizationCodeCount();
    const attempt = await upstreamSignIn('stranger');
    expect(attempt.callback.status).toBe(403);
    expect(attempt.callback.headers.get('location')).toBeNull();
    const html = await attempt.callback.text();
    expect(html).toContain('There is no Muster account you can sign in to with stranger@example.org');
    expect(html).toContain('Start again');
    expect((await t.deps.db.select().from(users)).length).toBe(usersBefore);
    expect(await authorizationCodeCount()).toBe(codesBefore);
  });

  it('refuses an email the provider does not assert as verified', async () => {
    const codesBefore = await authorizationCodeCount();
    const attempt = await upstreamSignIn('unverified');
    expect(attempt.callback.status).toBe(403);
    expect(await attempt.callback.text()).toContain('did not confirm that your email address is verified');
    expect(await authorizationCodeCount()).toBe(codesBefore);
  });

  it('refuses a banned participant', async () => {
    const attempt = await upstreamSignIn('banned');
    expect(attempt.callback.status).toBe(403);
  });

  it('reports a refusal at the provider', async () => {
    const attempt = await upstreamSignIn('deny');
    expect(attempt.callback.status).toBe(400);
    expect(await attempt.callback.text()).toContain('was cancelled or refused');
  });

  it('refuses forged callbacks', async () => {
    const unknown = await getPage(`${t.api}/oauth/oidc/callback?code=abc&state=forged`, 'application/json');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      error: 'This sign-in link is not valid or was already used. Go back to the app and start again.',
    });
    const none = await getPage(`${t.api}/oauth/oidc/callback`);
    expect(none.status).toBe(400);
  });

  it('keeps upstream codes, states and Muster secrets out of the logs', () => {
    const logs = t.logs.join('\n');
    expect(logs).toContain('/api/v1/oauth/oidc/callback');
    for (const secret of seen.filter((s) => s.length > 10)) {
      expect(containsSecret(logs, secret), `logs hold ${secret}`).toBe(false);
    }
  });
});
