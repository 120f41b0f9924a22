/**
 * The hard rules (docs/rooming.md "Rules"): what may never be broken. One source for the solver's
 * candidate filter, the plan's reasons, the apply check and the board's warnings.
 */
import type { RoomingRules, SolverPerson, SolverRoom } from './types.js';

export const isAdult = (p: SolverPerson, rules: RoomingRules) => p.age !== null && p.age >= rules.adult_age;

/**
 * Why `person` may not sleep in `room` at all, whoever else is there (null = they may). The
 * sentence names the first rule that fails, in the order a lead would check them.
 */
export function unfitReason(person: SolverPerson, room: SolverRoom, rules: RoomingRules): string | null {
  if (room.gender_designation === 'staff_only') return `${room.name} is for staff only`;
  if (rules.gender_designation && !person.designations.includes(room.gender_designation))
    return `${room.name} is designated ${room.gender_designation}; this person may be placed in ${person.designations.join(' or ')} rooms`;
  if (person.age === null && (rules.separate_minors_adults || room.min_age !== null || room.max_age !== null))
    return 'no date of birth, so minor or adult and age band cannot be decided';
  if (person.age !== null && room.min_age !== null && person.age < room.min_age)
    return `${room.name} is for ages ${room.min_age} and over`;
  if (person.age !== null && room.max_age !== null && person.age > room.max_age)
    return `${room.name} is for ages up to ${room.max_age}`;
  if (rules.match_quiet && person.needs_quiet && !room.quiet) return `${room.name} is not a quiet room`;
  if (rules.match_accessibility && person.needs_accessible && !room.accessible)
    return `${room.name} is not accessible`;
  if (rules.stay_within_nights && room.nights && person.nights) {
    const open = new Set(room.nights);
    const missing = person.nights.filter((n) => !open.has(n));
    if (missing.length) return `${room.name} is not available on the night of ${missing[0]}`;
  }
  return null;
}

/** Why `a` and `b` may never share a room (null = they may), whatever the room. */
export function pairConflict(a: SolverPerson, b: SolverPerson, rules: RoomingRules): string | null {
  if (a.excludes.includes(b.id) || b.excludes.includes(a.id))
    return `${a.excludes.includes(b.id) ? a.name : b.name} asked not to room with ${a.excludes.includes(b.id) ? b.name : a.name}`;
  if (
    rules.separate_minors_adults &&
    a.age !== null &&
    b.age !== null &&
    isAdult(a, rules) !== isAdult(b, rules)
  )
    return `${isAdult(a, rules) ? b.name : a.name} is a minor and ${isAdult(a, rules) ? a.name : b.name} an adult`;
  if (
    rules.max_age_gap !== null &&
    a.age !== null &&
    b.age !== null &&
    Math.abs(a.age - b.age) > rules.max_age_gap
  )
    return `their ages differ by ${Math.abs(a.age - b.age)} years (at most ${rules.max_age_gap})`;
  return null;
}

/**
 * Every hard rule broken by `occupants` in `room`: one sentence each (empty = the room is fine).
 * Used by the apply check, the board and the property tests.
 */
export function roomBreaks(room: SolverRoom, occupants: SolverPerson[], rules: RoomingRules): string[] {
  const out: string[] = [];
  if (occupants.length > room.capacity)
    out.push(`${room.name} holds ${room.capacity} and would have ${occupants.length}`);
  for (const p of occupants) {
    const why = unfitReason(p, room, rules);
    if (why) out.push(`${p.name}: ${why}`);
  }
  for (let i = 0; i < occupants.length; i++)
    for (let j = i + 1; j < occupants.length; j++) {
      const why = pairConflict(occupants[i]!, occupants[j]!, rules);
      if (why) out.push(`${occupants[i]!.name} and ${occupants[j]!.name}: ${why}`);
    }
  return out;
}
