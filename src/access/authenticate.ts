/**
 * Bearer credential → Principal (spec "Authentication"; docs/decisions.md "Credentials and roles"). Security-critical: pinned by
 * test/access/matrix.test.ts (no header, garbage, bad checksum, revoked, expired, demoted owner).
 * A secret that fails the format/checksum test is refused before any database query; otherwise it
 * is looked up by its SHA-256 digest only.
 */
import { and, eq, getTableColumns, isNull, type Placeholder, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { prepared } from '../db/prepared.js';
import {
  eventApiKeys,
  eventRoles,
  events,
  globalApiTokens,
  mobileTokens,
  seriesApiKeys,
  seriesRoles,
  users,
} from '../db/schema/index.js';
import { SYNC_HIGH_WATER_SQL } from '../db/watermark.js';
import { batcherPer } from '../lib/batcher.js';
import { unauthorized } from '../lib/errors.js';
import { isOneOf } from '../lib/narrow.js';
import { classifySecret } from '../lib/secrets.js';
import { isoSqlText } from '../lib/time.js';
import type { Roles } from './policy.js';
import type { Principal, PrincipalUser } from './principal.js';
import type { EventRef, EventRow } from './resolve.js';

const userColumns = {
  id: users.id,
  uuid: users.uuid,
  email: users.email,
  name: users.name,
  globalAdmin: users.globalAdmin,
};

/** Extracts the token from an `Authorization: Bearer <token>` header; undefined when absent/malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer[ ]+(\S{1,512})\s*$/i.exec(header);
  return m?.[1];
}

/** Resolves a presented secret; throws 401 `{"error":"Unauthorized"}` for anything not live. */
export async function authenticate(db: Tx, token: string | undefined, now = new Date()): Promise<Principal> {
  if (!token) throw unauthorized();
  const secret = classifySecret(token);
  if (!secret) throw unauthorized();
  const principal = await lookup(db, secret.kind, secret.digest, now);
  if (!principal) throw unauthorized();
  return principal;
}

/**
 * authenticate() with the path's event and the user's roles on it (event roles, series roles on
 * its series) fetched in the same statement (one round trip instead of two to four on hot paths
 * such as POST /events/{e}/scans), for mobile tokens; undefined for any other kind of secret (the
 * caller then runs the separate lookups). Throws the same 401s as authenticate(); `event` is null
 * when no event matches `event`, and the caller keeps the check order (401, then 403
 * kind/scope, then 404, then 403 reach). With `withWatermark`, the same statement also reads the
 * sync high-water mark (db/watermark.ts) as `watermark`: it is read before any statement of the
 * request's handler, which is all the mark needs (docs/performance.md "Delta sync").
 */
export async function authenticateWithEvent(
  db: Tx,
  token: string | undefined,
  event: EventRef,
  now = new Date(),
  withWatermark = false,
): Promise<{ principal: Principal; event: EventRow | null; roles: Roles; watermark?: string } | undefined> {
  if (!token) throw unauthorized();
  const secret = classifySecret(token);
  if (!secret) throw unauthorized();
  if (secret.kind !== 'mobile') return undefined;
  const key: LookupKey = withWatermark ? `${event.by}:w` : event.by;
  const row = await mobileLookup(
    db,
    key,
  )({
    digest: secret.digest,
    event: event.value,
  });
  const principal = mobilePrincipal(row, now);
  if (!principal) throw unauthorized();
  const roles: Roles = {
    event: new Set(rolesIn(row!.eventRoles, eventRoles.role.enumValues)),
    series: new Set(rolesIn(row!.seriesRoles, seriesRoles.role.enumValues)),
  };
  return { principal, event: row!.event, roles, ...(row!.hw ? { watermark: row!.hw } : {}) };
}

/** The roles of `list` named in a JSON text array (the role columns' values); none for NULL. */
function rolesIn<R extends string>(json: string | null, list: readonly R[]): R[] {
  const parsed: unknown = JSON.parse(json ?? '[]');
  return Array.isArray(parsed) ? parsed.filter((role) => isOneOf(list, role)) : [];
}

/** What a mobile token's principal is built from. */
const mobileColumns = {
  id: mobileTokens.id,
  expiresAt: mobileTokens.expiresAt,
  deviceName: mobileTokens.deviceName,
  user: userColumns,
};
const liveMobileToken = (digest: string | Placeholder) =>
  and(eq(mobileTokens.tokenDigest, digest), isNull(mobileTokens.revokedAt));

/**
 * The mobile tokens with the path's events and the users' roles on them (authenticateWithEvent),
 * for several requests in one statement: one prepared statement per way of naming the event
 * (db/prepared.ts), with or without the sync high-water mark (column `hw`, the same for every
 * row); values: `digests` and `events`, two arrays of equal length. Row `i` (from 1) answers the
 * i-th pair; a pair whose token is unknown or revoked has no row.
 */
function mobileQuery(by: EventRef['by'], withWatermark: boolean) {
  const eventType = sql.raw(by === 'id' ? 'integer' : by === 'uuid' ? 'uuid' : 'text');
  return prepared(`auth_mobile_events_${by}${withWatermark ? '_hw' : ''}`, (db, name) =>
    db
      .select({
        i: sql<number>`x.i::int`,
        ...mobileColumns,
        event: getTableColumns(events),
        // The same rows as loadRoles() (resolve.ts) reads, as JSON text arrays; NULL when there are none.
        eventRoles: sql<string | null>`(SELECT json_agg(er.role)::text FROM ${eventRoles} er
          WHERE er.user_id = ${users.id} AND er.event_id = ${events.id})`,
        seriesRoles: sql<string | null>`(SELECT json_agg(sr.role)::text FROM ${seriesRoles} sr
          WHERE sr.user_id = ${users.id} AND sr.series_id = ${events.seriesId})`,
        hw: withWatermark ? sql<string>`${sql.raw(isoSqlText(SYNC_HIGH_WATER_SQL))}` : sql<null>`NULL::text`,
      })
      .from(mobileTokens)
      .innerJoin(
        sql`unnest(${sql.placeholder('digests')}::text[], ${sql.placeholder('events')}::${eventType}[])
              WITH ORDINALITY AS x(digest, event, i)`,
        sql`x.digest = ${mobileTokens.tokenDigest}`,
      )
      .innerJoin(users, eq(users.id, mobileTokens.userId))
      .leftJoin(events, eq(events[by], sql`x.event`))
      .where(isNull(mobileTokens.revokedAt))
      .prepare(name as string),
  );
}
/** How a lookup names its event, and `:w` when it also reads the sync high-water mark. */
type LookupKey = EventRef['by'] | `${EventRef['by']}:w`;
const mobileWithEvents: Record<LookupKey, ReturnType<typeof mobileQuery>> = {
  id: mobileQuery('id', false),
  uuid: mobileQuery('uuid', false),
  slug: mobileQuery('slug', false),
  'id:w': mobileQuery('id', true),
  'uuid:w': mobileQuery('uuid', true),
  'slug:w': mobileQuery('slug', true),
};

interface MobileEventRow extends MobileRow {
  /** The position (from 1) of the lookup this row answers. */
  i: number;
  event: EventRow | null;
  eventRoles: string | null;
  seriesRoles: string | null;
  /** The sync high-water mark (ISO 8601), read by the `:w` statements only. */
  hw: string | null;
}
type MobileEventLookup = { digest: string; event: EventRef['value'] };

/**
 * Concurrent lookups are coalesced (lib/batcher.ts, per database handle and way of naming the
 * event): each request's token is still looked up after the request arrived, so a revoked or
 * expired token is refused at once; requests that arrive together share one round trip.
 */
const mobileLookup = batcherPer<Tx, LookupKey, MobileEventLookup, MobileEventRow | undefined>((db, by) => ({
  maxBatch: 100,
  maxInFlight: 1,
  async run(batch) {
    const rows = await mobileWithEvents[by](db).execute({
      digests: batch.map((call) => call.input.digest),
      events: batch.map((call) => call.input.event),
    });
    const byIndex = new Map(rows.map((row) => [row.i, row]));
    for (const [k, call] of batch.entries()) call.resolve(byIndex.get(k + 1));
  },
}));

interface MobileRow {
  id: number;
  expiresAt: string;
  deviceName: string | null;
  user: PrincipalUser;
}

function mobilePrincipal(row: MobileRow | undefined, now: Date): Principal | null {
  if (!row) return null;
  const expiresAt = new Date(row.expiresAt);
  if (expiresAt <= now) return null;
  return {
    kind: 'mobile',
    credentialId: String(row.id),
    credentialName: row.deviceName,
    user: row.user,
    expiresAt,
  };
}

async function lookup(db: Tx, kind: string, digest: string, now: Date): Promise<Principal | null> {
  switch (kind) {
    case 'mobile': {
      const [row] = await db
        .select(mobileColumns)
        .from(mobileTokens)
        .innerJoin(users, eq(users.id, mobileTokens.userId))
        .where(liveMobileToken(digest));
      return mobilePrincipal(row, now);
    }
    case 'global': {
      const [row] = await db
        .select({
          id: globalApiTokens.id,
          name: globalApiTokens.name,
          scopes: globalApiTokens.scopes,
          expiresAt: globalApiTokens.expiresAt,
          user: userColumns,
        })
        .from(globalApiTokens)
        .innerJoin(users, eq(users.id, globalApiTokens.userId))
        .where(and(eq(globalApiTokens.tokenDigest, digest), isNull(globalApiTokens.revokedAt)));
      // Honoured only while its owner is still a global admin (spec "Authentication").
      if (!row?.user.globalAdmin) return null;
      if (row.expiresAt && new Date(row.expiresAt) <= now) return null;
      return {
        kind: 'global',
        credentialId: String(row.id),
        credentialName: row.name,
        user: row.user,
        scopes: row.scopes,
      };
    }
    case 'series_key': {
      const [row] = await db
        .select()
        .from(seriesApiKeys)
        .where(and(eq(seriesApiKeys.tokenDigest, digest), isNull(seriesApiKeys.revokedAt)));
      if (!row) return null;
      return {
        kind: 'series_key',
        credentialId: String(row.id),
        credentialName: row.name,
        seriesId: row.seriesId,
        ownerUserId: row.ownerUserId,
      };
    }
    case 'event_key': {
      const [row] = await db
        .select()
        .from(eventApiKeys)
        .where(and(eq(eventApiKeys.tokenDigest, digest), isNull(eventApiKeys.revokedAt)));
      if (!row) return null;
      return {
        kind: 'event_key',
        credentialId: String(row.id),
        credentialName: row.name,
        eventId: row.eventId,
        ownerUserId: row.ownerUserId,
        legacy: false,
      };
    }
    case 'legacy_event_key': {
      const [row] = await db
        .select({ id: events.id, name: events.legacyApiKeyName })
        .from(events)
        .where(eq(events.legacyApiKeyDigest, digest));
      if (!row) return null;
      return {
        kind: 'event_key',
        credentialId: `legacy:${row.id}`,
        credentialName: row.name ?? 'Legacy event key',
        eventId: row.id,
        ownerUserId: null,
        legacy: true,
      };
    }
    default:
      return null;
  }
}
