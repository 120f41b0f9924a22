/**
 * Generated odd bodies for POST /series/{s}/events and PATCH /series/{s}/events/{e} (quality.md
 * "Fuzz"): whatever the values, the answer is never a 5xx and always the `{error}` envelope or an
 * event.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearer } from '../support/app.js';
import { withWorld } from './harness.js';

const env = withWorld();

const FIELDS = [
  'name',
  'support_email',
  'slug',
  'timezone',
  'starts_at',
  'ends_at',
  'registration_open_at',
  'registration_close_at',
  'venue_name',
  'location_latitude',
  'location_longitude',
  'event_series_id',
  'modules',
];
const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '0001-01-01T00:00',
    '9999-12-31T23:59:59',
    '2026-03-29T01:30',
    'Europe/London',
    'x@muster.example',
    'X@MUSTER.EXAMPLE',
    'current',
    '%',
    '\u0000',
    'a'.repeat(5000),
  ),
);
const value = fc.oneof(oddString, fc.jsonValue({ maxDepth: 2 }), fc.double(), fc.constant(null));
const body = fc.dictionary(fc.constantFrom(...FIELDS, 'logo_url', 'x'), value, { maxKeys: 6 });

function expectSane(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBeLessThan(500);
  const json = res.json() as Record<string, unknown>;
  if (res.statusCode >= 400) expect(Object.keys(json)).toEqual(['error']);
  else expect(Object.keys(json)).toEqual(['event']);
}

describe('odd event bodies', () => {
  it('POST never answers 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (event) => {
        const res = await env.t.app.inject({
          method: 'POST',
          url: '/api/v1/series/current/events',
          headers: bearer(env.w.secrets.seriesKeyS1),
          payload: { event: { name: 'Fuzz', support_email: 'f@muster.example', ...event } },
        });
        expectSane(res);
      }),
      { numRuns: 150 },
    );
  }, 300_000);

  it('PATCH never answers 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (event) => {
        const res = await env.t.app.inject({
          method: 'PATCH',
          url: `/api/v1/series/current/events/${env.w.events.B.id}`,
          headers: bearer(env.w.secrets.seriesKeyS1),
          payload: { event },
        });
        expectSane(res);
      }),
      { numRuns: 150 },
    );
  }, 300_000);
});
