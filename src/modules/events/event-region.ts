/**
 * The event's country as a phone-number region (docs/participant-record.md "Phone numbers"): phone
 * numbers written without a country code are read as numbers of the event's country.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { regionOf } from '../../lib/phone.js';

/** The region code of event `eventId`'s `location_country` (`GB`), or null when it names none. */
export async function eventRegion(db: Tx, eventId: number): Promise<string | null> {
  const res = await db.execute<{ country: string | null }>(
    sql`SELECT location_country AS country FROM events WHERE id = ${eventId}`,
  );
  return regionOf(res.rows[0]?.country);
}
