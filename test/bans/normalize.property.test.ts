/**
 * Property tests (quality.md "ban email normalisation") for normalizeBanEmails: idempotent;
 * output trimmed, lowercased and unique; case and whitespace variants of one address collapse;
 * first appearance decides the order; agrees with a straightforward reference model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIsoDateTime as isExpiryDateTime } from '../../src/lib/time.js';
import { normalizeBanEmails } from '../../src/modules/bans/bans.service.js';

const RUNS = { numRuns: 300 };

/** Whitespace that String.prototype.trim removes. */
const space = fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\ufeff');
const padding = fc.array(space, { maxLength: 3 }).map((s) => s.join(''));

/** A random upper/lower-case rendering of an (ASCII) address. */
function recase(email: string, flips: boolean[]): string {
  return [...email]
    .map((c, i) => (flips[i % Math.max(flips.length, 1)] ? c.toUpperCase() : c.toLowerCase()))
    .join('');
}

/** An address as a careless caller might type it: random case, surrounding whitespace. */
const variantOf = (email: string) =>
  fc
    .tuple(padding, fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), padding)
    .map(([before, flips, after]) => `${before}${recase(email, flips)}${after}`);

const email = fc.emailAddress();
const anyString = fc.string({ maxLength: 30 });
/** Mixed input: real addresses (as variants), junk strings and blanks. */
const mixedList = fc.array(
  fc.oneof(
    email.chain(variantOf),
    anyString,
    padding,
    fc.constantFrom('nope', 'a b@c.de', '@x.io', 'x@y', 'Two@Words'),
  ),
  { maxLength: 25 },
);

/** Reference model: trim+lowercase, drop blanks, first appearance wins, split by the same shape check. */
function model(input: readonly string[]) {
  const seen: string[] = [];
  for (const raw of input) {
    const e = raw.trim().toLowerCase();
    if (e !== '' && !seen.includes(e)) seen.push(e);
  }
  const valid = (e: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e);
  return { emails: seen.filter(valid), invalid: seen.filter((e) => !valid(e)) };
}

describe('normalizeBanEmails (fast-check)', () => {
  it('is idempotent', () => {
    fc.assert(
      fc.property(mixedList, (input) => {
        const once = normalizeBanEmails(input);
        expect(normalizeBanEmails(once.emails)).toEqual({ emails: once.emails, invalid: [] });
        expect(normalizeBanEmails(once.invalid)).toEqual({ emails: [], invalid: once.invalid });
        expect(normalizeBanEmails([...once.emails, ...once.invalid])).toEqual(once);
      }),
      RUNS,
    );
  });

  it('outputs trimmed, lowercased, non-blank, unique addresses', () => {
    fc.assert(
      fc.property(mixedList, (input) => {
        const { emails, invalid } = normalizeBanEmails(input);
        const all = [...emails, ...invalid];
        for (const e of all) {
          expect(e).toBe(e.trim());
          expect(e).toBe(e.toLowerCase());
          expect(e).not.toBe('');
        }
        expect(new Set(all).size).toBe(all.length);
        // Nothing is invented: every output is the normalised form of some input.
        const normalisedInputs = new Set(input.map((s) => s.trim().toLowerCase()));
        for (const e of all) expect(normalisedInputs.has(e)).toBe(true);
      }),
      RUNS,
    );
  });

  it('collapses case and whitespace variants of one address into it', () => {
    fc.assert(
      fc.property(
        email.chain((e) => fc.tuple(fc.constant(e), fc.array(variantOf(e), { minLength: 1, maxLength: 8 }))),
        ([e, variants]) => {
          const { emails, invalid } = normalizeBanEmails(variants);
          expect(emails).toEqual([e.toLowerCase()]);
          expect(invalid).toEqual([]);
        },
      ),
      RUNS,
    );
  });

  it('keeps the order of first appearance', () => {
    const scenario = fc
      .uniqueArray(email, { minLength: 1, maxLength: 8, selector: (e) => e.toLowerCase() })
      .chain((distinct) =>
        fc
          .tuple(
            // Each step: introduce the next address, or repeat (a variant of) one already introduced.
            fc.array(
              fc.tuple(
                fc.boolean(),
                fc.nat(),
                fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
                padding,
              ),
              {
                maxLength: 20,
              },
            ),
          )
          .map(([steps]) => {
            const input: string[] = [];
            let introduced = 0;
            for (const [repeat, pick, flips, pad] of steps) {
              if (repeat && introduced > 0)
                input.push(`${pad}${recase(distinct[pick % introduced]!, flips)}`);
              else if (introduced < distinct.length)
                input.push(`${recase(distinct[introduced++]!, flips)}${pad}`);
            }
            while (introduced < distinct.length) input.push(distinct[introduced++]!);
            return { distinct, input };
          }),
      );
    fc.assert(
      fc.property(scenario, ({ distinct, input }) => {
        expect(normalizeBanEmails(input).emails).toEqual(distinct.map((e) => e.toLowerCase()));
      }),
      RUNS,
    );
  });

  it('agrees with the reference model on arbitrary input', () => {
    fc.assert(
      fc.property(mixedList, (input) => {
        expect(normalizeBanEmails(input)).toEqual(model(input));
      }),
      RUNS,
    );
  });

  it('a single string behaves like a one-element list', () => {
    fc.assert(
      fc.property(fc.oneof(email.chain(variantOf), anyString), (s) => {
        expect(normalizeBanEmails(s)).toEqual(normalizeBanEmails([s]));
      }),
      RUNS,
    );
  });

  it('examples', () => {
    expect(normalizeBanEmails([' A@X.io ', 'a@x.io', 'B@x.IO', '', 'bad', 'BAD '])).toEqual({
      emails: ['a@x.io', 'b@x.io'],
      invalid: ['bad'],
    });
  });
});

describe('isIsoDateTime (fast-check)', () => {
  const instant = fc.date({
    min: new Date('1000-01-01T00:00:00Z'),
    max: new Date('9998-12-31T23:59:59Z'),
    noInvalidDate: true,
  });

  it('accepts every real instant written in UTC or with an offset up to ±14:00', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -14 * 60, max: 14 * 60 }), (d, offset) => {
        expect(isExpiryDateTime(d.toISOString())).toBe(true);
        const local = new Date(d.getTime() + offset * 60_000).toISOString().slice(0, 19);
        const sign = offset < 0 ? '-' : '+';
        const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
        const mm = String(Math.abs(offset) % 60).padStart(2, '0');
        const text = `${local}${sign}${hh}:${mm}`;
        expect(isExpiryDateTime(text)).toBe(true);
        expect(Date.parse(text)).toBe(Math.floor(d.getTime() / 1000) * 1000);
      }),
      RUNS,
    );
  });

  it('refuses day numbers past the end of the month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
        const mm = String(month).padStart(2, '0');
        expect(isExpiryDateTime(`${year}-${mm}-${last}T00:00:00Z`)).toBe(true);
        for (let day = last + 1; day <= 31; day++) {
          expect(isExpiryDateTime(`${year}-${mm}-${day}T00:00:00Z`)).toBe(false);
        }
      }),
      RUNS,
    );
  });
});
