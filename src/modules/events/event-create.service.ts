/**
 * Creating an event (spec "Series and events" POST /series/{s}/events; docs/decisions.md "Series, events and bans"): the one path
 * shared by the series-key API and `muster events create`. `prepareEvent` is pure (the CLI runs it
 * before opening the database); `insertEvent` writes inside the caller's transaction.
 */
import { eq, like, or } from 'drizzle-orm';
import type { Principal } from '../../access/principal.js';
import type { Tx } from '../../db/client.js';
import { events, users } from '../../db/schema/index.js';
import { ApiError, conflict, isUniqueViolation, unprocessable } from '../../lib/errors.js';
import { slugify, slugProblem } from '../../lib/slug.js';
import { grantEventRole } from '../accounts/users.service.js';
import { recordAudit } from '../audit/audit.service.js';
import {
  checkRequired,
  checkWindows,
  type EventChanges,
  HOTEL_CONTEXT_PROBLEM,
  normalizeEventFields,
} from './event-fields.js';
import type { EventFields } from './event-input.schemas.js';
import { createEventRecord, type EventRow, type SeriesRow } from './records.service.js';

export interface PreparedEvent extends EventChanges {
  columns: EventChanges['columns'] & { name: string; supportEmail: string; timezone: string };
}

/** Required fields, then every field's rule; timezone defaults to UTC. Throws 422. */
export function prepareEvent(fields: EventFields, operatorDomains: readonly string[]): PreparedEvent {
  checkRequired(fields);
  const changes = normalizeEventFields(fields, { operatorDomains, currentZone: 'UTC' });
  const columns = { timezone: 'UTC', ...changes.columns } as PreparedEvent['columns'];
  // A new event's only scan context is created with it: there is nothing to name yet.
  if (columns.hotelScanContextId) throw unprocessable(HOTEL_CONTEXT_PROBLEM);
  checkWindows({
    startsAt: columns.startsAt ?? null,
    endsAt: columns.endsAt ?? null,
    registrationOpenAt: columns.registrationOpenAt ?? null,
    registrationCloseAt: columns.registrationCloseAt ?? null,
  });
  return { columns, modules: changes.modules };
}

/** 409 when another event already uses `slug`. */
export async function assertSlugFree(tx: Tx, slug: string, exceptEventId?: number): Promise<void> {
  const [taken] = await tx.select({ id: events.id }).from(events).where(eq(events.slug, slug));
  if (taken && taken.id !== exceptEventId) throw conflict(`Event slug "${slug}" is already taken`);
}

/** The slug from the name: the first of `base`, `base-2`, `base-3`, … that no event uses. */
async function slugFromName(tx: Tx, name: string): Promise<string> {
  const base = slugify(name);
  const problem = slugProblem(base);
  if (problem) throw unprocessable(`Cannot derive a slug from the name (${problem}); send a slug`);
  const rows = await tx
    .select({ slug: events.slug })
    .from(events)
    .where(or(eq(events.slug, base), like(events.slug, `${base}-%`)));
  const used = new Set(rows.map((r) => r.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * The 409 for a slug conflict: the check in createEventRecord, or a unique-index race (two creates
 * of one slug at once) surfacing as PostgreSQL 23505; null for any other error.
 */
export function slugConflict(error: unknown, slug: string | undefined): ApiError | null {
  if (error instanceof ApiError) return error.statusCode === 409 ? error : null;
  if (!isUniqueViolation(error)) return null;
  return conflict(slug ? `Event slug "${slug}" is already taken` : 'Event slug is already taken');
}

/**
 * Inserts the event (a draft unless `setupComplete`) with its default `Event check-in` context and
 * the default modules overlaid by the given ones. With a series key: the key's owner gets
 * `event_admin` (unless a global admin), and the audit entry `events.create` names the owner as
 * actor and the key (`series_api_key_name`, `series_api_key_id`) in its metadata. Without a
 * principal (CLI) the audit entry has no actor. `metadata` adds to the audit entry's (a copy names
 * its source event there).
 */
export async function insertEvent(
  tx: Tx,
  series: SeriesRow,
  prepared: PreparedEvent,
  opts: { principal?: Principal; setupComplete?: boolean; metadata?: Record<string, unknown> } = {},
): Promise<EventRow> {
  const slug = prepared.columns.slug ?? (await slugFromName(tx, prepared.columns.name));
  // createEventRecord answers 409 when the slug is taken.
  const row = await createEventRecord(tx, {
    ...prepared.columns,
    seriesId: series.id,
    slug,
    setupComplete: opts.setupComplete ?? false,
    modules: prepared.modules,
  });
  const p = opts.principal;
  const metadata: Record<string, unknown> = { slug: row.slug, ...opts.metadata };
  if (p?.kind === 'series_key') {
    metadata.series_api_key_name = p.credentialName;
    metadata.series_api_key_id = p.credentialId;
    if (p.ownerUserId !== null) {
      const [owner] = await tx
        .select({ globalAdmin: users.globalAdmin })
        .from(users)
        .where(eq(users.id, p.ownerUserId));
      if (owner && !owner.globalAdmin) {
        await grantEventRole(tx, p.ownerUserId, row.id, 'event_admin');
        metadata.granted_event_admin_user_id = p.ownerUserId;
      }
    }
  }
  await recordAudit(tx, {
    action: 'events.create',
    ...(p ? { principal: p } : { actorUserId: null }),
    eventId: row.id,
    seriesId: series.id,
    targetType: 'event',
    targetId: row.id,
    metadata,
  });
  return row;
}
