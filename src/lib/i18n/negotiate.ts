/**
 * Which language to show (docs/languages.md "Which language"): a person's remembered choice, then
 * the browser's `Accept-Language`, then the event's default, each only when it is one of the
 * languages on offer. Pure.
 */
import { BASE_LANGUAGE, isShipped, SHIPPED_LANGUAGES } from './catalog.js';

/** `Accept-Language` as language ranges by preference (`q=0` dropped, `*` kept). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 30)
    .map((part, i) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { range: range.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.range !== '' && r.q > 0 && /^[a-z*]{1,8}(-[a-z0-9]{1,8})*$/.test(r.range))
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((r) => r.range);
}

/**
 * The best of `offered` for `header` (RFC 4647 lookup on the primary subtag: `es-MX` matches `es`),
 * or null when none matches.
 */
export function fromAcceptLanguage(header: string | undefined, offered: readonly string[]): string | null {
  for (const range of acceptedLanguages(header)) {
    if (range === '*') return null;
    const exact = offered.find((o) => o.toLowerCase() === range);
    if (exact) return exact;
    const primary = range.split('-')[0];
    const loose = offered.find((o) => o.toLowerCase().split('-')[0] === primary);
    if (loose) return loose;
  }
  return null;
}

export interface LanguageChoice {
  /** Languages on offer (an event's `languages`; every shipped one where there is no event). */
  offered?: readonly string[] | null;
  /** The event's default (else the first offered, else English). */
  fallback?: string | null;
  /** Remembered choices, most specific first (the person's record, the cookie). */
  remembered?: readonly (string | null | undefined)[];
  acceptLanguage?: string | undefined;
}

/** The language to show: a remembered one on offer, else Accept-Language among offered, else the default. */
export function chooseLanguage(choice: LanguageChoice): string {
  const offered = (choice.offered?.length ? choice.offered : SHIPPED_LANGUAGES).filter(isShipped);
  for (const code of choice.remembered ?? []) if (code && offered.includes(code)) return code;
  const accepted = fromAcceptLanguage(choice.acceptLanguage, offered);
  if (accepted) return accepted;
  if (choice.fallback && offered.includes(choice.fallback)) return choice.fallback;
  return offered[0] ?? BASE_LANGUAGE;
}
