/**
 * A series' API keys managed by its owners (and global admins): list, issue, revoke. Covers the
 * series keys of the series and the event keys of its events (legacy per-event keys stay CLI-only).
 * The secret is returned once, by create, and stored only as a digest (see issue.service.ts); audit
 * entries name the key, never the secret. `last_used_at` is kept by http/key-usage.ts.
 *
 * Errors: 404 `API key not found` (unknown id or a key of another series), 409 `API key is already
 * revoked`, 422 for a blank name, `event_id` missing/present for the wrong kind, or an event that
 * is not in this series.
 */
import { sql } from 'drizzle-orm';
import { eventWhere } from '../../access/resolve.js';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import { events } from '../../db/schema/index.js';
import type { UserSeriesCtx } from '../../deps.js';
import { conflict, notFound, unprocessable } from '../../lib/errors.js';
import { isoSql } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import { API_KEY_NAME_MAX, type ApiKeyJson, type CreateApiKeyInput } from './api-keys.schemas.js';
import { issueEventKey, issueSeriesKey } from './issue.service.js';
import { revokeKey } from './revoke.service.js';

export const API_KEY_NOT_FOUND = 'API key not found';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Row extends Record<string, unknown> {
  uuid: string;
  key_id: number;
  kind: 'series' | 'event';
  name: string;
  event_id: number | null;
  event_name: string | null;
  event_slug: string | null;
  owner_id: number | null;
  owner_name: string | null;
  owner_email: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function keysQuery(seriesId: string) {
  const cols = (k: string) =>
    sql.raw(`${k}.uuid::text AS uuid, ${k}.id AS key_id, ${k}.name, u.id AS owner_id, u.name AS owner_name,
      u.email AS owner_email`);
  return sql`SELECT * FROM (
      SELECT ${cols('k')}, 'series' AS kind, NULL::int AS event_id, NULL::text AS event_name,
             NULL::text AS event_slug, ${isoSql('k.created_at')} AS created_at,
             ${isoSql('k.last_used_at')} AS last_used_at, ${isoSql('k.revoked_at')} AS revoked_at, k.created_at AS at
        FROM series_api_keys k LEFT JOIN users u ON u.id = k.owner_user_id WHERE k.series_id = ${seriesId}
      UNION ALL
      SELECT ${cols('k')}, 'event' AS kind, e.id, e.name, e.slug, ${isoSql('k.created_at')},
             ${isoSql('k.last_used_at')}, ${isoSql('k.revoked_at')}, k.created_at
        FROM event_api_keys k JOIN events e ON e.id = k.event_id LEFT JOIN users u ON u.id = k.owner_user_id
       WHERE e.series_id = ${seriesId}) x`;
}

function keyJson(r: Row): ApiKeyJson {
  return {
    id: r.uuid,
    kind: r.kind,
    name: r.name,
    event: r.event_id === null ? null : { id: r.event_id, name: r.event_name!, slug: r.event_slug! },
    owner: r.owner_id === null ? null : { id: r.owner_id, name: r.owner_name!, email: r.owner_email! },
    created_at: r.created_at,
    last_used_at: r.last_used_at,
    revoked_at: r.revoked_at,
  };
}

/** Every series and event key of the series (revoked ones too), newest first. */
export async function listApiKeys(ctx: UserSeriesCtx): Promise<{ api_keys: ApiKeyJson[] }> {
  const series = ctx.access.series;
  const res = await ctx.db.execute<Row>(sql`${keysQuery(series.id)} ORDER BY x.at DESC, x.uuid`);
  return { api_keys: res.rows.map(keyJson) };
}

async function findKey(tx: Tx, seriesId: string, uuid: string): Promise<Row | undefined> {
  const res = await tx.execute<Row>(sql`${keysQuery(seriesId)} WHERE x.uuid = ${uuid.toLowerCase()}`);
  return res.rows[0];
}

async function eventOfSeries(tx: Tx, seriesId: string, ref: string | number | undefined) {
  if (ref === undefined) throw unprocessable('event_id is required for an event key');
  const where = eventWhere(String(ref), true);
  const [row] = where
    ? await tx.select({ id: events.id, seriesId: events.seriesId }).from(events).where(where)
    : [];
  if (!row || row.seriesId !== seriesId) throw unprocessable('event_id is not an event of this series');
  return row.id;
}

/** Issues a key owned by the caller; the secret is in the result only. */
export async function createApiKey(
  ctx: UserSeriesCtx,
  input: CreateApiKeyInput,
): Promise<{ api_key: ApiKeyJson; secret: string }> {
  const series = ctx.access.series;
  const owner = ctx.access.principal.user;
  const name = input.name.trim();
  if (!name) throw unprocessable('Key name cannot be blank');
  if (name.length > API_KEY_NAME_MAX)
    throw unprocessable(`Key name must be at most ${API_KEY_NAME_MAX} characters`);
  if (input.kind === 'series' && input.event_id !== undefined)
    throw unprocessable('event_id is only for event keys');
  return ctx.db.transaction(async (tx) => {
    const eventId = input.kind === 'event' ? await eventOfSeries(tx, series.id, input.event_id) : null;
    const issued =
      eventId === null
        ? await issueSeriesKey(tx, series.id, { name, ownerUserId: owner.id })
        : await issueEventKey(tx, eventId, { name, ownerUserId: owner.id });
    const res = await tx.execute<Row>(
      sql`${keysQuery(series.id)} WHERE x.kind = ${input.kind} AND x.key_id = ${issued.id}`,
    );
    await recordAudit(tx, {
      action: 'keys.create',
      principal: ctx.access.principal,
      eventId,
      seriesId: series.id,
      targetType: eventId === null ? 'series_key' : 'event_key',
      targetId: issued.id,
      metadata: { name, owner_email: owner.email },
    });
    return { api_key: keyJson(one(res.rows)), secret: issued.secret };
  });
}

/** Revokes a series or event key of this series by its UUID. */
export async function revokeApiKey(ctx: UserSeriesCtx, rawId: string): Promise<void> {
  const series = ctx.access.series;
  if (!UUID.test(rawId)) throw notFound(API_KEY_NOT_FOUND);
  await ctx.db.transaction(async (tx) => {
    const key = await findKey(tx, series.id, rawId);
    if (!key) throw notFound(API_KEY_NOT_FOUND);
    if (key.revoked_at !== null) throw conflict('API key is already revoked');
    const revoked = await revokeKey(tx, { kind: key.kind, id: key.key_id });
    await recordAudit(tx, {
      action: 'keys.revoke',
      principal: ctx.access.principal,
      eventId: revoked.eventId,
      seriesId: series.id,
      targetType: revoked.kind,
      targetId: revoked.id,
      metadata: { key_kind: revoked.kind, key_id: revoked.id, key_name: revoked.name },
    });
  });
}
