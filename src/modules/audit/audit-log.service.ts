/**
 * Reading the audit trail: an event's entries (event admins, series roles, global admins) or all
 * of them (global admins). Newest first by id; cursor paging with `before` = the last id seen
 * (`next_before` in the page; ids only grow, so pages never repeat or skip an entry).
 *
 * Never shows sensitive values: metadata is filtered through METADATA_KEYS (identifiers, field
 * names, counts, roles); free text such as withdrawal or ban reasons, IP addresses and notified
 * addresses is omitted. 422 for a `since` that is not ISO 8601 with a zone.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { UserCtx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import { isIsoDateTime, isoSql } from '../../lib/time.js';
import type { AuditEntryJson, AuditLogInput, AuditPageJson } from './audit-log.schemas.js';

/** Metadata keys shown by the audit trail; every other key is left out of the response. */
export const METADATA_KEYS: ReadonlySet<string> = new Set([
  'announcement_id',
  'audience',
  'by',
  'chat_blast_id',
  'client_id',
  'color',
  'completed',
  'consent_type',
  'created',
  'deleted_scans',
  'device_name',
  'email',
  'fields',
  'filters',
  'format',
  'from',
  'global_admin',
  'granted_event_admin_user_id',
  'group_ids',
  'guardian_id',
  'invitation_id',
  'key_id',
  'key_kind',
  'key_name',
  'kind',
  'message_length',
  'method',
  'modules',
  'name',
  'note_id',
  'note_type',
  'owner_email',
  'owner_user_id',
  'participants',
  'preset',
  'recipient_count',
  'registration_id',
  'renewed',
  'replaced_token_id',
  'revoked_token_ids',
  'role',
  'row_count',
  'scan_context_id',
  'scheduled',
  'scopes',
  'sections',
  'sensitivity',
  'series_api_key_id',
  'series_api_key_name',
  'signer',
  'statuses',
  'slug',
  'to',
  'updated',
  'user_created',
  'user_id',
  'via',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function actorWhere(actor: string): SQL {
  if (/^[0-9]{1,9}$/.test(actor)) return sql`a.actor_user_id = ${Number(actor)}`;
  if (UUID.test(actor)) return sql`u.uuid = ${actor.toLowerCase()}::uuid`;
  return sql`lower(u.email) = ${actor.trim().toLowerCase()}`;
}

function filters(input: AuditLogInput): SQL[] {
  const where: SQL[] = [];
  if (input.action !== undefined) {
    where.push(
      input.action.endsWith('.')
        ? sql`starts_with(a.action, ${input.action})`
        : sql`a.action = ${input.action}`,
    );
  }
  if (input.actor !== undefined) where.push(actorWhere(input.actor));
  if (input.since !== undefined) {
    if (!isIsoDateTime(input.since)) throw unprocessable('since must be an ISO 8601 date-time with a zone');
    where.push(sql`a.created_at >= ${input.since}::timestamptz`);
  }
  if (input.before !== undefined) where.push(sql`a.id < ${Number(input.before)}`);
  return where;
}

interface Row extends Record<string, unknown> {
  id: string | number;
  action: string;
  created_at: string;
  actor_id: number | null;
  actor_uuid: string | null;
  actor_name: string | null;
  actor_email: string | null;
  credential_kind: string | null;
  credential_name: string | null;
  event_id: number | null;
  series_id: string | null;
  target_type: string | null;
  target_id: string | null;
  metadata: Record<string, unknown> | null;
}

function visibleMetadata(metadata: Record<string, unknown> | null): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata ?? {}).filter(([k]) => METADATA_KEYS.has(k)));
}

function entryJson(r: Row): AuditEntryJson {
  return {
    id: Number(r.id),
    action: r.action,
    created_at: r.created_at,
    actor:
      r.actor_id === null
        ? null
        : { id: r.actor_id, uuid: r.actor_uuid!, name: r.actor_name!, email: r.actor_email! },
    credential_kind: r.credential_kind,
    credential_name: r.credential_name,
    event_id: r.event_id,
    series_id: r.series_id,
    target_type: r.target_type,
    target_id: r.target_id,
    metadata: visibleMetadata(r.metadata),
  };
}

/** One page of the audit trail; `eventId` restricts it to one event's entries. */
export async function auditPage(
  ctx: UserCtx,
  input: AuditLogInput,
  eventId?: number,
): Promise<AuditPageJson> {
  const limit = input.limit ?? 50;
  const where = filters(input);
  if (eventId !== undefined) where.push(sql`a.event_id = ${eventId}`);
  const res = await ctx.db.execute<Row>(
    sql`SELECT a.id, a.action, ${isoSql('a.created_at')} AS created_at, u.id AS actor_id,
               u.uuid AS actor_uuid, u.name AS actor_name, u.email AS actor_email, a.credential_kind,
               a.credential_name, a.event_id, a.series_id, a.target_type, a.target_id, a.metadata
          FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
         ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
         ORDER BY a.id DESC LIMIT ${limit + 1}`,
  );
  const rows = res.rows.slice(0, limit);
  const more = res.rows.length > limit;
  return {
    entries: rows.map(entryJson),
    next_before: more ? String(rows[rows.length - 1]!.id) : null,
  };
}
