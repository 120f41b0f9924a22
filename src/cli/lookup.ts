/** Finding records named on the command line, and the checks the CLI applies to its inputs. */
import { eq } from 'drizzle-orm';
import { type EventRow, resolveEvent } from '../access/resolve.js';
import type { Tx } from '../db/client.js';
import { series } from '../db/schema/index.js';
import { ApiError, notFound } from '../lib/errors.js';
import { UUID_PATTERN } from '../lib/identifiers.js';
import type { SeriesRow } from '../modules/events/records.service.js';

/** An event by slug (or numeric id, or UUID); ApiError 404 naming it otherwise. */
export async function findEvent(tx: Tx, ref: string): Promise<EventRow> {
  try {
    return await resolveEvent(tx, ref, true);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) throw notFound(`No event "${ref}"`);
    throw error;
  }
}

/** A series by slug or UUID; ApiError 404 naming it otherwise. */
export async function findSeries(tx: Tx, ref: string): Promise<SeriesRow> {
  const [row] = await tx
    .select()
    .from(series)
    .where(UUID_PATTERN.test(ref) ? eq(series.id, ref.toLowerCase()) : eq(series.slug, ref));
  if (!row) throw notFound(`No series "${ref}"`);
  return row;
}
