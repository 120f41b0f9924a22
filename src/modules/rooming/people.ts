/**
 * The people rooming concerns, as the solver sees them (docs/rooming.md "Who is roomed", "Requests"):
 * age at the event's start, the designations they may use, needs, nights, current room, and their
 * free-text roommate requests and exclusions resolved to registrations of the event.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { DISPLAY_NAME, ROOMED_STATUSES } from './rooms.repo.js';
import type { PersonDesignation, RoomingRules, RoomType, SolverPerson, SolverRoom } from './solver/types.js';

interface Row extends Record<string, unknown> {
  id: number;
  name: string;
  full_name: string;
  email: string;
  date_of_birth: string | null;
  gender_identity: string | null;
  assigned_room: string | null;
  rooming_exempt: boolean | null;
  check_in_date: string | null;
  check_out_date: string | null;
  roommate_preferences: string | null;
  roommate_exclusions: string | null;
  quiet_room_preference: string | null;
  room_type_preference: string | null;
  accessibility_needs: string | null;
}

export interface RoomingPerson extends SolverPerson {
  gender_identity: string | null;
  /** `assigned_room` as stored (also when it names no room of the inventory). */
  assigned_room: string | null;
  /** Request words that name nobody (or several people) of the event, with why. */
  unresolved: { text: string; reason: string; exclusion: boolean }[];
}

const FEMALE = new Set([
  'female',
  'woman',
  'girl',
  'f',
  'cis female',
  'cis woman',
  'trans woman',
  'trans female',
]);
const MALE = new Set(['male', 'man', 'boy', 'm', 'cis male', 'cis man', 'trans man', 'trans male']);
const NO = /^(no\b.*|none|n\/?a|false|-)?$/i;

/** The room designations a gender identity maps to (anything else: `any` rooms only). */
export function designationsOf(identity: string | null): PersonDesignation[] {
  const t = (identity ?? '').trim().toLowerCase();
  if (FEMALE.has(t)) return ['female'];
  if (MALE.has(t)) return ['male'];
  return ['any'];
}

export function roomTypeOf(text: string | null): RoomType | null {
  const t = (text ?? '').toLowerCase();
  if (/single/.test(t)) return 'single';
  if (/twin|double|2 beds/.test(t)) return 'twin';
  if (/dorm|shared|bunk|[3-9] beds/.test(t)) return 'dorm';
  return null;
}

function ageAt(dob: string | null, on: Date): number | null {
  if (!dob) return null;
  const [y = 0, m = 0, d = 0] = dob.split('-').map(Number);
  let age = on.getUTCFullYear() - y;
  if (on.getUTCMonth() + 1 < m || (on.getUTCMonth() + 1 === m && on.getUTCDate() < d)) age--;
  return age;
}

/** Nights from check-in up to the night before check-out (null when either date is unknown). */
export function nightsOf(checkIn: string | null, checkOut: string | null): string[] | null {
  if (!checkIn || !checkOut) return null;
  const out: string[] = [];
  for (
    let t = Date.parse(`${checkIn}T00:00:00Z`);
    t < Date.parse(`${checkOut}T00:00:00Z`) && out.length < 366;
    t += 86_400_000
  )
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

const words = (text: string | null) =>
  (text ?? '')
    .split(/[,;\n]+| and /)
    .map((w) => w.trim())
    .filter((w) => w && !NO.test(w));

/** Everyone rooming concerns in the event, with requests resolved by email or name. */
export async function loadPeople(
  tx: Tx,
  event: { id: number; startsAt: string | null },
  rooms: SolverRoom[],
  rules: RoomingRules,
): Promise<RoomingPerson[]> {
  const res = await tx.execute<Row>(
    sql`SELECT r.id, ${DISPLAY_NAME} AS name, p.legal_first_name || ' ' || p.legal_last_name AS full_name,
               p.email, p.date_of_birth::text AS date_of_birth, a.gender_identity, a.assigned_room,
               a.rooming_exempt, a.check_in_date::text AS check_in_date, a.check_out_date::text AS check_out_date,
               a.roommate_preferences, a.roommate_exclusions, a.quiet_room_preference,
               a.room_type_preference, a.accessibility_needs
          FROM registrations r JOIN people p ON p.id = r.person_id
          LEFT JOIN registration_accommodations a ON a.registration_id = r.id
         WHERE r.event_id = ${event.id} AND r.status IN ${ROOMED_STATUSES}
         ORDER BY r.id`,
  );
  const start = event.startsAt ? new Date(event.startsAt) : new Date();
  const byKey = new Map<string, number[]>();
  const key = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
  for (const row of res.rows)
    for (const k of new Set([row.email, row.name, row.full_name].map(key)))
      byKey.set(k, [...(byKey.get(k) ?? []), Number(row.id)]);
  const roomByName = new Map(rooms.map((r) => [r.name.toLowerCase(), r.id]));
  const choices = new Map(rules.designation_choices.map((c) => [c.participant_event_id, c.designations]));
  return res.rows.map((row) => {
    const id = Number(row.id);
    const unresolved: RoomingPerson['unresolved'] = [];
    const resolve = (text: string | null, exclusion: boolean) =>
      words(text).flatMap((w) => {
        const found = (byKey.get(key(w)) ?? []).filter((x) => x !== id);
        if (found.length === 1) return found;
        unresolved.push({
          text: w,
          exclusion,
          reason: found.length
            ? `“${w}” matches ${found.length} participants`
            : `“${w}” matches no participant of this event`,
        });
        return [];
      });
    return {
      id,
      name: row.name,
      age: ageAt(row.date_of_birth, start),
      designations: choices.get(id) ?? designationsOf(row.gender_identity),
      needs_quiet: !NO.test((row.quiet_room_preference ?? '').trim()),
      needs_accessible: !NO.test((row.accessibility_needs ?? '').trim()),
      nights: nightsOf(row.check_in_date, row.check_out_date),
      room_type: roomTypeOf(row.room_type_preference),
      exempt: row.rooming_exempt === true,
      current_room_id: roomByName.get((row.assigned_room ?? '').trim().toLowerCase()) ?? null,
      wants: [...new Set(resolve(row.roommate_preferences, false))],
      excludes: [...new Set(resolve(row.roommate_exclusions, true))],
      gender_identity: row.gender_identity,
      assigned_room: row.assigned_room,
      unresolved,
    };
  });
}
