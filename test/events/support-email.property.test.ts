/**
 * support_email domains (docs/decisions.md "Series, events and bans"; quality.md "support-email domain look-alikes"): only an exact
 * operator domain passes, in any letter case; subdomains, suffixes, prefixes and look-alikes fail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { supportEmailProblem } from '../../src/modules/events/event-fields.js';

const DOMAINS = ['muster.example', 'events.muster.example'] as const;
const local = fc.stringMatching(/^[a-z0-9._+-]{1,20}$/);
const label = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
const randomCase = (s: string, flips: boolean[]) =>
  [...s].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join('');

describe('supportEmailProblem', () => {
  it('accepts an exact operator domain in any letter case, with surrounding spaces', () => {
    fc.assert(
      fc.property(
        local,
        fc.constantFrom(...DOMAINS),
        fc.array(fc.boolean(), { minLength: 1 }),
        (l, d, flips) => {
          expect(supportEmailProblem(` ${randomCase(`${l}@${d}`, flips)} `, DOMAINS)).toBeNull();
        },
      ),
    );
  });

  it('refuses subdomains, suffixes, prefixes and other domains', () => {
    fc.assert(
      fc.property(local, fc.constantFrom(...DOMAINS), label, (l, d, extra) => {
        for (const domain of [`${extra}.${d}`, `${d}.${extra}`, `${extra}${d}`, `${d}${extra}`]) {
          if ((DOMAINS as readonly string[]).includes(domain)) continue;
          expect(supportEmailProblem(`${l}@${domain}`, DOMAINS)).toMatch(/^support_email /);
        }
      }),
    );
  });

  it.each([
    'help@muster.example.',
    'help@muster\u2024example',
    'help@müster.example',
    'help@muster.example@evil.com',
    'help@evil.com?@muster.example',
    'help muster.example',
    '@muster.example',
  ])('refuses %j', (email) => expect(supportEmailProblem(email, DOMAINS)).not.toBeNull());
});
