/**
 * Room values as stored (docs/rooming.md "Inventory"): trimmed text, the type's capacity, an age
 * band with min ≤ max, nights as sorted unique real dates. Every problem is a 422 sentence.
 */
import { unprocessable } from '../../lib/errors.js';
import { type CreateRoomInput, ROOM_NAME_MAX } from './rooms.schemas.js';

export interface RoomValues {
  name: string;
  venue: string | null;
  floor: string | null;
  capacity: number;
  type: 'single' | 'twin' | 'dorm';
  gender_designation: 'female' | 'male' | 'any' | 'staff_only';
  accessible: boolean;
  quiet: boolean;
  min_age: number | null;
  max_age: number | null;
  nights: string[] | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function text(value: string | null | undefined, max: number, label: string): string | null {
  const t = value?.trim() ?? '';
  if (t.length > max) throw unprocessable(`${label} must be at most ${max} characters`);
  return t || null;
}

function validDate(d: string): boolean {
  if (!DATE.test(d)) return false;
  const t = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
}

/** The stored values of a room from a whole (create, or merged update) input; 422 on a problem. */
export function roomValues(input: CreateRoomInput): RoomValues {
  const name = text(input.name, ROOM_NAME_MAX, 'name');
  if (!name) throw unprocessable('name cannot be blank');
  const { capacity, type } = input;
  if (type === 'single' && capacity !== 1) throw unprocessable('A single room has capacity 1');
  if (type === 'twin' && capacity !== 2) throw unprocessable('A twin room has capacity 2');
  if (type === 'dorm' && capacity < 2) throw unprocessable('A dorm has capacity 2 or more');
  const min = input.min_age ?? null;
  const max = input.max_age ?? null;
  if (min !== null && max !== null && min > max) throw unprocessable('min_age must not be above max_age');
  let nights: string[] | null = null;
  if (input.nights) {
    const bad = input.nights.find((n) => !validDate(n));
    if (bad !== undefined) throw unprocessable(`nights must be dates YYYY-MM-DD (got "${bad.slice(0, 20)}")`);
    nights = [...new Set(input.nights)].sort();
  }
  return {
    name,
    venue: text(input.venue, 100, 'venue'),
    floor: text(input.floor, 50, 'floor'),
    capacity,
    type,
    gender_designation: input.gender_designation,
    accessible: input.accessible ?? false,
    quiet: input.quiet ?? false,
    min_age: min,
    max_age: max,
    nights,
  };
}
