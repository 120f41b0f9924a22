/**
 * Decomposition of a plan into blocks small enough for the MIP (docs/rooming.md "Solver"):
 * people joined by roommate requests (in either direction) stay in one block; blocks are cut in
 * the order minors before adults, by allowed designations, then by age, so a block's people can
 * mostly share rooms; each block gets its own rooms, picked by a provisional first fit.
 */
import { spends } from './mip.js';
import type { Occupancy } from './state.js';
import type { SolverPerson, SolverRoom } from './types.js';

/** Groups of people joined by requests (either direction), each at most `max` people. */
export function requestGroups(people: SolverPerson[], max: number): SolverPerson[][] {
  const byId = new Map(people.map((p) => [p.id, p]));
  const links = new Map<number, Set<number>>(people.map((p) => [p.id, new Set<number>()]));
  for (const p of people)
    for (const q of p.wants)
      if (byId.has(q) && q !== p.id) {
        links.get(p.id)!.add(q);
        links.get(q)!.add(p.id);
      }
  const seen = new Set<number>();
  const groups: SolverPerson[][] = [];
  for (const p of people) {
    if (seen.has(p.id)) continue;
    const order: SolverPerson[] = [];
    const queue = [p.id];
    seen.add(p.id);
    while (queue.length) {
      const id = queue.shift()!;
      order.push(byId.get(id)!);
      for (const n of links.get(id)!)
        if (!seen.has(n)) {
          seen.add(n);
          queue.push(n);
        }
    }
    for (let i = 0; i < order.length; i += max) groups.push(order.slice(i, i + max));
  }
  return groups;
}

/** The safeguarding class of a request group (minor or adult, allowed designations). */
const classKey = (g: SolverPerson[], adultAge: number) => {
  const minAge = Math.min(...g.map((p) => p.age ?? 999));
  return `${minAge >= adultAge ? 1 : 0}|${[...g[0]!.designations].sort().join(',')}`;
};
const sortKey = (g: SolverPerson[], adultAge: number) =>
  `${classKey(g, adultAge)}|${String(Math.min(...g.map((p) => p.age ?? 999))).padStart(3, '0')}`;

/**
 * Blocks of at most `size` people (a larger request group alone), request groups whole, one
 * safeguarding class per block, in age order.
 */
export function cutBlocks(groups: SolverPerson[][], size: number, adultAge: number): SolverPerson[][] {
  const sorted = [...groups].sort((a, b) => sortKey(a, adultAge).localeCompare(sortKey(b, adultAge)));
  const blocks: SolverPerson[][] = [];
  let current: SolverPerson[] = [];
  let currentClass = '';
  for (const g of sorted) {
    const cls = classKey(g, adultAge);
    if (current.length > 0 && (current.length + g.length > size || cls !== currentClass)) {
      blocks.push(current);
      current = [];
    }
    current.push(...g);
    currentClass = cls;
  }
  if (current.length) blocks.push(current);
  return blocks;
}

/**
 * Rooms for one block, taken from `available` (removed from it). Request groups first, each
 * provisionally put whole into a picked room with space where all may go, else into a new room
 * that holds them (the one most of the block may use); then everyone else, fewest options first.
 * Then spare rooms until a fifth more beds than people, so the MIP has room to choose.
 */
export function pickRooms(block: SolverPerson[], available: Set<number>, occ: Occupancy): SolverRoom[] {
  const rooms = occ.rooms.filter((r) => available.has(r.id) && occ.free(r) > 0);
  const options = new Map(block.map((p) => [p.id, rooms.filter((r) => occ.mayJoin(p, r))]));
  const fit = new Map(rooms.map((r) => [r.id, block.filter((p) => options.get(p.id)!.includes(r)).length]));
  const picked: SolverRoom[] = [];
  const left = new Map<number, number>();
  // Scarce rooms (quiet, accessible) go to a group that needs them, else after the others.
  const waste = (r: SolverRoom, group: SolverPerson[]) => (group.every((p) => spends(p, r)) ? 1 : 0);
  const byFitFor = (group: SolverPerson[]) => (a: SolverRoom, b: SolverRoom) =>
    waste(a, group) - waste(b, group) || fit.get(b.id)! - fit.get(a.id)! || occ.free(b) - occ.free(a);
  const byFit = byFitFor(block);
  const put = (group: SolverPerson[]): boolean => {
    const shared = options
      .get(group[0]!.id)!
      .filter((r) => group.every((p) => options.get(p.id)!.includes(r)));
    const inPicked = shared.find((r) => (left.get(r.id) ?? 0) >= group.length);
    const room =
      inPicked ??
      shared.filter((r) => !left.has(r.id) && occ.free(r) >= group.length).sort(byFitFor(group))[0];
    if (!room) return false;
    if (!left.has(room.id)) {
      picked.push(room);
      left.set(room.id, occ.free(room));
    }
    left.set(room.id, left.get(room.id)! - group.length);
    return true;
  };
  // Rooms holding someone a block member asked for (or who asked for them) are offered first.
  for (const p of block) {
    const drawn = options
      .get(p.id)!
      .filter((r) => occ.occupants.get(r.id)!.some((f) => p.wants.includes(f.id) || f.wants.includes(p.id)));
    for (const r of drawn)
      if (!left.has(r.id)) {
        picked.push(r);
        left.set(r.id, occ.free(r));
      }
  }
  const singles: SolverPerson[] = [];
  for (const g of requestGroups(block, block.length)) {
    if (g.length === 1 || !put(g)) singles.push(...g);
  }
  singles.sort((a, b) => options.get(a.id)!.length - options.get(b.id)!.length);
  for (const p of singles) put([p]);
  let spare = [...left.values()].reduce((s, n) => s + n, 0);
  for (const r of rooms.filter((r) => !left.has(r.id) && fit.get(r.id)! > 0).sort(byFit)) {
    if (spare >= Math.ceil(block.length / 5)) break;
    picked.push(r);
    spare += occ.free(r);
  }
  for (const r of picked) available.delete(r.id);
  return picked;
}
