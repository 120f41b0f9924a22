/**
 * Bad requests on the own-record and guardian-portal routes (quality.md "Fuzz"): malformed JSON,
 * wrong body types, huge strings, NUL characters, odd path ids and tokens, wrong content types →
 * never a 5xx, always an `{error}` body on refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { giveToken } from './tokens.js';

let t: TestApp;
let world: World;
let token: string;
let ip = 0;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
  token = await giveToken(t.deps.db, world.guardianA);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const HUGE = 'x'.repeat(100_000);
const NUL = 'a\u0000b';
const BODIES: { payload: string; type?: string }[] = [
  { payload: '{' },
  { payload: '[]' },
  { payload: 'null' },
  { payload: '"text"' },
  { payload: '42' },
  { payload: JSON.stringify({ personal: { preferred_name: NUL } }) },
  { payload: JSON.stringify({ accessibility: { [NUL]: NUL } }) },
  { payload: JSON.stringify({ guardians: [{ name: NUL, email: 'g@example.org' }] }) },
  { payload: JSON.stringify({ name: NUL, signature_name: NUL }) },
  {
    payload: JSON.stringify({
      emergency_contacts: [{ name: 'A', phone: '+447700900123', relationship: NUL }],
    }),
  },
  { payload: JSON.stringify({ personal: { preferred_name: HUGE }, name: HUGE, signature_name: HUGE }) },
  { payload: JSON.stringify({ personal: { date_of_birth: '0000-00-00' }, media_permission: ['granted'] }) },
  {
    payload: JSON.stringify({
      travel_inbound: { mode: 'plane', legs: [{ departure_time: '2026-02-30T25:00:00Z' }] },
    }),
  },
  { payload: JSON.stringify({ phone: { nested: true }, relationship: 7 }) },
  { payload: 'a=b', type: 'application/x-www-form-urlencoded' },
  { payload: 'hello', type: 'text/plain' },
];
const IDS = ['-1', '0', '1e5', '99999999999999999999', 'abc', '%F0%9F%99%82', '1.5', '%00'];
const TOKENS = [
  'short',
  '%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00',
  'x'.repeat(1000),
  '..%2F..%2Fetc',
];

describe('own record and guardian portal never answer 5xx to bad input', () => {
  it('bodies × routes', { timeout: 120_000 }, async () => {
    const pe = world.regs.adultA.id;
    const routes: { method: 'PATCH' | 'POST'; url: string; secret?: string }[] = [
      { method: 'PATCH', url: `/api/v1/registrations/${pe}`, secret: world.users.participant.mobile },
      { method: 'PATCH', url: `/api/v1/guardian/${token}` },
      { method: 'POST', url: `/api/v1/guardian/${token}/complete` },
      { method: 'POST', url: `/api/v1/guardian/${token}/consents/1/sign` },
    ];
    for (const route of routes) {
      for (const body of BODIES) {
        ip += 1;
        const res = await t.app.inject({
          method: route.method,
          url: route.url,
          remoteAddress: `192.0.2.${ip % 250}`,
          headers: { ...bearer(route.secret), 'content-type': body.type ?? 'application/json' },
          payload: body.payload,
        });
        const label = `${route.method} ${route.url} ${body.payload.slice(0, 60)}`;
        expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        if (res.statusCode >= 400) {
          // `{error}`; a 422 of a record write also lists its field problems (problems.test.ts).
          const { error, problems, ...rest } = res.json() as {
            error: string;
            problems?: { field: string; message: string }[];
          };
          expect(rest, label).toEqual({});
          expect(typeof error, label).toBe('string');
          if (problems !== undefined) expect(problems.map((p) => p.message).join('; '), label).toBe(error);
        }
      }
    }
  });

  it('odd path ids and tokens', { timeout: 120_000 }, async () => {
    for (const id of IDS) {
      for (const method of ['GET', 'PATCH'] as const) {
        const res = await t.app.inject({
          method,
          url: `/api/v1/registrations/${id}`,
          headers: bearer(world.users.participant.mobile),
          ...(method === 'PATCH' ? { payload: {} } : {}),
        });
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json()).toEqual({ error: 'Registration not found' });
      }
    }
    for (const bad of TOKENS) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['PATCH', ''],
        ['POST', '/complete'],
        ['POST', '/consents/1/sign'],
      ] as const) {
        ip += 1;
        const res = await t.app.inject({
          method,
          url: `/api/v1/guardian/${bad}${suffix}`,
          remoteAddress: `192.0.2.${ip % 250}`,
          ...(method === 'GET' ? {} : { payload: { signature_name: 'x' } }),
        });
        expect(res.statusCode, `${method} ${bad.slice(0, 20)}${suffix}`).toBe(404);
        expect(Object.keys(res.json())).toEqual(['error']);
      }
    }
  });
});
