/**
 * Revoking credentials (spec "POST /tokens/revoke", "Authentication" rule 3; docs/decisions.md "Account and sessions").
 *
 * - revokeBySecret(): POST /tokens/revoke. Whoever holds a leaked secret can kill it without any
 *   other credential. Only active credentials are revoked, each at most once (the revoking UPDATE
 *   re-checks `revoked_at IS NULL`, so concurrent revocations of one secret yield one success).
 *   The answer is `{success:true, key_name, owner_email}` or `{success:false}` and nothing else:
 *   unknown, already revoked, malformed and mobile-token secrets are indistinguishable.
 *   The owner (or, when the owner's account is gone, the fallback recipients) is emailed in the
 *   same transaction, once per distinct address; the audit entry names the key, never the secret.
 * - revokeKey() / revokeGlobalToken() / revokeMobileToken(): the CLI's by-id revocation.
 *
 * Pinned by test/sessions/revoke.test.ts and test/security/secrets-at-rest.test.ts.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../lib/errors.js';
import { normalizeEmail } from '../../lib/identifiers.js';
import { classifySecret, type SecretKind } from '../../lib/secrets.js';
import { isoTimestamp } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import { queueEmail } from '../email/email.service.js';

/** Longest secret POST /tokens/revoke looks at (real secrets are 38 to 64 characters). */
export const MAX_REVOKE_SECRET_LENGTH = 512;

export type RevocableKind = Exclude<SecretKind, 'mobile'>;

export interface RevokedCredential {
  kind: RevocableKind | 'mobile';
  /** Key or token id; for a legacy per-event key, the event id. */
  id: number;
  name: string;
  /** The user responsible for the credential; null when the account is gone (or a legacy key). */
  ownerUserId: number | null;
  ownerEmail: string | null;
  seriesId: string | null;
  seriesName: string | null;
  eventId: number | null;
  eventName: string | null;
  /** Global tokens: their scopes ([] = full access). */
  scopes: string[] | null;
  /** ISO 8601 UTC. */
  revokedAt: string;
}

export const KIND_LABEL: Record<RevokedCredential['kind'], string> = {
  series_key: 'series API key',
  event_key: 'event API key',
  legacy_event_key: 'legacy event API key',
  global: 'global API token',
  mobile: 'mobile token',
};

interface Row extends Record<string, unknown> {
  id: number;
  name: string | null;
  owner_user_id: number | null;
  owner_email: string | null;
  series_id: string | null;
  series_name: string | null;
  event_id: number | null;
  event_name: string | null;
  scopes: string[] | null;
  revoked_at: string;
}

const ownerEmail = (column: SQL) => sql`(SELECT u.email FROM users u WHERE u.id = ${column})`;

/**
 * The revoking UPDATE of one kind, restricted by `where` (which must already require the
 * credential to be live). Returns the revoked row, or null when nothing matched.
 */
async function revokeWhere(tx: Tx, kind: RevokedCredential['kind'], where: SQL): Promise<Row | null> {
  let query: SQL;
  switch (kind) {
    case 'series_key':
      query = sql`
        UPDATE series_api_keys k SET revoked_at = now()
         WHERE ${where}
        RETURNING k.id, k.name, k.owner_user_id, ${ownerEmail(sql`k.owner_user_id`)} AS owner_email,
                  k.series_id, (SELECT s.name FROM series s WHERE s.id = k.series_id) AS series_name,
                  NULL::int AS event_id, NULL::text AS event_name, NULL::text[] AS scopes, k.revoked_at`;
      break;
    case 'event_key':
      query = sql`
        UPDATE event_api_keys k SET revoked_at = now()
          FROM events e
         WHERE e.id = k.event_id AND ${where}
        RETURNING k.id, k.name, k.owner_user_id, ${ownerEmail(sql`k.owner_user_id`)} AS owner_email,
                  e.series_id, (SELECT s.name FROM series s WHERE s.id = e.series_id) AS series_name,
                  e.id AS event_id, e.name AS event_name, NULL::text[] AS scopes, k.revoked_at`;
      break;
    case 'legacy_event_key':
      // The legacy key lives on the event row: revoking clears its digest (the name is kept).
      query = sql`
        UPDATE events e SET legacy_api_key_digest = NULL
         WHERE ${where}
        RETURNING e.id, coalesce(e.legacy_api_key_name, 'Legacy event key') AS name,
                  NULL::int AS owner_user_id, NULL::text AS owner_email,
                  e.series_id, (SELECT s.name FROM series s WHERE s.id = e.series_id) AS series_name,
                  e.id AS event_id, e.name AS event_name, NULL::text[] AS scopes, now() AS revoked_at`;
      break;
    case 'global':
      query = sql`
        UPDATE global_api_tokens k SET revoked_at = now()
         WHERE ${where}
        RETURNING k.id, k.name, k.user_id AS owner_user_id, ${ownerEmail(sql`k.user_id`)} AS owner_email,
                  NULL::uuid AS series_id, NULL::text AS series_name, NULL::int AS event_id,
                  NULL::text AS event_name, k.scopes, k.revoked_at`;
      break;
    case 'mobile':
      query = sql`
        UPDATE mobile_tokens k SET revoked_at = now()
         WHERE ${where}
        RETURNING k.id, coalesce(k.device_name, 'Mobile token') AS name, k.user_id AS owner_user_id,
                  ${ownerEmail(sql`k.user_id`)} AS owner_email, NULL::uuid AS series_id,
                  NULL::text AS series_name, NULL::int AS event_id, NULL::text AS event_name,
                  NULL::text[] AS scopes, k.revoked_at`;
      break;
  }
  const res = await tx.execute<Row>(query);
  return res.rows[0] ?? null;
}

function toCredential(kind: RevokedCredential['kind'], row: Row): RevokedCredential {
  return {
    kind,
    id: Number(row.id),
    name: row.name ?? KIND_LABEL[kind],
    ownerUserId: row.owner_user_id,
    ownerEmail: row.owner_email,
    seriesId: row.series_id,
    seriesName: row.series_name,
    eventId: row.event_id,
    eventName: row.event_name,
    scopes: row.scopes,
    revokedAt: isoTimestamp(row.revoked_at)!,
  };
}

/** Revokes the live credential of `kind` whose secret has SHA-256 `digest`; null when none is live. */
export async function revokeActiveByDigest(
  tx: Tx,
  kind: RevocableKind,
  digest: string,
): Promise<RevokedCredential | null> {
  const where: Record<RevocableKind, SQL> = {
    series_key: sql`k.token_digest = ${digest} AND k.revoked_at IS NULL`,
    event_key: sql`k.token_digest = ${digest} AND k.revoked_at IS NULL`,
    legacy_event_key: sql`e.legacy_api_key_digest = ${digest}`,
    // Active = not revoked and not expired. A demoted owner's token is revoked too: it would be
    // honoured again if the owner became a global admin again.
    global: sql`k.token_digest = ${digest} AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`,
  };
  const row = await revokeWhere(tx, kind, where[kind]);
  return row ? toCredential(kind, row) : null;
}

// ---------------------------------------------------------------------------------------------
// By id (the CLI): 404 naming the record when it does not exist, 409 when it is already revoked.
// ---------------------------------------------------------------------------------------------

export type KeyKind = 'series' | 'event' | 'legacy';

const KEY_KIND: Record<KeyKind, RevocableKind> = {
  series: 'series_key',
  event: 'event_key',
  legacy: 'legacy_event_key',
};

async function exists(tx: Tx, query: SQL): Promise<boolean> {
  const res = await tx.execute<{ found: boolean }>(sql`SELECT EXISTS (${query}) AS found`);
  return res.rows[0]?.found === true;
}

/** Revokes a series or event API key by id, or clears the legacy key of the event with that id. */
export async function revokeKey(tx: Tx, input: { kind: KeyKind; id: number }): Promise<RevokedCredential> {
  const kind = KEY_KIND[input.kind];
  const { id } = input;
  const row = await revokeWhere(
    tx,
    kind,
    kind === 'legacy_event_key'
      ? sql`e.id = ${id} AND e.legacy_api_key_digest IS NOT NULL`
      : sql`k.id = ${id} AND k.revoked_at IS NULL`,
  );
  if (row) return toCredential(kind, row);
  if (kind === 'series_key') {
    if (!(await exists(tx, sql`SELECT 1 FROM series_api_keys WHERE id = ${id}`)))
      throw notFound(`No series API key with id ${id}`);
    throw conflict(`Series API key ${id} is already revoked`);
  }
  if (kind === 'event_key') {
    if (!(await exists(tx, sql`SELECT 1 FROM event_api_keys WHERE id = ${id}`)))
      throw notFound(`No event API key with id ${id}`);
    throw conflict(`Event API key ${id} is already revoked`);
  }
  if (!(await exists(tx, sql`SELECT 1 FROM events WHERE id = ${id}`)))
    throw notFound(`No event with id ${id}`);
  throw conflict(`Event ${id} has no legacy event key (never issued, or already revoked)`);
}

/** Revokes a global API token by id (expired or not). */
export async function revokeGlobalToken(tx: Tx, id: number): Promise<RevokedCredential> {
  const row = await revokeWhere(tx, 'global', sql`k.id = ${id} AND k.revoked_at IS NULL`);
  if (row) return toCredential('global', row);
  if (!(await exists(tx, sql`SELECT 1 FROM global_api_tokens WHERE id = ${id}`)))
    throw notFound(`No global API token with id ${id}`);
  throw conflict(`Global API token ${id} is already revoked`);
}

/** Revokes a mobile token by id (e.g. a lost phone). */
export async function revokeMobileToken(tx: Tx, id: number): Promise<RevokedCredential> {
  const row = await revokeWhere(tx, 'mobile', sql`k.id = ${id} AND k.revoked_at IS NULL`);
  if (row) return toCredential('mobile', row);
  if (!(await exists(tx, sql`SELECT 1 FROM mobile_tokens WHERE id = ${id}`)))
    throw notFound(`No mobile token with id ${id}`);
  throw conflict(`Mobile token ${id} is already revoked`);
}

/** Revokes the live mobile token whose secret has SHA-256 `digest`; null when none is live. */
export async function revokeActiveMobileByDigest(tx: Tx, digest: string): Promise<RevokedCredential | null> {
  const row = await revokeWhere(
    tx,
    'mobile',
    sql`k.token_digest = ${digest} AND k.revoked_at IS NULL AND k.expires_at > now()`,
  );
  return row ? toCredential('mobile', row) : null;
}

// ---------------------------------------------------------------------------------------------
// POST /tokens/revoke
// ---------------------------------------------------------------------------------------------

export type RevokeBySecretResult =
  | { success: true; key_name: string; owner_email: string | null }
  | { success: false };

/**
 * Who is told about a revocation: the owner; when the owner's account is gone (or for a legacy key,
 * which has no owner), the series owners (series key) or the event's event admins plus its series
 * owners (event and legacy keys). Distinct addresses (case-insensitive), sorted.
 */
export async function notificationRecipients(tx: Tx, c: RevokedCredential): Promise<string[]> {
  if (c.ownerEmail) return [normalizeEmail(c.ownerEmail)];
  const queries: SQL[] = [];
  if (c.seriesId) {
    queries.push(sql`
      SELECT lower(u.email) AS email FROM series_roles sr JOIN users u ON u.id = sr.user_id
       WHERE sr.series_id = ${c.seriesId} AND sr.role = 'owner'`);
  }
  if (c.eventId !== null && (c.kind === 'event_key' || c.kind === 'legacy_event_key')) {
    queries.push(sql`
      SELECT lower(u.email) AS email FROM event_roles er JOIN users u ON u.id = er.user_id
       WHERE er.event_id = ${c.eventId} AND er.role = 'event_admin'`);
  }
  if (queries.length === 0) return [];
  const res = await tx.execute<{ email: string }>(
    sql`SELECT DISTINCT email FROM (${sql.join(queries, sql` UNION `)}) r ORDER BY email`,
  );
  return res.rows.map((r) => r.email);
}

/** What the `key_revoked` email says the key could reach. */
export function scopeLabel(c: RevokedCredential): string {
  if (c.kind === 'series_key') return `series "${c.seriesName ?? c.seriesId}"`;
  if (c.kind === 'event_key' || c.kind === 'legacy_event_key') return `event "${c.eventName ?? c.eventId}"`;
  if (c.kind === 'global') return c.scopes?.length ? `scopes: ${c.scopes.join(', ')}` : 'full access';
  return 'mobile sign-in';
}

/** The presented secret, or null when the body is not `{token: "<1..512 chars>"}` after trimming. */
export function secretFromBody(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const token = (body as Record<string, unknown>).token;
  if (typeof token !== 'string' || token.length > MAX_REVOKE_SECRET_LENGTH) return null;
  const secret = token.trim();
  return secret === '' ? null : secret;
}

/**
 * POST /tokens/revoke. Revokes the active event key, series key, legacy event key or global token
 * whose secret is presented; mobile tokens are never revoked here (sign out with DELETE /session).
 */
export async function revokeBySecret(
  deps: Deps,
  body: unknown,
  meta: { ip?: string } = {},
): Promise<RevokeBySecretResult> {
  const secret = secretFromBody(body);
  const classified = secret === null ? null : classifySecret(secret);
  // Malformed, bad checksum or a mobile token: refused without a query (same answer as unknown).
  if (!classified || classified.kind === 'mobile') return { success: false };
  const { kind, digest } = classified;
  return deps.db.transaction(async (tx): Promise<RevokeBySecretResult> => {
    const revoked = await revokeActiveByDigest(tx, kind, digest);
    if (!revoked) return { success: false };
    const recipients = await notificationRecipients(tx, revoked);
    for (const to of recipients) {
      await queueEmail(deps, tx, {
        to,
        template: 'key_revoked',
        vars: {
          key_name: revoked.name,
          key_kind: KIND_LABEL[revoked.kind],
          revoked_at: revoked.revokedAt,
          scope: scopeLabel(revoked),
        },
        eventId: revoked.eventId,
      });
    }
    await recordAudit(tx, {
      action: 'credentials.revoke_by_secret',
      eventId: revoked.eventId,
      seriesId: revoked.seriesId,
      targetType: revoked.kind,
      targetId: revoked.id,
      metadata: {
        key_kind: revoked.kind,
        key_id: revoked.id,
        key_name: revoked.name,
        owner_user_id: revoked.ownerUserId,
        notified: recipients,
        ...(meta.ip ? { ip: meta.ip } : {}),
      },
    });
    return { success: true, key_name: revoked.name, owner_email: revoked.ownerEmail };
  });
}
