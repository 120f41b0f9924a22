/**
 * Airport search and flight check over HTTP (docs/travel.md "Airport search", "Flight check"),
 * with the web session cookie as the travel forms send it: exact code first, word prefixes, accents,
 * blank → [], at most 20, bearer-only → 401; flight checks against a fake AeroDataBox server (valid,
 * unknown flight, wrong date, provider down → `{valid:false, error}`), malformed → 422, no
 * provider → `format_only`, a missing CSRF token → 403.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { type FakeFlights, sector, startFakeFlights } from '../support/flights-fake.js';
import { buildWorld, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, signedInBrowser } from '../web/support.js';

let t: TestApp;
let plain: TestApp;
let app: FastifyInstance;
let fake: FakeFlights;
let world: World;
let b: Browser;
let csrf: string;

const cookie = (x: Browser) =>
  Object.entries(x.cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

beforeAll(async () => {
  fake = await startFakeFlights();
  t = await startTestApp({
    MUSTER_FLIGHTS_PROVIDER: 'aerodatabox',
    MUSTER_FLIGHTS_URL: fake.url,
    MUSTER_FLIGHTS_API_KEY: 'test-flights-key',
  });
  app = t.app;
  world = await buildWorld(t.deps);
  b = await signedInBrowser(t.deps, world.users.participant.id);
  csrf = csrfOf((await getPage(app, b, '/')).body);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await plain?.close();
  await fake?.close();
});

const search = (q: string, x: Browser = b) =>
  app.inject({
    url: `/api/v1/travel/search_airports?q=${encodeURIComponent(q)}`,
    headers: { cookie: cookie(x) },
  });
const validate = (body: unknown, target: FastifyInstance = app, x: Browser = b, token = csrf) =>
  target.inject({
    method: 'POST',
    url: '/api/v1/travel/validate_flight',
    headers: { cookie: cookie(x), 'x-csrf-token': token, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

describe('GET /travel/search_airports', () => {
  it('puts the exact IATA code first, then airports with a word starting with q', async () => {
    const res = await search('lhr');
    expect(res.statusCode).toBe(200);
    const first = res.json().airports[0];
    expect(first).toEqual({
      iata: 'LHR',
      icao: 'EGLL',
      name: 'London Heathrow Airport',
      city: 'London',
      country: 'United Kingdom',
      time_zone: 'Europe/London',
    });
  }, 60_000);

  it('finds by ICAO code, by name prefix and by city, ignoring case and accents', async () => {
    expect((await search('EGLL')).json().airports[0].iata).toBe('LHR');
    expect((await search('heath')).json().airports.map((a: { iata: string }) => a.iata)).toContain('LHR');
    const zurich = (await search('ZÜRICH')).json().airports.map((a: { iata: string }) => a.iata);
    expect(zurich[0]).toBe('ZRH');
    const sao = (await search('sao paulo')).json().airports.map((a: { iata: string }) => a.iata);
    expect(sao).toEqual(expect.arrayContaining(['GRU', 'CGH']));
    const ny = (await search('new york')).json().airports.map((a: { iata: string }) => a.iata);
    expect(ny.slice(0, 3)).toEqual(expect.arrayContaining(['JFK', 'LGA', 'EWR']));
  });

  it('answers at most 20 airports, and none for a blank query', async () => {
    const many = (await search('a')).json().airports;
    expect(many).toHaveLength(20);
    expect((await search('   ')).json()).toEqual({ airports: [] });
    const none = await app.inject({ url: '/api/v1/travel/search_airports', headers: { cookie: cookie(b) } });
    expect(none.json()).toEqual({ airports: [] });
  });

  it('is 401 with a bearer token alone, or with no credential', async () => {
    const res = await app.inject({
      url: '/api/v1/travel/search_airports?q=lhr',
      headers: bearer(world.users.admin.mobile),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized' });
    expect((await app.inject({ url: '/api/v1/travel/search_airports?q=lhr' })).statusCode).toBe(401);
  });
});

describe('POST /travel/validate_flight', () => {
  it('normalises the code and answers the provider schedule', async () => {
    fake.setFlight('BA117', '2026-07-14', [
      sector({
        code: 'BA117',
        from: 'LHR',
        to: 'JFK',
        dep: '2026-07-14T07:25:00.000Z',
        arr: '2026-07-14T15:20:00.000Z',
      }),
    ]);
    const res = await validate({ flight_code: 'ba 0117', date: '2026-07-14' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      valid: true,
      flight_code: 'BA117',
      carrier: 'British Airways',
      departure_airport: 'LHR',
      arrival_airport: 'JFK',
      departure_time: '2026-07-14T07:25:00.000Z',
      arrival_time: '2026-07-14T15:20:00.000Z',
      source: 'aerodatabox',
    });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/flights/number/BA117/2026-07-14');
    expect(sent.headers['x-rapidapi-key']).toBe('test-flights-key');
  });

  it('says plainly when the flight is unknown, the date wrong or the provider down', async () => {
    const unknown = await validate({ flight_code: 'ZZ999', date: '2026-07-14' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({
      valid: false,
      error: expect.stringContaining('could not find flight ZZ999'),
    });
    const wrongDay = await validate({ flight_code: 'BA117', date: '2026-07-15' });
    expect(wrongDay.json()).toEqual({ valid: false, error: expect.stringContaining('15 July 2026') });
    fake.failNext(1, 503);
    const down = await validate({ flight_code: 'BA117', date: '2026-07-14' });
    expect(down.statusCode).toBe(200);
    expect(down.json()).toEqual({
      valid: false,
      error: expect.stringContaining('cannot check flights right now'),
    });
    fake.failNext(1, 429);
    expect((await validate({ flight_code: 'BA117', date: '2026-07-14' })).json().valid).toBe(false);
  });

  it('refuses malformed codes and dates with 422', async () => {
    for (const body of [
      { flight_code: 'LHT', date: '2026-07-14' },
      { flight_code: 'BA12345', date: '2026-07-14' },
      { flight_code: 'BA0', date: '2026-07-14' },
      { flight_code: 'BA117', date: '2026-02-30' },
      { flight_code: 'BA117', date: 'tomorrow' },
      { flight_code: 'BA117' },
    ]) {
      const res = await validate(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(typeof res.json().error).toBe('string');
    }
  });

  it('needs the session and the page’s CSRF token', async () => {
    const bearerOnly = await app.inject({
      method: 'POST',
      url: '/api/v1/travel/validate_flight',
      headers: { ...bearer(world.users.admin.mobile), 'content-type': 'application/json' },
      payload: JSON.stringify({ flight_code: 'BA117', date: '2026-07-14' }),
    });
    expect(bearerOnly.statusCode).toBe(401);
    expect(bearerOnly.json()).toEqual({ error: 'Unauthorized' });
    const noToken = await validate({ flight_code: 'BA117', date: '2026-07-14' }, app, b, '');
    expect(noToken.statusCode).toBe(403);
    expect(typeof noToken.json().error).toBe('string');
  });

  it('checks only the form without a provider (format_only)', async () => {
    plain = await startTestApp({ MUSTER_FLIGHTS_PROVIDER: 'none' });
    const w2 = await buildWorld(plain.deps);
    const b2 = await signedInBrowser(plain.deps, w2.users.participant.id);
    const token = csrfOf((await getPage(plain.app, b2, '/')).body);
    const res = await validate({ flight_code: 'u2-0012', date: '2026-07-14' }, plain.app, b2, token);
    expect(res.json()).toEqual({
      valid: true,
      flight_code: 'U212',
      carrier: null,
      departure_airport: null,
      arrival_airport: null,
      departure_time: null,
      arrival_time: null,
      source: 'format_only',
    });
  }, 60_000);
});
