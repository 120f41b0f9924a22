/**
 * The rooming solver (docs/rooming.md "Solver"): small hand-made cases with known optima, and a
 * property test over generated inventories and people: no returned plan ever breaks a hard rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { greedyPlace } from '../../src/modules/rooming/solver/greedy.js';
import { roomBreaks } from '../../src/modules/rooming/solver/hard-rules.js';
import { planRooms } from '../../src/modules/rooming/solver/plan.js';
import {
  DEFAULT_RULES,
  type Plan,
  type RoomingRules,
  type SolverPerson,
  type SolverRoom,
} from '../../src/modules/rooming/solver/types.js';
import { person, room } from '../support/rooming-fixtures.js';

const roomOf = (plan: Plan) => new Map(plan.assignments.map((a) => [a.participant_event_id, a.room_id]));

function brokenRules(plan: Plan, rooms: SolverRoom[], people: SolverPerson[], rules: RoomingRules): string[] {
  const byId = new Map(people.map((p) => [p.id, p]));
  return rooms.flatMap((r) =>
    roomBreaks(
      r,
      plan.assignments.filter((a) => a.room_id === r.id).map((a) => byId.get(a.participant_event_id)!),
      rules,
    ),
  );
}

describe('rooming solver: known optima', () => {
  it('honours mutual requests: two pairs in two twins, each pair together', async () => {
    const people = [
      person(1, { wants: [3] }),
      person(2, { wants: [4] }),
      person(3, { wants: [1] }),
      person(4, { wants: [2] }),
    ];
    const plan = await planRooms([room(1, 2), room(2, 2)], people, DEFAULT_RULES);
    const at = roomOf(plan);
    expect(at.get(1)).toBe(at.get(3));
    expect(at.get(2)).toBe(at.get(4));
    expect(plan.requests).toMatchObject({ met: 4, total: 4, mutual: { met: 2, total: 2, satisfiable: 2 } });
  });

  it('the greedy baseline places a mutual pair whole, in the room of the one already placed', async () => {
    const people = [
      person(1, { wants: [3] }),
      person(2, { wants: [4] }),
      person(3, { wants: [1] }),
      person(4, { wants: [2] }),
    ];
    const plan = await planRooms([room(1, 2), room(2, 2)], people, DEFAULT_RULES, { place: greedyPlace });
    const at = roomOf(plan);
    expect(at.get(1)).toBe(at.get(3));
    expect(at.get(2)).toBe(at.get(4));
    expect(plan.assignments).toHaveLength(4);
  });

  it('never breaks an exclusion, even when it costs a request', async () => {
    // 1 and 2 want each other, 3 wants 1, but 3 excludes 2: one dorm and a single.
    const people = [
      person(1, { wants: [2] }),
      person(2, { wants: [1] }),
      person(3, { wants: [1], excludes: [2] }),
    ];
    const plan = await planRooms([room(1, 3), room(2, 1, { type: 'single' })], people, DEFAULT_RULES);
    const at = roomOf(plan);
    expect(at.get(1)).toBe(at.get(2));
    expect(at.get(3)).not.toBe(at.get(2));
    expect(plan.unassigned).toEqual([]);
    expect(plan.requests.unmet).toEqual([
      expect.objectContaining({ participant_event_id: 3, roommate_participant_event_id: 1 }),
    ]);
  });

  it('never puts minors with adults, and says why a request across them is unmet', async () => {
    const people = [person(1, { age: 17, wants: [2] }), person(2, { age: 18, wants: [1] })];
    const plan = await planRooms([room(1, 4)], people, DEFAULT_RULES);
    expect(plan.assignments).toHaveLength(1);
    expect(plan.unassigned).toHaveLength(1);
    expect(plan.requests.unmet[0]!.reason).toMatch(/minor .* adult/);
  });

  it('respects gender designation: nobody goes to a room not designated for them', async () => {
    const people = [person(1, { designations: ['male'] }), person(2, { designations: ['any'] }), person(3)];
    const rooms = [
      room(1, 4, { gender_designation: 'female' }),
      room(2, 4, { gender_designation: 'staff_only' }),
    ];
    const plan = await planRooms(rooms, people, DEFAULT_RULES);
    expect(roomOf(plan)).toEqual(new Map([[3, 1]]));
    expect(plan.unassigned.map((u) => u.participant_event_id).sort()).toEqual([1, 2]);
    expect(plan.unassigned[0]!.reason).toMatch(/No room fits/);
  });

  it('keeps existing assignments unless asked, and skips rooming-exempt people', async () => {
    const people = [
      person(1, { current_room_id: 2 }),
      person(2, { exempt: true }),
      person(3, { wants: [1] }),
    ];
    const rooms = [room(1, 2), room(2, 2)];
    const kept = await planRooms(rooms, people, DEFAULT_RULES);
    expect(roomOf(kept).get(1)).toBe(2);
    expect(roomOf(kept).get(3)).toBe(2);
    expect(roomOf(kept).has(2)).toBe(false);
    const fresh = await planRooms(rooms, people, DEFAULT_RULES, { keepExisting: false });
    expect(roomOf(fresh).get(1)).toBe(roomOf(fresh).get(3));
  });
});

const arbRoom = fc.record({
  capacity: fc.integer({ min: 1, max: 5 }),
  gender_designation: fc.constantFrom('female', 'male', 'any', 'staff_only' as const),
  accessible: fc.boolean(),
  quiet: fc.boolean(),
  band: fc.constantFrom('none', 'minors', 'adults'),
  nights: fc.option(fc.subarray(['2027-07-01', '2027-07-02', '2027-07-03'], { minLength: 1 }), { nil: null }),
});
const arbPerson = fc.record({
  age: fc.option(fc.integer({ min: 10, max: 30 }), { nil: null, freq: 8 }),
  designations: fc.subarray(['female', 'male', 'any'] as const, { minLength: 1 }),
  needs_quiet: fc.boolean(),
  needs_accessible: fc.boolean(),
  stay: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  exempt: fc.boolean(),
  wants: fc.array(fc.nat(20), { maxLength: 2 }),
  excludes: fc.array(fc.nat(20), { maxLength: 2 }),
});

describe('rooming solver: no returned plan breaks a hard rule', () => {
  it('holds for generated inventories, people and rules', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbRoom, { minLength: 1, maxLength: 8 }),
        fc.array(arbPerson, { minLength: 1, maxLength: 20 }),
        fc.record({
          max_age_gap: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
          separate_minors_adults: fc.boolean(),
        }),
        async (rs, ps, r) => {
          const rules = { ...DEFAULT_RULES, ...r };
          const rooms = rs.map((x, i) =>
            room(i + 1, x.capacity, {
              gender_designation: x.gender_designation,
              accessible: x.accessible,
              quiet: x.quiet,
              nights: x.nights,
              min_age: x.band === 'adults' ? 18 : null,
              max_age: x.band === 'minors' ? 17 : null,
            }),
          );
          const people = ps.map((x, i) =>
            person(100 + i, {
              age: x.age,
              designations: [...x.designations],
              needs_quiet: x.needs_quiet,
              needs_accessible: x.needs_accessible,
              exempt: x.exempt,
              nights: x.stay === null ? null : ['2027-07-01', '2027-07-02', '2027-07-03'].slice(0, x.stay),
              wants: x.wants.map((w) => 100 + (w % ps.length)),
              excludes: x.excludes.map((w) => 100 + (w % ps.length)),
            }),
          );
          const plan = await planRooms(rooms, people, rules);
          expect(brokenRules(plan, rooms, people, rules)).toEqual([]);
          // The greedy baseline the bench compares with goes through the same checks.
          const greedy = await planRooms(rooms, people, rules, { place: greedyPlace });
          expect(brokenRules(greedy, rooms, people, rules)).toEqual([]);
          const placed = new Set(plan.assignments.map((a) => a.participant_event_id));
          expect(placed.size).toBe(plan.assignments.length);
          for (const p of people) if (p.exempt) expect(placed.has(p.id)).toBe(false);
          for (const u of plan.unassigned) expect(placed.has(u.participant_event_id)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  }, 240_000);
});
