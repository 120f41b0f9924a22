/**
 * Bad requests on every registration route (quality.md "Fuzz"): malformed JSON, wrong body types,
 * huge strings, odd path ids, wrong content type → never a 5xx, always an `{error}` body
 * (invite failures also carry `success:false`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const HUGE = 'x'.repeat(100_000);
const BODIES: { payload: string; type?: string }[] = [
  { payload: '{' },
  { payload: '[]' },
  { payload: 'null' },
  { payload: '"text"' },
  { payload: '42' },
  { payload: JSON.stringify({ email: 1, invitation_token: 2, signature_name: 3, reason: 4 }) },
  { payload: JSON.stringify({ email: [HUGE], invitation_token: HUGE, signature_name: HUGE, reason: HUGE }) },
  { payload: JSON.stringify({ email: `${HUGE}@example.com` }) },
  { payload: JSON.stringify({ invitation_token: '\u0000\u202e🙂' }) },
  { payload: JSON.stringify({ extra: true }) },
  { payload: 'email=a@b.c', type: 'application/x-www-form-urlencoded' },
  { payload: 'hello', type: 'text/plain' },
];
const IDS = ['-1', '0', '1e5', '99999999999999999999', 'abc', '%F0%9F%99%82', '1.5'];

function routes(): { url: string; secret: string }[] {
  const A = world.events.A.id;
  const pe = world.regs.adultA.id;
  const admin = world.secrets.admin!;
  const mine = world.secrets.participant!;
  const out = [
    { url: `/api/v1/events/${A}/participants`, secret: admin },
    { url: '/api/v1/registrations', secret: mine },
    ...['withdraw', 'reinstate', 'reject'].map((a) => ({
      url: `/api/v1/events/${A}/participants/${pe}/${a}`,
      secret: admin,
    })),
    { url: `/api/v1/registrations/${pe}/withdraw`, secret: mine },
    { url: `/api/v1/consents/1/sign`, secret: mine },
  ];
  for (const id of IDS) {
    out.push({ url: `/api/v1/registrations/${id}/submit`, secret: mine });
    out.push({ url: `/api/v1/consents/${id}/sign`, secret: mine });
    out.push({ url: `/api/v1/events/${A}/participants/${id}/withdraw`, secret: admin });
  }
  return out;
}

describe('registration routes under bad input', () => {
  it('never answer 5xx and always answer {error}', async () => {
    let count = 0;
    for (const route of routes()) {
      for (const body of BODIES) {
        const res = await t.app.inject({
          method: 'POST',
          url: route.url,
          payload: body.payload,
          headers: { ...bearer(route.secret), 'content-type': body.type ?? 'application/json' },
        });
        count += 1;
        expect(
          res.statusCode,
          `${route.url} ${body.payload.slice(0, 40)} → ${res.body.slice(0, 200)}`,
        ).toBeLessThan(500);
        if (res.statusCode >= 400) expect(typeof res.json().error).toBe('string');
      }
    }
    for (const id of IDS) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/tickets/${id}`,
        headers: bearer(world.secrets.participant),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Registration not found' });
    }
    expect(count).toBeGreaterThan(300);
  }, 120_000);
});
