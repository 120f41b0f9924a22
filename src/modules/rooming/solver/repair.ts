/**
 * The repair pass (docs/rooming.md "Solver", step 5): after the blocks are planned, each mutual
 * pair still apart is tried once more across the whole inventory, which the block decomposition
 * cannot see, and then each person still without a room. A move brings a group (one partner, or
 * both) into a room: occupants who stand in the way (a pair rule with a newcomer, or a bed) are
 * moved to any other room that takes them; an occupant no room takes may be left out only in
 * exchange for a newcomer who had no room (the number placed never falls). Every placement goes
 * through `Occupancy.mayJoin`, and a move that cannot be completed is undone whole, so no hard
 * rule is ever broken. Only people this plan placed move (people kept in their rooms never do),
 * and nobody who shares a room with someone they asked for (or who asked for them) is moved, so
 * no met request is lost.
 */
import { pairConflict, unfitReason } from './hard-rules.js';
import type { Occupancy } from './state.js';
import type { SolverPerson, SolverRoom } from './types.js';

const MAX_ROUNDS = 4;

export function repairPairs(people: SolverPerson[], occ: Occupancy, movable: Set<number>): number {
  const byId = new Map(people.map((p) => [p.id, p]));
  const roomById = new Map(occ.rooms.map((r) => [r.id, r]));
  const rules = occ.rules;
  const fits = (p: SolverPerson) => occ.rooms.filter((r) => unfitReason(p, r, rules) === null);
  const pairs: [SolverPerson, SolverPerson][] = [];
  for (const p of people)
    for (const qid of p.wants) {
      const q = byId.get(qid);
      if (q && p.id < q.id && q.wants.includes(p.id) && movable.has(p.id) && movable.has(q.id))
        if (pairConflict(p, q, rules) === null) pairs.push([p, q]);
    }
  const roomOf = (p: SolverPerson) => {
    const id = occ.roomOf.get(p.id);
    return id === undefined ? undefined : roomById.get(id);
  };
  const tied = (p: SolverPerson) => {
    const r = occ.roomOf.get(p.id);
    if (r === undefined) return false;
    return occ.occupants
      .get(r)!
      .some((o) => o.id !== p.id && (p.wants.includes(o.id) || o.wants.includes(p.id)));
  };
  const free = (p: SolverPerson) => movable.has(p.id) && !tied(p);

  // Every change is logged so a move that cannot be completed is undone whole.
  const log: [SolverPerson, number | undefined][] = [];
  const move = (x: SolverPerson, to: SolverRoom | undefined) => {
    log.push([x, occ.roomOf.get(x.id)]);
    occ.remove(x);
    if (to) occ.place(x, to.id);
  };
  const undo = (mark: number) => {
    while (log.length > mark) {
      const [x, from] = log.pop()!;
      occ.remove(x);
      if (from !== undefined) occ.place(x, from);
    }
  };

  /**
   * Brings `group` into `room`; true when every member is in it. With `trade`, an occupant no
   * other room takes may be left out for each newcomer who had no room.
   */
  const bring = (group: SolverPerson[], room: SolverRoom, trade = true): boolean => {
    if (room.capacity < group.length || group.some((g) => unfitReason(g, room, rules) !== null)) return false;
    const mark = log.length;
    let budget = trade ? group.filter((g) => !occ.roomOf.has(g.id)).length : 0;
    for (const g of group) if (occ.roomOf.has(g.id)) move(g, undefined);
    const inGroup = new Set(group.map((g) => g.id));
    const inTheWay = (x: SolverPerson) => group.some((g) => pairConflict(g, x, rules) !== null);
    // Never someone a newcomer asked for or who asked for one (the partner stays put).
    const evictable = (x: SolverPerson) =>
      free(x) && !inGroup.has(x.id) && !group.some((g) => g.wants.includes(x.id) || x.wants.includes(g.id));
    const evict = (x: SolverPerson): boolean => {
      if (!evictable(x)) return false;
      move(x, undefined);
      const to = occ.rooms.find((r) => r.id !== room.id && occ.mayJoin(x, r));
      if (to) occ.place(x, to.id);
      else if (budget > 0) budget--;
      else return false;
      return true;
    };
    const ok =
      occ.occupants
        .get(room.id)!
        .filter(inTheWay)
        .every((x) => evict(x)) &&
      (() => {
        while (occ.free(room) < group.length) {
          const x = occ.occupants.get(room.id)!.find(evictable);
          if (!x || !evict(x)) return false;
        }
        return true;
      })() &&
      group.every((g) => {
        if (!occ.mayJoin(g, room)) return false;
        move(g, room);
        return true;
      });
    if (!ok) undo(mark);
    log.length = mark;
    return ok;
  };

  let joined = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let changed = 0;
    for (const [p, q] of pairs) {
      const rp = roomOf(p);
      const rq = roomOf(q);
      if (rp && rp === rq) continue;
      if (!free(p) || !free(q)) continue;
      const done =
        (rq !== undefined && bring([p], rq)) ||
        (rp !== undefined && bring([q], rp)) ||
        fits(p).some((r) => r !== rp && r !== rq && bring([p, q], r));
      if (done) changed++;
    }
    joined += changed;
    if (changed === 0) break;
  }
  // Then everyone this plan could not place: a room that takes them once someone moves on.
  for (const p of people)
    if (movable.has(p.id) && !occ.roomOf.has(p.id)) fits(p).some((r) => bring([p], r, false));
  return joined;
}
