/**
 * GET /oauth/authorize and the sign-in forms: validation order of RFC 6749 §4.1.2.1 (untrusted
 * client or redirect URI → error page, never a redirect; other errors → redirect with
 * `error` and `state`), PKCE S256 only, the strict CSP, accessibility basics, HTML for browsers and
 * `{error}` JSON for everyone else.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInRequests } from '../../src/db/schema/index.js';
import {
  authorizeUrl,
  clientParams,
  formFields,
  getPage,
  makeUser,
  postForm,
  requestCode,
  type SigninApp,
  startSigninApp,
} from './harness.js';

let t: SigninApp;

beforeAll(async () => {
  t = await startSigninApp();
  await makeUser(t.deps, 'ada@example.org', { name: 'Ada <script>alert(1)</script>' });
});
afterAll(async () => {
  await t?.close();
});

async function requestCount(): Promise<number> {
  const res = await t.deps.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${signInRequests}`);
  return res.rows[0]!.n;
}

describe('GET /oauth/authorize', () => {
  it('renders an accessible sign-in page with a strict CSP', async () => {
    const res = await getPage(authorizeUrl(t, clientParams()));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; style-src 'self'; img-src 'self'; /);
    expect(csp).toContain("form-action 'self' muster:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    const html = await res.text();
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<label for="email">Email address</label>');
    expect(html).toMatch(
      /<input id="email" name="email" type="email"[^>]* autocomplete="email"[^>]* required/,
    );
    // The site's layout and stylesheet, nothing from elsewhere, no scripts.
    expect(html).toContain('<title>Sign in · Muster</title>');
    expect(html).toContain('<link rel="stylesheet" href="/assets/muster.css">');
    expect(html).toContain('<main id="main" tabindex="-1">');
    expect(html).not.toMatch(/<script|<img|src=|https?:\/\//);
    const { fields } = formFields(html);
    expect(fields).toEqual({ ...clientParams(), email: '' });
    // No upstream provider configured: no button.
    expect(html).not.toContain('Sign in with');
  });

  it('escapes what it echoes', async () => {
    const res = await getPage(authorizeUrl(t, clientParams({ state: '"><script>alert(1)</script>' })));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('allows the registered loopback redirect URI on any port', async () => {
    const res = await getPage(
      authorizeUrl(t, clientParams({ redirect_uri: 'http://127.0.0.1:8123/callback' })),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:8123");
  });

  it.each([
    ['an unknown client', { client_id: 'nope' }],
    ['no client', { client_id: undefined }],
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/callback' }],
    ['a look-alike redirect_uri', { redirect_uri: 'muster://oauth/callback/../x' }],
    ['a redirect_uri with a suffix', { redirect_uri: 'muster://oauth/callback?x=1' }],
    ['a non-loopback http redirect_uri', { redirect_uri: 'http://localhost/callback' }],
    ['a loopback redirect_uri with another path', { redirect_uri: 'http://127.0.0.1:8123/other' }],
    ['no redirect_uri', { redirect_uri: undefined }],
  ])('%s: an error page, never a redirect', async (_label, overrides) => {
    const res = await getPage(authorizeUrl(t, { ...clientParams(), ...overrides }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('<form');

    const api = await getPage(authorizeUrl(t, { ...clientParams(), ...overrides }), 'application/json');
    expect(api.status).toBe(400);
    expect(Object.keys((await api.json()) as object)).toEqual(['error']);
  });

  it.each([
    ['no response_type', { response_type: undefined }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request'],
    ['a malformed code_challenge', { code_challenge: 'short' }, 'invalid_request'],
  ])('%s: redirect with error and state (RFC 6749 §4.1.2.1)', async (_label, overrides, error) => {
    const res = await getPage(authorizeUrl(t, { ...clientParams(), ...overrides }));
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.protocol}//${location.host}${location.pathname}`).toBe('muster://oauth/callback');
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('error_description')).toBeTruthy();
    expect(location.searchParams.get('state')).toBe('client-state-123');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('a parameter error without state redirects without state', async () => {
    const res = await getPage(
      authorizeUrl(t, { ...clientParams(), state: undefined, response_type: 'token' }),
    );
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.has('state')).toBe(false);
  });

  it('a repeated parameter is refused with an error page', async () => {
    const url = `${authorizeUrl(t, clientParams())}&redirect_uri=${encodeURIComponent('https://evil.example/')}`;
    const res = await getPage(url);
    expect(res.status).toBe(422);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe('POST /oauth/authorize/email', () => {
  it('a malformed address re-renders the form with an announced error and creates nothing', async () => {
    const before = await requestCount();
    const { res, html } = await requestCode(t, 'not-an-email');
    expect(res.status).toBe(422);
    expect(html).toContain('role="alert" id="email-error"');
    expect(html).toContain('aria-invalid="true" aria-describedby="email-error"');
    expect(html).toContain('value="not-an-email"');
    expect(await requestCount()).toBe(before);
  });

  it('tampered client fields are refused (no request, no email), with an error page', async () => {
    const before = await requestCount();
    const sent = t.smtp.received.length;
    for (const overrides of [
      { redirect_uri: 'https://evil.example/callback' },
      { client_id: 'nope' },
      { code_challenge_method: 'plain' },
    ]) {
      const { res, html } = await requestCode(t, 'ada@example.org', clientParams(overrides));
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(html).not.toContain('request_id');
    }
    expect(await requestCount()).toBe(before);
    await new Promise((r) => setTimeout(r, 1200));
    expect(t.smtp.received.length).toBe(sent);
  });

  it('unknown form fields and other content types are refused', async () => {
    const extra = await postForm(`${t.api}/oauth/authorize/email`, {
      ...clientParams(),
      email: 'a@b.co',
      x: '1',
    });
    expect(extra.status).toBe(422);
    const json = await fetch(`${t.api}/oauth/authorize/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: 'email=a@b.co',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toHaveProperty('error');
  });

  it('names are escaped in the emailed code', async () => {
    const before = t.smtp.received.length;
    await requestCode(t, 'ada@example.org');
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('ada@example.org') && t.smtp.received.indexOf(m) >= before,
    );
    expect(mail.html).not.toContain('<script>');
  });
});

describe('upstream routes without an upstream provider', () => {
  it('POST /oauth/authorize/oidc and the callback are 404', async () => {
    const start = await postForm(`${t.api}/oauth/authorize/oidc`, clientParams(), 'application/json');
    expect(start.status).toBe(404);
    expect(await start.json()).toEqual({ error: 'Sign-in with an external provider is not configured' });
    const cb = await getPage(`${t.api}/oauth/oidc/callback?code=x&state=y`);
    expect(cb.status).toBe(404);
    expect(cb.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
