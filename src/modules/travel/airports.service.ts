/**
 * Airport search (docs/travel.md "Airport search"): exact IATA or ICAO code first, then airports
 * whose name or city has a word starting with each word of `q` (case- and accent-insensitive),
 * bigger airports first, at most 20. A blank `q` finds nothing.
 */
import { type Airport, airports, fold, type IndexedAirport, wordsOf } from './airports.data.js';

export const AIRPORT_SEARCH_LIMIT = 20;

const publicShape = (a: IndexedAirport): Airport => ({
  iata: a.iata,
  icao: a.icao,
  name: a.name,
  city: a.city,
  country: a.country,
  time_zone: a.time_zone,
});

export async function searchAirports(q: string): Promise<Airport[]> {
  const terms = wordsOf(q);
  if (terms.length === 0) return [];
  const list = await airports();
  const code = fold(q).trim().toUpperCase();
  const exact = list.filter((a) => a.iata === code || a.icao === code);
  const found: IndexedAirport[] = [...exact];
  for (const a of list) {
    if (found.length >= AIRPORT_SEARCH_LIMIT) break;
    if (exact.includes(a)) continue;
    if (terms.every((t) => a.words.some((w) => w.startsWith(t)))) found.push(a);
  }
  return found.slice(0, AIRPORT_SEARCH_LIMIT).map(publicShape);
}
