/**
 * The participant JSON cache (migration 0026; docs/performance.md "Participant JSON cache"): the
 * sync list serves a registration's JSON text from `participant_json` when it was built for the
 * same visibility tier, by the same serializer (`version`), at the registration's current
 * updated_at; otherwise it builds the text with the serializer (participants.serialize.ts) and
 * stores it, in the same statement. Every change to a registration's record bumps its updated_at
 * (migration 0001), so a stored text is served only while it equals what the serializer would
 * build: the bytes never differ from the uncached list's (test/http/participants-cache.test.ts).
 * A change leaves a fence that refuses texts built before it (`CACHE_REPLACES`, migration 0027).
 *
 * A read never waits for a writer: it stores only the texts of registrations it can share-lock at
 * once (`FOR SHARE … SKIP LOCKED`). A transaction that changed a registration holds its row lock,
 * and its fence rows, until it ends; storing over those would wait for it (found on PostgreSQL by
 * test/infra/sync-watermark.test.ts, a list read held up by a write left open). Such a text is
 * served from what was built and stored by the next read. While the share lock is held no change
 * to the registration can start, so a text stored is never stale against an uncommitted fence.
 */
import { createHash } from 'node:crypto';
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Visibility } from '../../access/policy.js';
import { participantFrom, participantSelect } from './participants.serialize.js';

/** The tier a visibility is cached under ('-': neither PII nor sensitive fields). */
export function cacheTier(v: Visibility): string {
  return `${v.pii ? 'p' : ''}${v.sensitive ? 's' : ''}` || '-';
}

/**
 * The serializer's version for `v`: a digest of its SQL text, so a release that changes what a
 * row's JSON holds never serves texts built by the one before (they are rebuilt on first read).
 */
export function cacheVersion(v: Visibility): string {
  return createHash('sha256')
    .update(`${participantSelect(v)}\n${participantFrom(v)}`)
    .digest('base64url')
    .slice(0, 16);
}

/**
 * When a read's text replaces the stored row (the `ON CONFLICT … DO UPDATE` condition): only a row
 * stamped before the text's updated_at, or at the same one by another serializer version. A change
 * to a registration leaves a fence in each tier, stamped with its new updated_at (migration 0027),
 * so a text built from a snapshot older than the change is never stored after it: what an erasure
 * or any other change replaced cannot come back into the table. The tiers are those of `cacheTier`;
 * the fence's function lists them.
 */
export const CACHE_REPLACES = `participant_json.updated_at < EXCLUDED.updated_at
  OR (participant_json.updated_at = EXCLUDED.updated_at AND participant_json.version <> EXCLUDED.version)`;

/**
 * CTEs (to follow a `WITH`) ending in `rows(id, j)`: the participant JSON text of each row of
 * `want` (a CTE with columns `id`, `updated_at` of registrations of `eventId`), from the cache
 * where it is current, else built and stored. `eventId` is an SQL value (placeholder).
 */
export function cachedRowsCtes(v: Visibility, want: string, eventId: SQL | Placeholder): SQL {
  const tier = `'${cacheTier(v)}'`;
  const version = `'${cacheVersion(v)}'`;
  return sql`hit AS MATERIALIZED (
      SELECT w.id, c.j FROM ${sql.raw(want)} w JOIN participant_json c
        ON c.registration_id = w.id AND c.tier = ${sql.raw(tier)} AND c.version = ${sql.raw(version)}
       AND c.updated_at = w.updated_at),
    built AS MATERIALIZED (
      SELECT r.id, r.updated_at, ${sql.raw(participantSelect(v))} FROM ${sql.raw(participantFrom(v))}
       WHERE r.id = ANY((SELECT array_agg(w.id) FROM ${sql.raw(want)} w
                          WHERE NOT EXISTS (SELECT 1 FROM hit h WHERE h.id = w.id))::int[])
         AND r.event_id = ${eventId}),
    free AS MATERIALIZED (
      SELECT r.id FROM registrations r JOIN built b ON b.id = r.id FOR SHARE OF r SKIP LOCKED),
    saved AS (
      INSERT INTO participant_json (registration_id, tier, version, updated_at, j)
      SELECT id, ${sql.raw(tier)}, ${sql.raw(version)}, updated_at, j FROM built
       WHERE id IN (SELECT id FROM free) ORDER BY id
      ON CONFLICT (registration_id, tier) DO UPDATE
        SET version = EXCLUDED.version, updated_at = EXCLUDED.updated_at, j = EXCLUDED.j
      WHERE ${sql.raw(CACHE_REPLACES)}),
    rows AS (SELECT id, j FROM hit UNION ALL SELECT id, j FROM built)`;
}
