/**
 * One block of the rooming plan as a mixed-integer program, solved by HiGHS (docs/rooming.md
 * "Solver"). A block's people come as units: a mutual pair (each the other's only mutual request)
 * is one unit that is placed whole, everyone else a unit of one. Variables: x[u,r] = unit u sleeps
 * in room r (only rooms every member may join, per hard-rules.ts, with the room's fixed
 * occupants); z[k,r] = request pair k between two units met in room r; y[r,b] = room r takes age
 * band b (bands.ts: minors or adults, ages a..a+gap), only where its candidates need a choice.
 *
 * Constraints: each unit in at most one room; Σ size·x ≤ the room's free beds; z ≤ x of both
 * units; an exclusion between two units: not both in one room; at most one band per room,
 * x[u,r] ≤ Σ y[r,b] over the bands holding all of u, and per age a: the beds taken by people of age
 * a ≤ free · Σ y[r,b] over bands holding a (a valid cut that keeps the relaxation tight).
 *
 * Objective (maximised): ASSIGN per person placed, the mutual weight per pair unit placed and per
 * other met pair (mutual or one-way weight), the room-type weight per matching room type. ASSIGN
 * outweighs every request a person can have, so nobody is left out to meet a request.
 */

import { numberProp } from '../../../lib/narrow.js';
import { inBand, roomBands } from './bands.js';
import { loadHighs } from './highs.js';
import type { RoomingRules, SolverPerson, SolverRoom } from './types.js';

export const ASSIGN = 1000;

export interface Unit {
  members: SolverPerson[];
  /** Rooms every member may join now (ids of the block's rooms), with space for the unit. */
  candidates: number[];
}

export interface BlockInput {
  units: Unit[];
  rooms: SolverRoom[];
  /** People already in each room (kept, exempt or placed earlier): fixed. */
  fixed: Map<number, SolverPerson[]>;
  /** Request pairs between units (indexes into `units`), with their weight. */
  pairs: { a: number; b: number; weight: number }[];
  rules: RoomingRules;
  timeLimitSeconds: number;
}

/** Person id → room id for everyone the block places. */
export async function solveBlock(input: BlockInput): Promise<Map<number, number>> {
  const lp = buildLp(input);
  const out = new Map<number, number>();
  if (lp.empty) return out;
  const highs = await loadHighs();
  const result = highs.solve(lp.text, {
    time_limit: input.timeLimitSeconds,
    mip_rel_gap: 0,
    mip_abs_gap: 0.99,
    output_flag: false,
  });
  if (result.Status !== 'Optimal' && result.Status !== 'Time limit reached') return out;
  for (const [name, col] of Object.entries(result.Columns)) {
    const value = numberProp(col, 'Primal');
    if (!name.startsWith('x_') || value === undefined || value < 0.5) continue;
    const [, u, r] = name.split('_');
    for (const p of input.units[Number(u)]!.members) out.set(p.id, Number(r));
  }
  return out;
}

/**
 * A small cost for a bed of a scarce kind (quiet, accessible) given to someone who does not need
 * it, so the beds stay for those who do (later blocks and passes); far below any preference.
 */
const SPARE = 0.1;
export const spends = (p: SolverPerson, room: SolverRoom) =>
  (room.quiet && !p.needs_quiet) || (room.accessible && !p.needs_accessible);

function buildLp(input: BlockInput): { text: string; empty: boolean } {
  const { units, rooms, fixed, pairs, rules } = input;
  const roomById = new Map(rooms.map((r) => [r.id, r]));
  const byRoom = new Map<number, number[]>();
  const objective: string[] = [];
  const rows: string[] = [];
  const binaries: string[] = [];
  const x = (u: number, r: number) => `x_${u}_${r}`;
  units.forEach((unit, u) => {
    const terms: string[] = [];
    for (const r of unit.candidates) {
      const room = roomById.get(r);
      if (!room) continue;
      const v = x(u, r);
      binaries.push(v);
      terms.push(v);
      const typeMatches = unit.members.filter((p) => p.room_type === room.type).length;
      const pairBonus =
        (unit.members.length > 1 ? rules.mutual_request_weight : 0) +
        fixedRequests(unit, fixed.get(r) ?? [], rules);
      const value = ASSIGN * unit.members.length + pairBonus + typeMatches * rules.room_type_weight;
      objective.push(`${value - SPARE * unit.members.filter((p) => spends(p, room)).length} ${v}`);
      if (!byRoom.has(r)) byRoom.set(r, []);
      byRoom.get(r)!.push(u);
    }
    if (terms.length) rows.push(`${terms.join(' + ')} <= 1`);
  });
  for (const room of rooms) {
    const cands = byRoom.get(room.id) ?? [];
    if (cands.length === 0) continue;
    const fixedHere = fixed.get(room.id) ?? [];
    const free = room.capacity - fixedHere.length;
    rows.push(`${cands.map((u) => `${units[u]!.members.length} ${x(u, room.id)}`).join(' + ')} <= ${free}`);
    for (let i = 0; i < cands.length; i++)
      for (let j = i + 1; j < cands.length; j++)
        if (excluded(units[cands[i]!]!, units[cands[j]!]!))
          rows.push(`${x(cands[i]!, room.id)} + ${x(cands[j]!, room.id)} <= 1`);
    const people = cands.flatMap((u) => units[u]!.members);
    const bands = roomBands(people, fixedHere, rules);
    if (bands === null) continue;
    const ys = bands.map((_, k) => `y_${room.id}_${k}`);
    binaries.push(...ys);
    rows.push(`${ys.join(' + ')} <= 1`);
    const byAge = new Map<number, string[]>();
    for (const u of cands) {
      const members = units[u]!.members;
      const mine = bands.flatMap((b, k) => (members.every((p) => inBand(p, b)) ? [ys[k]!] : []));
      rows.push(mine.length ? `${x(u, room.id)} - ${mine.join(' - ')} <= 0` : `${x(u, room.id)} <= 0`);
      for (const p of members) {
        if (p.age === null) continue;
        if (!byAge.has(p.age)) byAge.set(p.age, []);
        byAge.get(p.age)!.push(x(u, room.id));
      }
    }
    for (const [age, xs] of byAge) {
      const holding = bands.flatMap((b, k) => (inBand({ ...people[0]!, age }, b) ? [ys[k]!] : []));
      const terms = [...xs.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<string, number>())];
      rows.push(
        `${terms.map(([v, n]) => `${n} ${v}`).join(' + ')}${holding.map((y) => ` - ${free} ${y}`).join('')} <= 0`,
      );
    }
  }
  for (const [k, pair] of pairs.entries()) {
    const ca = new Set(units[pair.a]!.candidates);
    for (const r of units[pair.b]!.candidates) {
      if (!ca.has(r) || !roomById.has(r)) continue;
      const z = `z_${k}_${r}`;
      binaries.push(z);
      objective.push(`${pair.weight} ${z}`);
      rows.push(`${z} - ${x(pair.a, r)} <= 0`, `${z} - ${x(pair.b, r)} <= 0`);
    }
  }
  const text = [
    'Maximize',
    ` obj: ${objective.join(' + ') || '0'}`,
    'Subject To',
    ...rows.map((r, i) => ` c${i}: ${r}`),
    'Binary',
    ...binaries.map((b) => ` ${b}`),
    'End',
  ].join('\n');
  return { text, empty: binaries.length === 0 };
}

function excluded(a: Unit, b: Unit): boolean {
  return a.members.some((p) => b.members.some((q) => p.excludes.includes(q.id) || q.excludes.includes(p.id)));
}

/** The request weight a unit meets by joining a room's fixed occupants (kept or placed earlier). */
function fixedRequests(unit: Unit, fixed: SolverPerson[], rules: RoomingRules): number {
  let weight = 0;
  for (const p of unit.members)
    for (const f of fixed) {
      const pf = p.wants.includes(f.id);
      const fp = f.wants.includes(p.id);
      if (pf && fp) weight += rules.mutual_request_weight;
      else if (pf || fp) weight += rules.one_way_request_weight;
    }
  return weight;
}
