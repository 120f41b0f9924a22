/** src/lib/zoned-time.ts: IANA zone names and wall-clock times read in a zone (docs/decisions.md "Series, events and bans"). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, zonedToInstant, zoneOffsetMs } from '../../src/lib/zoned-time.js';

describe('canonicalTimeZone', () => {
  it.each([
    ['Europe/London', 'Europe/London'],
    ['europe/london', 'Europe/London'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['Asia/Kolkata', 'Asia/Kolkata'], // not renamed to ICU's Asia/Calcutta
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
  ])('%s → %s', (input, out) => expect(canonicalTimeZone(input)).toBe(out));

  it.each(['Mars/Olympus', '+01:00', 'UTC+1', '', 'Europe/London ', '../etc/passwd', 'x'.repeat(65)])(
    'refuses %j',
    (input) => expect(canonicalTimeZone(input)).toBeNull(),
  );
});

describe('zonedToInstant', () => {
  it.each([
    ['2026-07-10T09:00', 'Europe/London', '2026-07-10T08:00:00.000Z'],
    ['2026-01-10T09:00', 'Europe/London', '2026-01-10T09:00:00.000Z'],
    ['2026-01-10T09:00:00', 'America/New_York', '2026-01-10T14:00:00.000Z'],
    ['2026-07-10', 'Asia/Kolkata', '2026-07-09T18:30:00.000Z'],
    ['2026-07-10T09:00:00.250', 'Asia/Tokyo', '2026-07-10T00:00:00.250Z'],
    ['2026-07-10T09:00:00Z', 'Asia/Tokyo', '2026-07-10T09:00:00.000Z'],
    ['2026-07-10T09:00:00+02:00', 'Asia/Tokyo', '2026-07-10T07:00:00.000Z'],
    ['2026-07-10T09:00:00-0330', 'UTC', '2026-07-10T12:30:00.000Z'],
    // Spring forward (London 01:00 → 02:00): a skipped time moves forward by the gap.
    ['2026-03-29T01:30', 'Europe/London', '2026-03-29T01:30:00.000Z'],
    // Fall back (London 02:00 BST → 01:00 GMT): a repeated time takes the earlier instant.
    ['2026-10-25T01:30', 'Europe/London', '2026-10-25T00:30:00.000Z'],
    // Half-hour DST (Lord Howe, 02:00 → 01:30 on 2026-04-05).
    ['2026-04-05T01:45', 'Australia/Lord_Howe', '2026-04-04T14:45:00.000Z'],
  ])('%s in %s → %s', (value, zone, out) => expect(zonedToInstant(value, zone)).toBe(out));

  it.each([
    '2026-02-30T10:00',
    '2026-07-10T24:00',
    '2026-13-01',
    '2026-07-10T09:00:00+15:00',
    '2026-07-10T09:60',
    '10/07/2026',
    '2026-07-10 09:00',
    'next tuesday',
    '',
    '0000-06-01T00:00Z',
    '0001-01-01T00:00+01:00',
  ])('refuses %j', (value) => expect(zonedToInstant(value, 'UTC')).toBeNull());

  it('keeps to years 0001..9999 (a zone can push an edge value out)', () => {
    expect(zonedToInstant('0001-01-01T00:00', 'Asia/Tokyo')).toBeNull();
    expect(zonedToInstant('9999-12-31T23:00', 'America/New_York')).toBeNull();
    expect(zonedToInstant('0001-01-01T00:00', 'UTC')).toBe('0001-01-01T00:00:00.000Z');
  });

  it('round-trips: the instant shows the same wall-clock time in the zone (outside DST gaps)', () => {
    const zones = [
      'Europe/London',
      'America/New_York',
      'Asia/Kolkata',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.constantFrom(...zones),
        (instant, zone) => {
          const at = instant - (instant % 60_000);
          const wall = new Date(at + zoneOffsetMs(at, zone)).toISOString().slice(0, 16);
          const back = Date.parse(zonedToInstant(wall, zone)!);
          // A repeated hour maps to its earlier instant: same wall clock, at most the DST shift apart.
          expect(new Date(back + zoneOffsetMs(back, zone)).toISOString().slice(0, 16)).toBe(wall);
          expect(back <= at).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
