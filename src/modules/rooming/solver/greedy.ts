/**
 * The greedy baseline the MIP is compared with (docs/decisions.md "Rooming solver", bench
 * `rooming`): the same blocks, units and rule checks as the MIP (plan.ts `blockUnits`), but each
 * unit (a mutual pair that may share a room, or one person) goes whole into the first room that
 * takes it, trying first the rooms of people its members asked for who are already placed. It
 * commits to each choice and never trades one pair's room for two others', which is what the MIP
 * adds. Used through `planRooms(…, { place: greedyPlace })`; never by the service.
 */
import { blockUnits } from './plan.js';
import type { Occupancy } from './state.js';
import type { SolverPerson, SolverRoom } from './types.js';

/** First-fit placing of one block: person id → room id. Leaves `occ` as it found it. */
export async function greedyPlace(
  block: SolverPerson[],
  rooms: SolverRoom[],
  occ: Occupancy,
  contract: boolean,
): Promise<Map<number, number>> {
  const { units } = blockUnits(block, rooms, occ, contract);
  const byId = new Map(rooms.map((r) => [r.id, r]));
  const placed: SolverPerson[] = [];
  const result = new Map<number, number>();
  // Pairs first: a pair needs two free beds in one room, which fill up first.
  const order = [...units].sort((a, b) => b.members.length - a.members.length);
  for (const unit of order) {
    const wanted = unit.members.flatMap((m) => m.wants.map((id) => result.get(id)));
    const first = wanted.filter((id): id is number => id !== undefined && unit.candidates.includes(id));
    for (const roomId of new Set([...first, ...unit.candidates])) {
      const room = byId.get(roomId);
      if (!room) continue;
      const taken: SolverPerson[] = [];
      for (const m of unit.members) {
        if (!occ.mayJoin(m, room)) break;
        occ.place(m, room.id);
        taken.push(m);
      }
      if (taken.length === unit.members.length) {
        for (const m of taken) result.set(m.id, room.id);
        placed.push(...taken);
        break;
      }
      for (const m of taken) occ.remove(m);
    }
  }
  // plan.ts places the answer itself, after checking it again.
  for (const p of placed) occ.remove(p);
  return result;
}
