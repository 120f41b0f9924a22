/**
 * The rooms' occupancy while a plan is built: who is in each room (fixed) and which rooms a person
 * may still join without breaking a hard rule (docs/rooming.md "Rules").
 */
import { pairConflict, roomBreaks, unfitReason } from './hard-rules.js';
import type { RoomingRules, SolverPerson, SolverRoom } from './types.js';

export class Occupancy {
  readonly occupants = new Map<number, SolverPerson[]>();
  readonly roomOf = new Map<number, number>();
  /** Rooms whose current occupants already break a rule (kept by an override): closed to others. */
  readonly closed = new Set<number>();

  constructor(
    readonly rooms: SolverRoom[],
    readonly rules: RoomingRules,
  ) {
    for (const r of rooms) this.occupants.set(r.id, []);
  }

  place(person: SolverPerson, roomId: number): void {
    this.occupants.get(roomId)!.push(person);
    this.roomOf.set(person.id, roomId);
  }

  /** Takes `person` out of their room (the repair pass moves people this plan placed). */
  remove(person: SolverPerson): void {
    const roomId = this.roomOf.get(person.id);
    if (roomId === undefined) return;
    const list = this.occupants.get(roomId)!;
    list.splice(list.indexOf(person), 1);
    this.roomOf.delete(person.id);
  }

  /** After the fixed occupants are placed: close rooms that already break a rule. */
  closeBroken(): void {
    for (const r of this.rooms)
      if (roomBreaks(r, this.occupants.get(r.id)!, this.rules).length) this.closed.add(r.id);
  }

  free(room: SolverRoom): number {
    return this.closed.has(room.id) ? 0 : room.capacity - this.occupants.get(room.id)!.length;
  }

  /** May `p` join `room` as it is now (free bed, fits, no pair rule with anyone there)? */
  mayJoin(p: SolverPerson, room: SolverRoom): boolean {
    if (this.free(room) <= 0) return false;
    if (unfitReason(p, room, this.rules) !== null) return false;
    return this.occupants.get(room.id)!.every((o) => pairConflict(p, o, this.rules) === null);
  }
}
