/**
 * A participant's room as their ticket page shows it (docs/rooming.md "Out to
 * people"): only when the event's rules say `publish_rooms`, and only their own
 * `accommodation.assigned_room` (trimmed). When the value names a room of the inventory, its venue
 * and floor come with it. Returns null when rooms are not published or the person has no room.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { loadRules } from './rules.service.js';

export interface PublishedRoom {
  name: string;
  /** Venue and floor of the inventory room, joined by " · " ('' when unknown). */
  where: string;
}

export async function publishedRoom(
  tx: Tx,
  eventId: number,
  registrationId: number,
): Promise<PublishedRoom | null> {
  if (!(await loadRules(tx, eventId)).publish_rooms) return null;
  const res = await tx.execute<{ assigned: string | null; venue: string | null; floor: string | null }>(
    sql`SELECT btrim(a.assigned_room) AS assigned, rm.venue, rm.floor
          FROM registration_accommodations a
          JOIN registrations r ON r.id = a.registration_id
          LEFT JOIN rooms rm ON rm.event_id = r.event_id AND lower(rm.name) = lower(btrim(a.assigned_room))
         WHERE a.registration_id = ${registrationId} AND r.event_id = ${eventId}`,
  );
  const row = res.rows[0];
  if (!row?.assigned) return null;
  return { name: row.assigned, where: [row.venue, row.floor].filter((x) => x?.trim()).join(' · ') };
}
