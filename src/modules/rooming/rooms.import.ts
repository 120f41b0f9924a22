/**
 * Room inventory from CSV (docs/rooming.md "CSV import"): a header row naming the columns, one
 * room per line; a room whose name exists (case-insensitively) is updated, others are created.
 * All or nothing: any bad line is a 422 naming its line and writes nothing. Audited once
 * (`rooms.import`, counts).
 */
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import type { UserEventCtx } from '../../deps.js';
import { ApiError, unprocessable } from '../../lib/errors.js';
import { errorMessage } from '../../lib/narrow.js';
import { recordAudit } from '../audit/audit.service.js';
import { loadRooms } from './rooms.repo.js';
import { type CreateRoomInput, MAX_ROOMS_PER_IMPORT, type RoomJson } from './rooms.schemas.js';
import { storeRoom } from './rooms.service.js';
import { type RoomValues, roomValues } from './rooms.validate.js';

const COLUMNS = [
  'name',
  'venue',
  'floor',
  'capacity',
  'type',
  'gender_designation',
  'accessible',
  'quiet',
  'min_age',
  'max_age',
  'nights',
];
const REQUIRED = ['name', 'capacity', 'type', 'gender_designation'];
const TYPES = ['single', 'twin', 'dorm'];
const DESIGNATIONS = ['female', 'male', 'any', 'staff_only'];

function bool(v: string, col: string): boolean {
  const t = v.trim().toLowerCase();
  if (['', 'false', 'no', '0', 'n'].includes(t)) return false;
  if (['true', 'yes', '1', 'y'].includes(t)) return true;
  throw unprocessable(`${col} must be true or false`);
}

function int(v: string, col: string, nullable: boolean): number | null {
  const t = v.trim();
  if (t === '' && nullable) return null;
  if (!/^[0-9]{1,3}$/.test(t)) throw unprocessable(`${col} must be a whole number`);
  return Number(t);
}

function oneOf<T extends string>(v: string, col: string, allowed: string[]): T {
  const t = v.trim().toLowerCase();
  if (!allowed.includes(t)) throw unprocessable(`${col} must be one of ${allowed.join(', ')}`);
  return t as T;
}

function rowInput(row: Record<string, string>): CreateRoomInput {
  const get = (c: string) => row[c] ?? '';
  const nights = get('nights').trim();
  const capacity = int(get('capacity'), 'capacity', false)!;
  if (capacity < 1 || capacity > 50) throw unprocessable('capacity must be 1 to 50');
  return {
    name: get('name'),
    venue: get('venue') || null,
    floor: get('floor') || null,
    capacity,
    type: oneOf(get('type'), 'type', TYPES),
    gender_designation: oneOf(get('gender_designation'), 'gender_designation', DESIGNATIONS),
    accessible: bool(get('accessible'), 'accessible'),
    quiet: bool(get('quiet'), 'quiet'),
    min_age: int(get('min_age'), 'min_age', true),
    max_age: int(get('max_age'), 'max_age', true),
    nights: nights ? nights.split(/[\s;]+/) : null,
  };
}

function parseRows(csv: string): Record<string, string>[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(csv, {
      columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
      skip_empty_lines: true,
      bom: true,
      trim: false,
    });
  } catch (error) {
    throw unprocessable(`The CSV cannot be read: ${errorMessage(error).slice(0, 200)}`);
  }
  if (rows.length === 0) throw unprocessable('The CSV has no rooms');
  if (rows.length > MAX_ROOMS_PER_IMPORT)
    throw unprocessable(`At most ${MAX_ROOMS_PER_IMPORT} rooms per import`);
  const header = Object.keys(rows[0]!);
  const unknown = header.filter((c) => !COLUMNS.includes(c));
  if (unknown.length)
    throw unprocessable(`Unknown columns: ${unknown.join(', ')} (known: ${COLUMNS.join(', ')})`);
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length) throw unprocessable(`Missing columns: ${missing.join(', ')}`);
  return rows;
}

export async function importRooms(
  ctx: UserEventCtx,
  csv: string,
): Promise<{ created: number; updated: number; rooms: RoomJson[] }> {
  const rows = parseRows(csv);
  const values: RoomValues[] = rows.map((row, i) => {
    try {
      return roomValues(rowInput(row));
    } catch (error) {
      // Line numbers count the header as line 1.
      if (error instanceof ApiError) throw unprocessable(`Line ${i + 2}: ${error.message}`);
      throw error;
    }
  });
  const names = new Set<string>();
  values.forEach((v, i) => {
    if (names.has(v.name.toLowerCase()))
      throw unprocessable(`Line ${i + 2}: the name ${v.name} appears twice`);
    names.add(v.name.toLowerCase());
  });
  const eventId = ctx.access.event.id;
  return ctx.db.transaction(async (tx) => {
    const existing = await tx.execute<{ id: number; name: string }>(
      sql`SELECT id, lower(name) AS name FROM rooms WHERE event_id = ${eventId}`,
    );
    const byName = new Map(existing.rows.map((r) => [r.name, Number(r.id)]));
    let created = 0;
    for (const v of values) {
      const id = byName.get(v.name.toLowerCase());
      if (id === undefined) created++;
      await storeRoom(tx, eventId, v, id);
    }
    const updated = values.length - created;
    await recordAudit(tx, {
      action: 'rooms.import',
      principal: ctx.access.principal,
      eventId,
      targetType: 'event',
      targetId: eventId,
      metadata: { created, updated },
    });
    return { created, updated, rooms: await loadRooms(tx, eventId) };
  });
}
