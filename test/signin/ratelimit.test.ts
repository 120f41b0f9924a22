/**
 * Rate limits (quality.md "rate limits on sign-in and code requests"): per address (5 per 10
 * minutes, 20 per day; the same for addresses with and without an account), per IP on every
 * sign-in route. 429 with Retry-After; an HTML page for browsers, `{error}` otherwise.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../src/modules/signin/signin.http.js';
import {
  authorizeUrl,
  clientParams,
  getPage,
  makeUser,
  postForm,
  type SigninApp,
  startSigninApp,
  verify,
} from './harness.js';

let t: SigninApp;
let codeRequests = 0;

beforeAll(async () => {
  t = await startSigninApp();
  await makeUser(t.deps, 'known@example.org');
});
afterAll(async () => {
  await t?.close();
});

function request(address: string, accept = 'text/html') {
  codeRequests += 1;
  return postForm(`${t.api}/oauth/authorize/email`, { ...clientParams(), email: address }, accept);
}

describe('code requests per address', () => {
  it.each(['known@example.org', 'unknown@example.org'])('%s: 5 per 10 minutes, then 429', async (address) => {
    for (let i = 0; i < 5; i++) expect((await request(address)).status).toBe(200);
    const page = await request(address.toUpperCase());
    expect(page.status).toBe(429);
    const retryAfter = Number(page.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Too many codes were requested for this address');

    const api = await request(address, 'application/json');
    expect(api.status).toBe(429);
    expect(api.headers.get('retry-after')).toBeTruthy();
    expect(await api.json()).toEqual({
      error: 'Too many codes were requested for this address. Try again later.',
    });
  });

  it('20 per day', async () => {
    await t.deps.db.execute(sql`
      INSERT INTO sign_in_requests (method, email, client_id, redirect_uri, code_challenge, expires_at, created_at)
      SELECT 'email', 'daily@example.org', 'muster-mobile', 'muster://oauth/callback', ${clientParams().code_challenge},
             now() - interval '110 minutes', now() - interval '2 hours'
        FROM generate_series(1, 20)`);
    const res = await request('daily@example.org', 'application/json');
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(21 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(22 * 3600);
  });
});

describe('per IP', () => {
  it(`code requests: ${RATE_LIMITS.codeRequestsPerIp.max} per 10 minutes`, async () => {
    while (codeRequests < RATE_LIMITS.codeRequestsPerIp.max) {
      const res = await request(`someone-${codeRequests}@example.org`, 'application/json');
      expect(res.status).toBe(200);
    }
    const res = await request('fresh@example.org', 'application/json');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toHaveProperty('error');
  }, 60_000);

  it(`code checks: ${RATE_LIMITS.verifyPerIp.max} per 10 minutes`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMITS.verifyPerIp.max; i++) {
      statuses.push(
        (await verify(t, '00000000-0000-4000-8000-000000000000', '123456', 'application/json')).status,
      );
    }
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const page = await verify(t, '00000000-0000-4000-8000-000000000000', '123456');
    expect(page.status).toBe(429);
    expect(page.headers.get('retry-after')).toBeTruthy();
    expect(await page.text()).toContain('Too many attempts');
  });

  it(`POST /session: ${RATE_LIMITS.sessionPerIp.max} per minute`, async () => {
    const body = JSON.stringify({
      code: 'x',
      redirect_uri: 'muster://oauth/callback',
      code_verifier: 'v'.repeat(43),
    });
    const post = () =>
      fetch(`${t.api}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    for (let i = 0; i < RATE_LIMITS.sessionPerIp.max; i++) expect((await post()).status).toBe(401);
    const res = await post();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(await res.json()).toHaveProperty('error');
  });

  it(`the sign-in page: ${RATE_LIMITS.authorizePage.max} per minute`, async () => {
    const url = authorizeUrl(t, clientParams());
    for (let i = 0; i < RATE_LIMITS.authorizePage.max; i++)
      await (await getPage(url, 'application/json')).text();
    const res = await getPage(url);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
  });
});
