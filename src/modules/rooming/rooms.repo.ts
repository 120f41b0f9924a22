/**
 * Reads of the room inventory and of the people rooming concerns (docs/rooming.md). A person is
 * in a room when their `accommodation.assigned_room`, trimmed, equals the room's name
 * case-insensitively. Rooming concerns registrations that are `complete` or `awaiting_guardian`.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { RoomJson } from './rooms.schemas.js';

export const ROOMED_STATUSES = sql`('complete', 'awaiting_guardian')`;
export const DISPLAY_NAME = sql`COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name || ' ' || p.legal_last_name)`;

interface RoomRow extends Record<string, unknown> {
  id: number;
  name: string;
  venue: string | null;
  floor: string | null;
  capacity: number;
  type: RoomJson['type'];
  gender_designation: RoomJson['gender_designation'];
  accessible: boolean;
  quiet: boolean;
  min_age: number | null;
  max_age: number | null;
  nights: string[] | null;
}

/** The event's rooms by venue, floor, name (natural order), each with its occupants by name. */
export async function loadRooms(tx: Tx, eventId: number, id?: number): Promise<RoomJson[]> {
  const rooms = await tx.execute<RoomRow>(
    sql`SELECT id, name, venue, floor, capacity, type, gender_designation, accessible, quiet, min_age,
               max_age, nights FROM rooms WHERE event_id = ${eventId} ${id === undefined ? sql`` : sql`AND id = ${id}`}
         ORDER BY lower(COALESCE(venue, '')), lower(COALESCE(floor, '')), length(name), lower(name), id`,
  );
  const occupants = await tx.execute<{ room_id: number; participant_event_id: number; display_name: string }>(
    sql`SELECT rm.id AS room_id, r.id AS participant_event_id, ${DISPLAY_NAME} AS display_name
          FROM rooms rm
          JOIN registrations r ON r.event_id = rm.event_id AND r.status IN ${ROOMED_STATUSES}
          JOIN registration_accommodations a ON a.registration_id = r.id
           AND lower(btrim(a.assigned_room)) = lower(rm.name)
          JOIN people p ON p.id = r.person_id
         WHERE rm.event_id = ${eventId} ${id === undefined ? sql`` : sql`AND rm.id = ${id}`}
         ORDER BY lower(${DISPLAY_NAME}), r.id`,
  );
  const byRoom = new Map<number, RoomJson['occupants']>();
  for (const o of occupants.rows) {
    const list = byRoom.get(Number(o.room_id)) ?? [];
    list.push({ participant_event_id: Number(o.participant_event_id), display_name: o.display_name });
    byRoom.set(Number(o.room_id), list);
  }
  return rooms.rows.map((r) => ({
    ...r,
    id: Number(r.id),
    occupants: byRoom.get(Number(r.id)) ?? [],
  }));
}
