/**
 * An event's room inventory (docs/rooming.md "Inventory"): list (rooms and occupants' names, for
 * `rooms.read`), create, change, delete (`rooming.manage`), every write audited (`rooms.create`,
 * `rooms.update` with field names, `rooms.delete`). Renaming a room renames it in its occupants'
 * `assigned_room` (through the record writer, one history entry each). Deleting a room that has
 * occupants is 409: move them first.
 *
 * Errors: 404 `Room not found`, 409 `A room with this name already exists`, 409 `Room … has N
 * people assigned`, 422 for values (rooms.validate.ts).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { UserEventCtx } from '../../deps.js';
import { conflict, isUniqueViolation, notFound } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { writeAssignedRoom } from './assign.js';
import { loadRooms } from './rooms.repo.js';
import type { CreateRoomInput, RoomJson, UpdateRoomInput } from './rooms.schemas.js';
import { type RoomValues, roomValues } from './rooms.validate.js';

export const ROOM_NOT_FOUND = 'Room not found';
const DUPLICATE = 'A room with this name already exists';

export function roomId(raw: string): number {
  if (!/^[0-9]{1,9}$/.test(raw)) throw notFound(ROOM_NOT_FOUND);
  return Number(raw);
}

/** 404 `Room not found` unless `raw` names a room of the event (checked before the body). */
export async function roomInEvent(ctx: UserEventCtx, raw: string): Promise<void> {
  const [room] = await loadRooms(ctx.db, ctx.access.event.id, roomId(raw));
  if (!room) throw notFound(ROOM_NOT_FOUND);
}

export async function listRooms(ctx: UserEventCtx): Promise<{ rooms: RoomJson[] }> {
  return { rooms: await loadRooms(ctx.db, ctx.access.event.id) };
}

async function unique<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(DUPLICATE);
    throw error;
  }
}

/** Inserts or (by id) updates one room's values inside `tx`; returns its id. */
export async function storeRoom(tx: Tx, eventId: number, v: RoomValues, id?: number): Promise<number> {
  const nights = v.nights === null ? null : JSON.stringify(v.nights);
  if (id === undefined) {
    const res = await tx.execute<{ id: number }>(
      sql`INSERT INTO rooms (event_id, name, venue, floor, capacity, type, gender_designation, accessible,
                             quiet, min_age, max_age, nights)
          VALUES (${eventId}, ${v.name}, ${v.venue}, ${v.floor}, ${v.capacity}, ${v.type},
                  ${v.gender_designation}, ${v.accessible}, ${v.quiet}, ${v.min_age}, ${v.max_age},
                  ${nights}::jsonb) RETURNING id`,
    );
    return Number(one(res.rows).id);
  }
  await tx.execute(
    sql`UPDATE rooms SET name = ${v.name}, venue = ${v.venue}, floor = ${v.floor}, capacity = ${v.capacity},
               type = ${v.type}, gender_designation = ${v.gender_designation}, accessible = ${v.accessible},
               quiet = ${v.quiet}, min_age = ${v.min_age}, max_age = ${v.max_age}, nights = ${nights}::jsonb,
               updated_at = now()
         WHERE event_id = ${eventId} AND id = ${id}`,
  );
  return id;
}

function audit(ctx: UserEventCtx, tx: Tx, action: string, id: number, metadata: Record<string, unknown>) {
  return recordAudit(tx, {
    action,
    principal: ctx.access.principal,
    eventId: ctx.access.event.id,
    targetType: 'room',
    targetId: id,
    metadata,
  });
}

export async function createRoom(ctx: UserEventCtx, input: CreateRoomInput): Promise<{ room: RoomJson }> {
  const values = roomValues(input);
  return unique(() =>
    ctx.db.transaction(async (tx) => {
      const id = await storeRoom(tx, ctx.access.event.id, values);
      await audit(ctx, tx, 'rooms.create', id, {});
      return { room: one(await loadRooms(tx, ctx.access.event.id, id)) };
    }),
  );
}

export async function updateRoom(
  ctx: UserEventCtx,
  rawId: string,
  input: UpdateRoomInput,
): Promise<{ room: RoomJson }> {
  const id = roomId(rawId);
  const eventId = ctx.access.event.id;
  return unique(() =>
    ctx.db.transaction(async (tx) => {
      const [current] = await loadRooms(tx, eventId, id);
      if (!current) throw notFound(ROOM_NOT_FOUND);
      const values = roomValues({ ...current, ...input });
      await storeRoom(tx, eventId, values, id);
      if (values.name !== current.name)
        for (const o of current.occupants)
          await writeAssignedRoom(ctx, tx, {
            registrationId: o.participant_event_id,
            room: { id, name: values.name },
            by: 'room_rename',
          });
      await audit(ctx, tx, 'rooms.update', id, { fields: Object.keys(input).sort() });
      return { room: one(await loadRooms(tx, eventId, id)) };
    }),
  );
}

export async function deleteRoom(ctx: UserEventCtx, rawId: string): Promise<void> {
  const id = roomId(rawId);
  await ctx.db.transaction(async (tx) => {
    const [current] = await loadRooms(tx, ctx.access.event.id, id);
    if (!current) throw notFound(ROOM_NOT_FOUND);
    const n = current.occupants.length;
    if (n > 0)
      throw conflict(
        `Room ${current.name} has ${n} ${n === 1 ? 'person' : 'people'} assigned; move them first`,
      );
    await tx.execute(sql`DELETE FROM rooms WHERE event_id = ${ctx.access.event.id} AND id = ${id}`);
    await audit(ctx, tx, 'rooms.delete', id, {});
  });
}
