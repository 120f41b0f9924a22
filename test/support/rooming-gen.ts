/**
 * A deterministic rooming world (rooms and people) for the solver's bench scenario and tests:
 * a youth event, about 70 % minors, rooms designated female/male (45 % each) or any, twins and
 * dorms, some quiet or accessible, about a third of people in mutual roommate pairs of similar
 * age and the same designation, some one-way requests and some exclusions.
 */
import type {
  PersonDesignation,
  RoomType,
  SolverPerson,
  SolverRoom,
} from '../../src/modules/rooming/solver/types.js';

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateRooming(seed: number, peopleCount: number, roomCount: number) {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const rooms: SolverRoom[] = [];
  for (let i = 0; i < roomCount; i++) {
    const t = r();
    const type: RoomType = t < 0.1 ? 'single' : t < 0.4 ? 'twin' : 'dorm';
    const g = r();
    const adultBand = r() < 0.3;
    rooms.push({
      id: i + 1,
      name: `R${i + 1}`,
      capacity: type === 'single' ? 1 : type === 'twin' ? 2 : pick([4, 6]),
      type,
      gender_designation: g < 0.45 ? 'female' : g < 0.9 ? 'male' : 'any',
      accessible: r() < 0.1,
      quiet: r() < 0.2,
      min_age: adultBand ? 18 : null,
      max_age: adultBand ? null : 17,
      nights: null,
    });
  }
  const people: SolverPerson[] = [];
  for (let i = 0; i < peopleCount; i++) {
    const g = r();
    const designations: PersonDesignation[] = g < 0.47 ? ['female'] : g < 0.94 ? ['male'] : ['any'];
    const minor = r() < 0.7;
    people.push({
      id: 1000 + i,
      name: `P${i}`,
      age: minor ? 12 + Math.floor(r() * 6) : 18 + Math.floor(r() * 12),
      designations,
      needs_quiet: r() < 0.12,
      needs_accessible: r() < 0.02,
      nights: null,
      room_type: r() < 0.3 ? pick(['single', 'twin', 'dorm'] as const) : null,
      exempt: r() < 0.02,
      current_room_id: null,
      wants: [],
      excludes: [],
    });
  }
  // Mutual pairs among people of one designation and similar age.
  const sorted = [...people].sort(
    (a, b) => a.designations[0]!.localeCompare(b.designations[0]!) || a.age! - b.age!,
  );
  for (let i = 0; i + 1 < sorted.length; i += 2) {
    const a = sorted[i]!;
    const b = sorted[i + 1]!;
    const x = r();
    if (x < 0.33 && a.designations[0] === b.designations[0]) {
      a.wants.push(b.id);
      b.wants.push(a.id);
    } else if (x < 0.43) a.wants.push(b.id);
    else if (x < 0.47) a.excludes.push(b.id);
  }
  return { rooms, people };
}
