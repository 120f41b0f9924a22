/**
 * The rooming plan (docs/rooming.md "Solver"): kept and rooming-exempt people stay where they are;
 * everyone else is placed block by block by the MIP (mip.ts), in passes until a pass places
 * nobody new; then each person left out and each request not met gets its reason in words.
 * Hard rules are never broken: the MIP only sees rooms a person may join, and encodes the
 * room-wide rules (minors/adults, age gap, exclusions, capacity) as constraints.
 */
import { cutBlocks, pickRooms, requestGroups } from './blocks.js';
import { pairConflict } from './hard-rules.js';
import { solveBlock, type Unit } from './mip.js';
import { requestSummary, unassignedReason } from './reasons.js';
import { repairPairs } from './repair.js';
import { Occupancy } from './state.js';
import type { Plan, RoomingRules, SolverPerson, SolverRoom } from './types.js';

export interface PlanOptions {
  /** Keep people where they are (`current_room_id`); default true. */
  keepExisting?: boolean;
  /** People per MIP block (default 40). */
  blockSize?: number;
  /** HiGHS time limit per block, seconds (default 5). */
  blockSeconds?: number;
  /** Run the repair pass (repair.ts) after the blocks; default true. */
  repair?: boolean;
  /** Placing strategy: the MIP (default) or the greedy baseline (greedy.ts `greedyPlace`) for comparison. */
  place?: (
    block: SolverPerson[],
    rooms: SolverRoom[],
    occ: Occupancy,
    contract: boolean,
  ) => Promise<Map<number, number>>;
}

const MAX_PASSES = 4;

/**
 * A block's units (mip.ts): with `contract`, each mutual pair whose members have no other mutual
 * request, may share a room and have a room in common is one unit; everyone else alone. Request
 * pairs between units carry the mutual or one-way weight.
 */
export function blockUnits(block: SolverPerson[], rooms: SolverRoom[], occ: Occupancy, contract: boolean) {
  const { rules } = occ;
  const inBlock = new Map(block.map((p) => [p.id, p]));
  const mutualOf = (p: SolverPerson) => p.wants.filter((q) => inBlock.get(q)?.wants.includes(p.id));
  const options = new Map(block.map((p) => [p.id, rooms.filter((r) => occ.mayJoin(p, r)).map((r) => r.id)]));
  const unitOf = new Map<number, number>();
  const units: Unit[] = [];
  for (const p of block) {
    if (unitOf.has(p.id)) continue;
    const [only, ...more] = mutualOf(p);
    const q = only === undefined ? undefined : inBlock.get(only)!;
    const both =
      contract &&
      q &&
      more.length === 0 &&
      !unitOf.has(q.id) &&
      mutualOf(q).length === 1 &&
      pairConflict(p, q, rules) === null
        ? options
            .get(p.id)!
            .filter((r) => options.get(q.id)!.includes(r) && occ.free(rooms.find((x) => x.id === r)!) >= 2)
        : [];
    const members = q && both.length ? [p, q] : [p];
    for (const m of members) unitOf.set(m.id, units.length);
    units.push({ members, candidates: members.length > 1 ? both : options.get(p.id)! });
  }
  const pairs = new Map<string, { a: number; b: number; weight: number }>();
  for (const p of block)
    for (const qid of p.wants) {
      const q = inBlock.get(qid);
      if (!q || q.id === p.id || unitOf.get(p.id) === unitOf.get(q.id)) continue;
      const mutual = q.wants.includes(p.id);
      if (mutual && p.id > q.id) continue;
      const [m, n] = [unitOf.get(p.id)!, unitOf.get(q.id)!];
      const [a, b] = m <= n ? [m, n] : [n, m];
      const key = `${a}:${b}`;
      const weight = mutual ? rules.mutual_request_weight : rules.one_way_request_weight;
      pairs.set(key, { a, b, weight: (pairs.get(key)?.weight ?? 0) + weight });
    }
  return { units, pairs: [...pairs.values()] };
}

function mipPlace(rules: RoomingRules, seconds: number) {
  return (block: SolverPerson[], rooms: SolverRoom[], occ: Occupancy, contract: boolean) => {
    const { units, pairs } = blockUnits(block, rooms, occ, contract);
    return solveBlock({ units, rooms, fixed: occ.occupants, pairs, rules, timeLimitSeconds: seconds });
  };
}

/** A plan for `people` in `rooms` under `rules`; writes nothing. */
export async function planRooms(
  rooms: SolverRoom[],
  people: SolverPerson[],
  rules: RoomingRules,
  options: PlanOptions = {},
): Promise<Plan> {
  const keep = options.keepExisting ?? true;
  const size = options.blockSize ?? 40;
  const place = options.place ?? mipPlace(rules, options.blockSeconds ?? 2);
  const roomIds = new Set(rooms.map((r) => r.id));
  const occ = new Occupancy(rooms, rules);
  const skipped = (p: SolverPerson) => p.exempt && rules.skip_rooming_exempt;
  let open: SolverPerson[] = [];
  const fixedIds = new Set<number>();
  for (const p of people) {
    const inRoom = p.current_room_id !== null && roomIds.has(p.current_room_id);
    if (inRoom && (keep || skipped(p))) {
      occ.place(p, p.current_room_id!);
      fixedIds.add(p.id);
    } else if (!skipped(p)) open.push(p);
  }
  occ.closeBroken();
  // People with roommate requests are placed first, so a short inventory leaves out people whose
  // requests it costs nothing to miss; then everyone still open.
  const wanted = new Set(open.flatMap((p) => p.wants));
  const requesting = open.filter((p) => p.wants.length > 0 || wanted.has(p.id));
  await passes(requesting, size, occ, place);
  open = await passes(open, size, occ, place);
  // Mutual pairs still apart are tried across the whole inventory (repair.ts), then anyone a
  // repair move freed a bed for is placed.
  if (options.repair ?? true) {
    const movable = new Set(open.map((p) => p.id));
    for (const p of people) if (occ.roomOf.has(p.id) && !fixedIds.has(p.id)) movable.add(p.id);
    repairPairs(people, occ, movable);
    open = await passes(open, size, occ, place);
  }
  const assignments = people
    .filter((p) => occ.roomOf.has(p.id))
    .map((p) => ({ participant_event_id: p.id, room_id: occ.roomOf.get(p.id)! }));
  const unassigned = open.map((p) => ({ participant_event_id: p.id, reason: unassignedReason(p, occ) }));
  return { assignments, unassigned, requests: requestSummary(people, occ, skipped) };
}

/** Places `people` block by block, pass after pass until a pass places nobody; returns the rest. */
async function passes(
  people: SolverPerson[],
  size: number,
  occ: Occupancy,
  place: NonNullable<PlanOptions['place']>,
): Promise<SolverPerson[]> {
  let open = people.filter((p) => !occ.roomOf.has(p.id));
  for (let pass = 0; pass < MAX_PASSES && open.length > 0; pass++) {
    const available = new Set(occ.rooms.map((r) => r.id));
    const blocks = cutBlocks(requestGroups(open, size), size, occ.rules.adult_age);
    let placed = 0;
    for (const block of blocks) {
      const blockRooms = pickRooms(block, available, occ);
      if (blockRooms.length === 0) continue;
      const result = await place(block, blockRooms, occ, pass === 0);
      for (const p of block) {
        const r = result.get(p.id);
        const room = r === undefined ? undefined : blockRooms.find((x) => x.id === r);
        // The solver's answer is checked against the rules again before it is taken.
        if (room && occ.mayJoin(p, room)) {
          occ.place(p, room.id);
          placed++;
        }
      }
    }
    open = open.filter((p) => !occ.roomOf.has(p.id));
    if (placed === 0) break;
  }
  return open;
}
