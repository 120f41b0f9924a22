/**
 * Applying room assignments (docs/rooming.md "Apply"): each `{participant_event_id, room_id}`
 * (room_id null = no room) is written to `assigned_room` through the record writer, one history
 * entry per person whose room changes. Every room someone moves into is checked against the hard
 * rules with everyone who would then be in it; a move into a room that breaks a rule needs an
 * `override_reason` (kept with the assignment, shown on the board), else 422 with the broken rules
 * per person and nothing is written.
 *
 * Errors: 422 `Not registrations rooming concerns: …`, `Not rooms of this event: …`, a registration
 * named twice, or `A move breaks a rule` with `problems: [{participant_event_id, room_id, rules}]`.
 */
import type { UserEventCtx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import { writeAssignedRoom } from './assign.js';
import { loadWorld } from './plan.service.js';
import { roomBreaks } from './solver/hard-rules.js';
import type { SolverPerson } from './solver/types.js';

export interface ApplyItem {
  participant_event_id: number;
  room_id: number | null;
  override_reason?: string;
}

export interface ApplyResult {
  changed: number;
  unchanged: number;
  overridden: number;
}

export interface Breach {
  participant_event_id: number;
  room_id: number;
  rules: string[];
}

export async function applyRooming(ctx: UserEventCtx, items: ApplyItem[]): Promise<ApplyResult> {
  return ctx.db.transaction(async (tx) => {
    const world = await loadWorld(tx, ctx.access.event);
    const people = new Map(world.people.map((p) => [p.id, p]));
    const rooms = new Map(world.solverRooms.map((r) => [r.id, r]));
    const seen = new Set<number>();
    const twice = items.filter((i) => seen.has(i.participant_event_id) || !seen.add(i.participant_event_id));
    if (twice.length)
      throw unprocessable(`Named more than once: ${twice.map((i) => i.participant_event_id).join(', ')}`);
    const unknownPeople = items
      .filter((i) => !people.has(i.participant_event_id))
      .map((i) => i.participant_event_id);
    if (unknownPeople.length)
      throw unprocessable(
        `Not registrations rooming concerns (complete or awaiting guardian) in this event: ${unknownPeople.slice(0, 20).join(', ')}`,
      );
    const unknownRooms = items
      .filter((i) => i.room_id !== null && !rooms.has(i.room_id))
      .map((i) => i.room_id);
    if (unknownRooms.length)
      throw unprocessable(`Not rooms of this event: ${[...new Set(unknownRooms)].slice(0, 20).join(', ')}`);

    const roomOf = new Map(world.people.map((p) => [p.id, p.current_room_id]));
    const changes = items.filter((i) => {
      const p = people.get(i.participant_event_id)!;
      const sameRoom = i.room_id === p.current_room_id;
      // Someone whose assigned_room names no inventory room and who is given no room keeps it.
      return !(sameRoom && (i.room_id !== null || !p.assigned_room?.trim()));
    });
    for (const c of changes) roomOf.set(c.participant_event_id, c.room_id);
    const occupants = new Map<number, SolverPerson[]>();
    for (const [pid, rid] of roomOf)
      if (rid !== null) occupants.set(rid, [...(occupants.get(rid) ?? []), people.get(pid)!]);
    const breaches: Breach[] = [];
    const overrides = new Map<number, string[]>();
    for (const c of changes) {
      if (c.room_id === null) continue;
      const broken = roomBreaks(rooms.get(c.room_id)!, occupants.get(c.room_id) ?? [], world.rules);
      if (broken.length === 0) continue;
      if (c.override_reason?.trim()) overrides.set(c.participant_event_id, broken);
      else breaches.push({ participant_event_id: c.participant_event_id, room_id: c.room_id, rules: broken });
    }
    if (breaches.length)
      throw unprocessable(
        `A move breaks a rule; give an override_reason to keep it: ${breaches[0]!.rules.join('; ')}`,
        { problems: breaches },
      );
    for (const c of changes) {
      const room = c.room_id === null ? null : rooms.get(c.room_id)!;
      const broken = overrides.get(c.participant_event_id);
      await writeAssignedRoom(ctx, tx, {
        registrationId: c.participant_event_id,
        room: room && { id: room.id, name: room.name },
        by: 'rooming_apply',
        ...(broken ? { override: { reason: c.override_reason!.trim().slice(0, 500), rules: broken } } : {}),
      });
    }
    return { changed: changes.length, unchanged: items.length - changes.length, overridden: overrides.size };
  });
}
