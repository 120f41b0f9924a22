/**
 * A generated rooming instance for the solver benchmark (docs/rooming.md "Solver", bench/README.md
 * "Rooming"): `people` participants of a residential youth event and `rooms` rooms, from a seeded
 * pseudo-random generator (the same seed gives the same instance, so runs compare).
 *
 * - Rooms: twins, triples, dorms of 4 and 6, and a few singles; designated female (44 %), male
 *   (44 %) or any (12 %); a third for adults only (min_age 18), the rest for minors (max_age 17);
 *   10 % accessible, 20 % quiet. About 3.6 beds a room (1.1 beds a person at 500 people in 150 rooms).
 * - People: ages 12–24 (about 70 % minors), female / male / any; 5 % need an accessible room,
 *   15 % a quiet one. About 60 % are in mutual pairs (same designation, ages within two years, so
 *   almost every pair is satisfiable), 10 % make a one-way request, 2 % exclude someone.
 */
import type { SolverPerson, SolverRoom } from '../src/modules/rooming/solver/types.js';

/** Mulberry32: a small, fast, seeded PRNG (uniform in [0, 1)). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RoomingInstance {
  rooms: SolverRoom[];
  people: SolverPerson[];
}

const SIZES = [1, 2, 3, 4, 4, 4, 6, 6, 6];

export function roomingInstance(people: number, rooms: number, seed = 1): RoomingInstance {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const roomList: SolverRoom[] = [];
  for (let i = 0; i < rooms; i++) {
    const capacity = pick(SIZES);
    const g = rnd();
    const adults = i % 3 === 0;
    roomList.push({
      id: i + 1,
      name: `Room ${i + 1}`,
      capacity,
      type: capacity === 1 ? 'single' : capacity === 2 ? 'twin' : 'dorm',
      gender_designation: g < 0.44 ? 'female' : g < 0.88 ? 'male' : 'any',
      accessible: rnd() < 0.1,
      quiet: rnd() < 0.2,
      min_age: adults ? 18 : null,
      max_age: adults ? null : 17,
      nights: null,
    });
  }
  const list: SolverPerson[] = [];
  for (let i = 0; i < people; i++) {
    const g = rnd();
    const designation = g < 0.48 ? 'female' : g < 0.96 ? 'male' : 'any';
    list.push({
      id: 10_000 + i,
      name: `Person ${i}`,
      age: rnd() < 0.7 ? 12 + Math.floor(rnd() * 6) : 18 + Math.floor(rnd() * 7),
      designations: designation === 'any' ? ['any'] : [designation, 'any'],
      needs_quiet: rnd() < 0.15,
      needs_accessible: rnd() < 0.05,
      nights: null,
      room_type: null,
      exempt: false,
      current_room_id: null,
      wants: [],
      excludes: [],
    });
  }
  // Mutual pairs among people of the same designation and close ages.
  const open = [...list].sort((a, b) => (a.age ?? 0) - (b.age ?? 0));
  const paired = new Set<number>();
  for (let i = 0; i < open.length; i++) {
    const p = open[i] as SolverPerson;
    if (paired.has(p.id) || rnd() >= 0.6) continue;
    const mate = open
      .slice(i + 1, i + 40)
      .find(
        (q) =>
          !paired.has(q.id) &&
          q.designations[0] === p.designations[0] &&
          Math.abs((q.age ?? 0) - (p.age ?? 0)) <= 2 &&
          (q.age ?? 0) >= 18 === (p.age ?? 0) >= 18,
      );
    if (!mate) continue;
    paired.add(p.id).add(mate.id);
    p.wants.push(mate.id);
    mate.wants.push(p.id);
  }
  for (const p of list) {
    if (rnd() < 0.1) p.wants.push(pick(list).id);
    if (rnd() < 0.02) p.excludes.push(pick(list).id);
    p.wants = p.wants.filter((id) => id !== p.id && !p.excludes.includes(id));
    p.excludes = p.excludes.filter((id) => id !== p.id);
  }
  return { rooms: roomList, people: list };
}
