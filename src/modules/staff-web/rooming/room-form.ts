/**
 * The rooms page's form values (docs/rooming.md "Pages"): a room's values as the form shows them
 * (strings), the form's fields read back into the API's create/update input, and a service's
 * 422/409 message placed next to the field it names (`Line 3: …` next to the CSV box).
 */

import { staffText } from '../../../lib/i18n/staff.js';
import type { CreateRoomInput, RoomJson } from '../../rooming/rooms.schemas.js';
import type { FormBody } from '../../web/web.schemas.js';
import { field } from '../org-pages.js';

export type RoomForm = Record<
  'name' | 'venue' | 'floor' | 'capacity' | 'type' | 'gender_designation' | 'min_age' | 'max_age' | 'nights',
  string
> & { accessible: boolean; quiet: boolean };

export const EMPTY_ROOM: RoomForm = {
  name: '',
  venue: '',
  floor: '',
  capacity: '2',
  type: 'twin',
  gender_designation: 'any',
  min_age: '',
  max_age: '',
  nights: '',
  accessible: false,
  quiet: false,
};

export const TYPE_WORDS: Record<RoomJson['type'], string> = {
  single: staffText('room_form.single'),
  twin: staffText('room_form.twin'),
  dorm: staffText('room_form.dorm'),
};
export const DESIGNATION_WORDS: Record<RoomJson['gender_designation'], string> = {
  female: staffText('room_form.female'),
  male: staffText('room_form.male'),
  any: staffText('room_form.anyone_mixed'),
  staff_only: staffText('room_form.staff_only'),
};

/** A stored room as the form shows it. */
export function formOf(room: RoomJson): RoomForm {
  return {
    name: room.name,
    venue: room.venue ?? '',
    floor: room.floor ?? '',
    capacity: String(room.capacity),
    type: room.type,
    gender_designation: room.gender_designation,
    min_age: room.min_age === null ? '' : String(room.min_age),
    max_age: room.max_age === null ? '' : String(room.max_age),
    nights: (room.nights ?? []).join(' '),
    accessible: room.accessible,
    quiet: room.quiet,
  };
}

/** The posted form's values (as typed, to show again). */
export function readForm(body: FormBody): RoomForm {
  const text = (k: keyof RoomForm) => field(body, k).trim();
  return {
    name: text('name'),
    venue: text('venue'),
    floor: text('floor'),
    capacity: text('capacity'),
    type: text('type'),
    gender_designation: text('gender_designation'),
    min_age: text('min_age'),
    max_age: text('max_age'),
    nights: text('nights'),
    accessible: field(body, 'accessible') === 'true',
    quiet: field(body, 'quiet') === 'true',
  };
}

/** A bad value of the form: its message and the field it belongs to. */
export class FormProblem extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

const whole = (v: string, label: string, fieldName: string): number | null => {
  if (v === '') return null;
  if (!/^[0-9]{1,3}$/.test(v))
    throw new FormProblem(staffText('room_form.must_be_a_whole_number', { label: label }), fieldName);
  return Number(v);
};

/** The API's input from the form; FormProblem for a value the API's schema would refuse. */
export function inputOf(f: RoomForm): CreateRoomInput {
  const capacity = whole(f.capacity, staffText('room_form.beds'), 'capacity');
  if (capacity === null || capacity < 1 || capacity > 50)
    throw new FormProblem(staffText('room_form.beds_must_be_a_whole_number'), 'capacity');
  if (!(f.type in TYPE_WORDS)) throw new FormProblem(staffText('room_form.choose_the_room_type'), 'type');
  if (!(f.gender_designation in DESIGNATION_WORDS))
    throw new FormProblem(staffText('room_form.choose_who_may_sleep_in_the'), 'gender_designation');
  const age = (v: string, label: string, name: string) => {
    const n = whole(v, label, name);
    if (n !== null && n > 120)
      throw new FormProblem(staffText('room_form.must_be_at_most_120', { label: label }), name);
    return n;
  };
  return {
    name: f.name,
    venue: f.venue || null,
    floor: f.floor || null,
    capacity,
    type: f.type as RoomJson['type'],
    gender_designation: f.gender_designation as RoomJson['gender_designation'],
    accessible: f.accessible,
    quiet: f.quiet,
    min_age: age(f.min_age, staffText('room_form.youngest_age'), 'min_age'),
    max_age: age(f.max_age, staffText('room_form.oldest_age'), 'max_age'),
    nights: f.nights
      ? f.nights
          .split(/[\s,;]+/)
          .filter(Boolean)
          .slice(0, 366)
      : null,
  };
}

/** Which form field a service message is about (the name field when none is named). */
export function fieldOfMessage(message: string): string {
  if (/capacity|single room|twin room|dorm/i.test(message)) return 'capacity';
  if (/min_age|max_age/.test(message)) return 'min_age';
  if (/^nights/.test(message)) return 'nights';
  if (/^venue/.test(message)) return 'venue';
  if (/^floor/.test(message)) return 'floor';
  return 'name';
}

/** Words for a room's age band: "12–17", "18 and over", "any age". */
export function agesOf(room: { min_age: number | null; max_age: number | null }): string {
  if (room.min_age !== null && room.max_age !== null) return `${room.min_age}–${room.max_age}`;
  if (room.min_age !== null) return staffText('room_form.and_over', { min_age: room.min_age });
  if (room.max_age !== null) return staffText('room_form.up_to', { max_age: room.max_age });
  return staffText('room_form.any_age');
}
