/**
 * Reasons in words (docs/rooming.md "Reasons"): why a person was left without a room, why a
 * roommate request was not met, and the request counts of a plan.
 */
import { pairConflict, unfitReason } from './hard-rules.js';
import type { Occupancy } from './state.js';
import type { Plan, SolverPerson, SolverRoom, UnmetRequest } from './types.js';

/** Why `p` has no room in the finished plan `occ`. */
export function unassignedReason(p: SolverPerson, occ: Occupancy): string {
  const { rooms, rules } = occ;
  if (rooms.length === 0) return 'There are no rooms in the inventory';
  const fitting = rooms.filter((r) => unfitReason(p, r, rules) === null);
  if (fitting.length === 0) {
    const why = new Map<string, number>();
    for (const r of rooms) {
      const reason = unfitReason(p, r, rules)!.replace(r.name, 'the room');
      why.set(reason, (why.get(reason) ?? 0) + 1);
    }
    const [top] = [...why.entries()].sort((a, b) => b[1] - a[1]);
    return `No room fits this person (${rooms.length} rooms; most often: ${top![0]})`;
  }
  const full = fitting.filter((r) => occ.free(r) <= 0).length;
  const blocked: string[] = [];
  for (const r of fitting) {
    if (occ.free(r) <= 0) continue;
    const o = occ.occupants.get(r.id)!.find((x) => pairConflict(p, x, rules) !== null);
    if (o) blocked.push(`${r.name}: ${pairConflict(p, o, rules)}`);
  }
  const parts = [`${fitting.length} room${fitting.length === 1 ? '' : 's'} fit this person`];
  if (full) parts.push(`${full} ${full === 1 ? 'is' : 'are'} full`);
  if (blocked.length) parts.push(`${blocked.length} cannot take them (${blocked.slice(0, 2).join('; ')})`);
  return parts.join('; ');
}

function commonRoom(a: SolverPerson, b: SolverPerson, rooms: SolverRoom[], occ: Occupancy): boolean {
  return rooms.some(
    (r) => r.capacity >= 2 && unfitReason(a, r, occ.rules) === null && unfitReason(b, r, occ.rules) === null,
  );
}

function unmetReason(p: SolverPerson, q: SolverPerson, occ: Occupancy, skipped: boolean): string {
  if (skipped) return `${q.name} is rooming-exempt`;
  const conflict = pairConflict(p, q, occ.rules);
  if (conflict) return `Not allowed: ${conflict}`;
  if (!commonRoom(p, q, occ.rooms, occ)) return `No room fits both ${p.name} and ${q.name}`;
  if (!occ.roomOf.has(p.id)) return `${p.name} has no room`;
  if (!occ.roomOf.has(q.id)) return `${q.name} has no room`;
  return 'No room with space for both once every rule and the other requests were met';
}

/** Request counts (each person's request once; mutual pairs once) and every unmet request. */
export function requestSummary(
  people: SolverPerson[],
  occ: Occupancy,
  skipped: (p: SolverPerson) => boolean,
): Plan['requests'] {
  const byId = new Map(people.map((p) => [p.id, p]));
  const unmet: UnmetRequest[] = [];
  let met = 0;
  let total = 0;
  const mutual = { met: 0, total: 0, satisfiable: 0 };
  for (const p of people) {
    if (skipped(p)) continue;
    for (const qid of p.wants) {
      const q = byId.get(qid);
      if (!q || qid === p.id) continue;
      total++;
      const isMutual = q.wants.includes(p.id) && !skipped(q);
      const together = occ.roomOf.has(p.id) && occ.roomOf.get(p.id) === occ.roomOf.get(q.id);
      if (isMutual && p.id < q.id) {
        mutual.total++;
        if (pairConflict(p, q, occ.rules) === null && commonRoom(p, q, occ.rooms, occ)) mutual.satisfiable++;
        if (together) mutual.met++;
      }
      if (together) met++;
      else
        unmet.push({
          participant_event_id: p.id,
          roommate_participant_event_id: q.id,
          mutual: isMutual,
          reason: unmetReason(p, q, occ, skipped(q)),
        });
    }
  }
  return { met, total, mutual, unmet };
}
