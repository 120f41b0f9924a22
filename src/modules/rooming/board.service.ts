/**
 * What the rooming board shows (docs/rooming.md "Pages"), decided here so the
 * page cannot show more than the caller may see:
 * - `boardRooms` (`rooms.read`: event admins, series roles): the rooms and their occupants' names,
 *   nothing about the people (no age, gender identity, needs or requests);
 * - `boardFull` (`rooming.manage`: safeguarding leads, global admins): every person rooming
 *   concerns as a card (age, gender identity, flags, requests met or not, a kept rule override
 *   with its reason), each room's rule problems in words, and the unassigned.
 * Reads only; the board's writes go through the plan and apply services.
 */
import { sql } from 'drizzle-orm';
import type { UserEventCtx } from '../../deps.js';
import type { RoomingPerson } from './people.js';
import { loadWorld } from './plan.service.js';
import { loadRooms } from './rooms.repo.js';
import type { RoomJson } from './rooms.schemas.js';
import { isAdult, roomBreaks } from './solver/hard-rules.js';
import type { RoomingRules } from './solver/types.js';

/** A room as a board column heading shows it (inventory only: no personal data). */
export interface BoardRoom {
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
  used: number;
}

export interface NamesColumn extends BoardRoom {
  names: string[];
}

export interface Card {
  id: number;
  name: string;
  age: number | null;
  gender_identity: string | null;
  room_id: number | null;
  /** Flags in words (the page adds an icon to each). */
  flags: {
    kind: 'minor' | 'adult' | 'no_dob' | 'quiet' | 'accessible' | 'exempt' | 'outside';
    text: string;
  }[];
  requests: { text: string; met: boolean }[];
  override: { reason: string; rules: string[] } | null;
}

export interface FullColumn extends BoardRoom {
  cards: Card[];
  /** Hard rules the room's occupants break now (kept by an override, or typed by hand). */
  breaks: string[];
}

const roomOf = (r: RoomJson, used: number): BoardRoom => ({
  id: r.id,
  name: r.name,
  venue: r.venue,
  floor: r.floor,
  capacity: r.capacity,
  type: r.type,
  gender_designation: r.gender_designation,
  accessible: r.accessible,
  quiet: r.quiet,
  min_age: r.min_age,
  max_age: r.max_age,
  used,
});

/** Rooms and their occupants' names: all an event admin's board holds. */
export async function boardRooms(ctx: UserEventCtx): Promise<NamesColumn[]> {
  const rooms = await loadRooms(ctx.db, ctx.access.event.id);
  return rooms.map((r) => ({
    ...roomOf(r, r.occupants.length),
    names: r.occupants.map((o) => o.display_name),
  }));
}

function flagsOf(p: RoomingPerson, rules: RoomingRules): Card['flags'] {
  const flags: Card['flags'] = [];
  if (p.age === null) flags.push({ kind: 'no_dob', text: 'No date of birth' });
  else flags.push(isAdult(p, rules) ? { kind: 'adult', text: 'Adult' } : { kind: 'minor', text: 'Minor' });
  if (p.needs_quiet) flags.push({ kind: 'quiet', text: 'Asked for a quiet room' });
  if (p.needs_accessible) flags.push({ kind: 'accessible', text: 'Accessibility needs' });
  if (p.exempt) flags.push({ kind: 'exempt', text: 'Rooming exempt' });
  if (p.assigned_room?.trim() && p.current_room_id === null)
    flags.push({ kind: 'outside', text: `Room “${p.assigned_room.trim()}” is not in the inventory` });
  return flags;
}

function requestsOf(p: RoomingPerson, byId: Map<number, RoomingPerson>): Card['requests'] {
  const together = (id: number) =>
    p.current_room_id !== null && byId.get(id)?.current_room_id === p.current_room_id;
  return [
    ...p.wants.map((id) => ({ text: `With ${byId.get(id)?.name ?? 'someone'}`, met: together(id) })),
    ...p.excludes.map((id) => ({ text: `Not with ${byId.get(id)?.name ?? 'someone'}`, met: !together(id) })),
    ...p.unresolved.map((u) => ({
      text: `${u.exclusion ? 'exclusion' : 'request'} ${u.reason}`,
      met: false,
    })),
  ];
}

/** Everything a safeguarding lead's board shows: rooms with cards and problems, and the unassigned. */
export async function boardFull(ctx: UserEventCtx) {
  const world = await loadWorld(ctx.db, ctx.access.event);
  const overrides = await ctx.db.execute<{ registration_id: number; reason: string; rules: string[] }>(
    sql`SELECT o.registration_id, o.reason, o.rules FROM rooming_overrides o
          JOIN registrations r ON r.id = o.registration_id WHERE r.event_id = ${ctx.access.event.id}`,
  );
  const overrideOf = new Map(overrides.rows.map((o) => [Number(o.registration_id), o]));
  const byId = new Map(world.people.map((p) => [p.id, p]));
  const card = (p: RoomingPerson): Card => {
    const o = overrideOf.get(p.id);
    return {
      id: p.id,
      name: p.name,
      age: p.age,
      gender_identity: p.gender_identity,
      room_id: p.current_room_id,
      flags: flagsOf(p, world.rules),
      requests: requestsOf(p, byId),
      override: o ? { reason: o.reason, rules: o.rules } : null,
    };
  };
  const columns: FullColumn[] = world.rooms.map((r) => {
    const inside = world.people.filter((p) => p.current_room_id === r.id);
    const solverRoom = world.solverRooms.find((s) => s.id === r.id)!;
    return {
      ...roomOf(r, inside.length),
      cards: inside.map(card),
      breaks: roomBreaks(solverRoom, inside, world.rules),
    };
  });
  const unassigned = world.people.filter((p) => p.current_room_id === null).map(card);
  return { columns, unassigned, names: new Map(world.people.map((p) => [p.id, p.name])) };
}

/**
 * The hard rules a move would break (docs/rooming.md "Pages": the board's instant warning): the
 * room's occupants with `personId` moved in, checked as apply checks them. Empty when the move is
 * fine or `roomId` is null (no room). Null when the person or the room is not the event's.
 */
export async function moveBreaks(
  ctx: UserEventCtx,
  personId: number,
  roomId: number | null,
): Promise<{ person: string; room: string | null; rules: string[] } | null> {
  const world = await loadWorld(ctx.db, ctx.access.event);
  const person = world.people.find((p) => p.id === personId);
  const room = roomId === null ? null : world.solverRooms.find((r) => r.id === roomId);
  if (!person || room === undefined) return null;
  if (room === null || person.current_room_id === room.id)
    return { person: person.name, room: room?.name ?? null, rules: [] };
  const inside = world.people.filter((p) => p.current_room_id === room.id && p.id !== personId);
  return { person: person.name, room: room.name, rules: roomBreaks(room, [...inside, person], world.rules) };
}
