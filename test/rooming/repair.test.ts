/**
 * The rooming solver's repair pass (src/modules/rooming/solver/repair.ts, docs/rooming.md
 * "Solver"): mutual pairs left apart are joined by moving or displacing people who have no met
 * request where they are; people kept in their rooms never move; a hard rule is never broken; and
 * over generated instances the repaired plan meets at least as many mutual requests and places at
 * least as many people as the plan without it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roomBreaks } from '../../src/modules/rooming/solver/hard-rules.js';
import { planRooms } from '../../src/modules/rooming/solver/plan.js';
import { repairPairs } from '../../src/modules/rooming/solver/repair.js';
import { Occupancy } from '../../src/modules/rooming/solver/state.js';
import { DEFAULT_RULES, type SolverPerson, type SolverRoom } from '../../src/modules/rooming/solver/types.js';
import { person, room } from '../support/rooming-fixtures.js';
import { generateRooming } from '../support/rooming-gen.js';

function world(placed: [SolverPerson, number][], rooms: SolverRoom[]) {
  const occ = new Occupancy(rooms, DEFAULT_RULES);
  for (const [p, r] of placed) occ.place(p, r);
  return occ;
}

describe('rooming repair pass', () => {
  const rooms = [room(1, 2), room(2, 2)];

  /** A pair split over two full twins, each partner with one other person. */
  function split(others: Partial<SolverPerson> = {}) {
    const p = person(1, { wants: [2] });
    const q = person(2, { wants: [1] });
    const x = person(3, others);
    const y = person(4, others);
    const placed: [SolverPerson, number][] = [
      [p, 1],
      [x, 1],
      [q, 2],
      [y, 2],
    ];
    return { everyone: [p, q, x, y], occ: world(placed, rooms) };
  }

  it('joins a pair split across two rooms by a swap with someone who asked for nobody', () => {
    const { everyone, occ } = split();
    expect(repairPairs(everyone, occ, new Set([1, 2, 3, 4]))).toBe(1);
    expect(occ.roomOf.get(1)).toBe(occ.roomOf.get(2));
    expect(occ.roomOf.size).toBe(4);
  });

  it('never moves someone kept in their room', () => {
    // The others are kept (not movable) and the twins are full: nothing can move.
    const { everyone, occ } = split({ age: 12 });
    expect(repairPairs(everyone, occ, new Set([1, 2]))).toBe(0);
    expect([1, 2, 3, 4].map((id) => occ.roomOf.get(id))).toEqual([1, 2, 1, 2]);
  });

  it('never breaks a rule to join a pair', () => {
    // q and y need quiet and only R2 is quiet: q cannot go to R1, and y (who has no other room
    // that takes them) cannot make way for p.
    const p = person(1, { wants: [2] });
    const q = person(2, { wants: [1], needs_quiet: true });
    const x = person(3);
    const y = person(4, { needs_quiet: true });
    const placed: [SolverPerson, number][] = [
      [p, 1],
      [x, 1],
      [q, 2],
      [y, 2],
    ];
    const occ = world(placed, [room(1, 2), room(2, 2, { quiet: true })]);
    expect(repairPairs([p, q, x, y], occ, new Set([1, 2, 3, 4]))).toBe(0);
    expect([1, 2, 3, 4].map((id) => occ.roomOf.get(id))).toEqual([1, 2, 1, 2]);
  });

  it('trades a partner without a room for an occupant with no request met: as many placed', () => {
    const p = person(1, { wants: [2] });
    const q = person(2, { wants: [1] });
    const x = person(3);
    const occ = world(
      [
        [p, 1],
        [x, 1],
      ],
      [room(1, 2)],
    );
    expect(repairPairs([p, q, x], occ, new Set([1, 2, 3]))).toBe(1);
    expect(occ.roomOf.get(2)).toBe(1);
    expect(occ.roomOf.has(3)).toBe(false);
    expect(occ.roomOf.size).toBe(2);
  });

  it('over generated instances: never worse than without it, and never breaks a rule', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10_000 }), async (seed) => {
        const { rooms: rs, people } = generateRooming(seed, 60, 18);
        const without = await planRooms(rs, people, DEFAULT_RULES, { repair: false });
        const withIt = await planRooms(rs, people, DEFAULT_RULES);
        expect(withIt.requests.mutual.met).toBeGreaterThanOrEqual(without.requests.mutual.met);
        expect(withIt.assignments.length).toBeGreaterThanOrEqual(without.assignments.length);
        const byId = new Map(people.map((p) => [p.id, p]));
        for (const r of rs) {
          const inRoom = withIt.assignments
            .filter((a) => a.room_id === r.id)
            .map((a) => byId.get(a.participant_event_id)!);
          expect(roomBreaks(r, inRoom, DEFAULT_RULES)).toEqual([]);
        }
      }),
      { numRuns: 15 },
    );
  }, 240_000);
});
