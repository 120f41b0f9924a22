/** Finding records named on the command line, and the checks the CLI applies to its inputs. */
import { eq } from 'drizzle-orm';
import { type EventRow, resolveEvent } from '../access/resolve.js';
import type { Tx } from '../db/client.js';
import { series } from '../db/schema/index.js';
import { ApiError, notFound } from '../lib/errors.js';
import type { SeriesRow } from '../modules/events/records.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
    .where(UUID.test(ref) ? eq(series.id, ref.toLowerCase()) : eq(series.slug, ref));
  if (!row) throw notFound(`No series "${ref}"`);
  return row;
}

/** Why `email` cannot be an event support email (contract §7: exact operator domain), or null. */
export function supportEmailProblem(email: string, operatorDomains: readonly string[]): string | null {
  const value = email.trim().toLowerCase();
  if (!EMAIL.test(value)) return `Invalid support email: ${email}`;
  const domain = value.slice(value.lastIndexOf('@') + 1);
  if (!operatorDomains.includes(domain)) {
    return `The support email must use one of the operator domains (${operatorDomains.join(', ')}); got ${domain}`;
  }
  return null;
}

/** The canonical IANA name of `zone` (e.g. `europe/london` → `Europe/London`), or null if unknown. */
export function canonicalTimeZone(zone: string): string | null {
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
