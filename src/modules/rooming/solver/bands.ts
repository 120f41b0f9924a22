/**
 * Age bands of a room (docs/rooming.md "Solver"): the minors/adults rule and the age-gap rule
 * together say that everyone in a room is of one class (minor or adult) and within `max_age_gap`
 * years of each other, i.e. in one band `class, ages a..a+gap` for some start age `a`. A room's
 * candidate bands start at the ages of its candidates and must hold its fixed occupants.
 */
import type { RoomingRules, SolverPerson } from './types.js';

export interface Band {
  /** Minors (false), adults (true) or either (null: minors and adults may share). */
  adult: boolean | null;
  adultAge: number;
  from: number;
  to: number;
}

export function inBand(p: SolverPerson, b: Band): boolean {
  if (p.age === null) return b.adult === null;
  if (b.adult !== null && b.adult !== p.age >= b.adultAge) return false;
  return p.age >= b.from && p.age <= b.to;
}

/**
 * The bands room candidates may share, or null when every candidate fits one band with the fixed
 * occupants (no band variable is needed then).
 */
export function roomBands(cands: SolverPerson[], fixed: SolverPerson[], rules: RoomingRules): Band[] | null {
  const split = rules.separate_minors_adults;
  const gap = rules.max_age_gap ?? Number.POSITIVE_INFINITY;
  const bands: Band[] = [];
  const classes: (boolean | null)[] = split ? [false, true] : [null];
  for (const adult of classes) {
    const ages = [
      ...new Set(
        cands
          .filter((p) => p.age !== null && (adult === null || p.age >= rules.adult_age === adult))
          .map((p) => p.age!),
      ),
    ].sort((a, b) => a - b);
    if (gap === Number.POSITIVE_INFINITY) {
      if (ages.length) bands.push({ adult, adultAge: rules.adult_age, from: -1, to: 1000 });
      continue;
    }
    for (const from of ages) bands.push({ adult, adultAge: rules.adult_age, from, to: from + gap });
  }
  const usable = bands.filter((b) => fixed.every((f) => f.age === null || inBand(f, b)));
  const all = usable.find((b) => cands.every((p) => inBand(p, b)));
  return all ? null : usable;
}
