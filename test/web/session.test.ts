/**
 * The browser session of the web pages: the sign-in round trip's start (PKCE S256, state, sealed
 * cookie, only local `next`), the callback's refusals, the session cookie sealed (the token never
 * readable in it, only its digest in the database), a tampered or revoked session treated as signed
 * out, and sign-out revoking the token.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mobileTokens } from '../../src/db/schema/index.js';
import { digestSecret } from '../../src/lib/secrets.js';
import { SESSION_COOKIE, SIGNIN_COOKIE, type SigninState, safeNext } from '../../src/modules/web/session.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { anonymousBrowser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /signin', () => {
  it('starts a PKCE round trip to the sign-in page with a sealed state cookie', async () => {
    const browser = anonymousBrowser();
    const res = await getPage(app, browser, '/signin?next=%2Fregister%2F1');
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location), 'http://x');
    expect(url.pathname).toBe('/api/v1/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe('muster-web');
    expect(url.searchParams.get('redirect_uri')).toBe(`${t.deps.config.baseUrl}/signin/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const cookie = res.cookies.find((c) => c.name === SIGNIN_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/signin', maxAge: 600 });
    const state = t.deps.sealer.unseal<SigninState>(cookie.value);
    expect(state.state).toBe(url.searchParams.get('state'));
    expect(state.next).toBe('/register/1');
    expect(cookie.value).not.toContain(state.verifier);
    // The sign-in page accepts the request (the web client is registered).
    const page = await app.inject({ method: 'GET', url: String(res.headers.location) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Sign in to Muster');
  });

  it('only continues to local paths', () => {
    expect(safeNext('/register/5?x=1')).toBe('/register/5?x=1');
    for (const bad of ['https://evil.example/', '//evil.example', '/\\evil', 'register', undefined, '/a b'])
      expect(safeNext(bad)).toBe('/');
  });

  it('refuses a callback whose state does not match the cookie', async () => {
    const browser = anonymousBrowser();
    await getPage(app, browser, '/signin');
    const res = await getPage(app, browser, '/signin/callback?code=abc&state=wrong');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('This sign-in link does not belong to this browser');
  });
});

describe('session cookie', () => {
  it('is sealed: the token is not in it, and the database holds only its digest', async () => {
    const browser = await signedInBrowser(t.deps, world.users.participant.id);
    const sealed = browser.cookies[SESSION_COOKIE]!;
    expect(sealed).not.toContain(browser.token);
    expect(sealed).toMatch(/^v1\./);
    const rows = await t.deps.db
      .select({ digest: mobileTokens.tokenDigest })
      .from(mobileTokens)
      .where(eq(mobileTokens.tokenDigest, digestSecret(browser.token)));
    expect(rows).toHaveLength(1);
    const plain = await t.deps.db.execute(
      sql`SELECT 1 FROM mobile_tokens WHERE token_digest = ${browser.token}`,
    );
    expect(plain.rows).toHaveLength(0);
    const home = await getPage(app, browser, '/');
    expect(home.body).toContain('Signed in as participant@muster.test');
  });

  it('treats a tampered cookie as signed out', async () => {
    const browser = await signedInBrowser(t.deps, world.users.participant.id);
    const value = browser.cookies[SESSION_COOKIE]!;
    browser.cookies[SESSION_COOKIE] = `${value.slice(0, -4)}AAAA`;
    const res = await getPage(app, browser, `/register/${world.regs.adultA.id}`);
    expect(res.statusCode).toBe(302);
    expect(String(res.headers.location)).toMatch(/^\/signin\?next=/);
  });

  it('sign-out revokes the token and clears the cookie; the old cookie no longer works', async () => {
    const browser = await signedInBrowser(t.deps, world.users.participant.id);
    const kept = browser.cookies[SESSION_COOKIE]!;
    const home = await getPage(app, browser, '/');
    const res = await postForm(app, browser, '/signout', {}, csrfOf(home.body));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('You have signed out');
    expect(browser.cookies[SESSION_COOKIE]).toBeUndefined();
    const [row] = await t.deps.db
      .select({ revokedAt: mobileTokens.revokedAt })
      .from(mobileTokens)
      .where(eq(mobileTokens.tokenDigest, digestSecret(browser.token)));
    expect(row!.revokedAt).not.toBeNull();
    const replay = await getPage(
      app,
      { cookies: { [SESSION_COOKIE]: kept } },
      `/register/${world.regs.adultA.id}`,
    );
    expect(replay.statusCode).toBe(302);
  });

  it('pages are HTML with a strict CSP and no-store', async () => {
    const res = await getPage(app, anonymousBrowser(), '/');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('every page has a title, the home page included', async () => {
    const home = await getPage(app, anonymousBrowser(), '/');
    expect(home.body).toContain('<title>Home · Muster</title>');
    expect(home.body).not.toContain('undefined');
  });
});
