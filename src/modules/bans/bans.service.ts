import type { Tx } from '../../db/client.js';
import type { UserCtx } from '../../deps.js';
import { type ApiError, conflict, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.js';
import { EMAIL_PATTERN, normalizeEmail, UUID_PATTERN } from '../../lib/identifiers.js';
import { isIsoDateTime } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import * as repo from './bans.repo.js';
import {
  type CreateBanInput,
  DEFAULT_LIST_LIMIT,
  type ListBansInput,
  MAX_LIST_LIMIT,
} from './bans.schemas.js';
import { serializeBan } from './bans.serialize.js';

/** Same shape check as user accounts: something@something.tld, no whitespace. */

export interface NormalizedBanEmails {
  /** Well-formed addresses: trimmed, lowercased, unique, in order of first appearance. */
  emails: string[];
  /** Malformed addresses (normalised the same way, unique, in order of first appearance). */
  invalid: string[];
}

/**
 * Trims and lowercases each address, drops blanks, collapses duplicates keeping the first
 * appearance, and splits well-formed from malformed addresses (docs/decisions.md "Series, events and bans"). Pure and idempotent.
 */
export function normalizeBanEmails(input: string | readonly string[]): NormalizedBanEmails {
  const list = typeof input === 'string' ? [input] : input;
  const seen = new Set<string>();
  const emails: string[] = [];
  const invalid: string[] = [];
  for (const raw of list) {
    const email = normalizeEmail(raw);
    if (email === '' || seen.has(email)) continue;
    seen.add(email);
    (EMAIL_PATTERN.test(email) ? emails : invalid).push(email);
  }
  return { emails, invalid };
}

/** Whether a ban in force (not revoked, not expired) holds this address (after normalisation). */
export async function isBanned(tx: Tx, email: string): Promise<boolean> {
  const normalized = normalizeEmail(email);
  if (normalized === '') return false;
  return repo.activeBanExists(tx, normalized);
}

/**
 * POST /bans: one ban holding all the person's addresses. 422 for no/malformed addresses or a bad
 * `expires_at`; 409 `{error, bans}` (nothing created) when any address is already on a ban — any
 * ban, revoked or expired included, since an address is on at most one ban.
 */
export async function createBan(ctx: UserCtx, input: CreateBanInput) {
  const principal = ctx.access.principal;
  // `emails` wins over `email` whenever it is sent (docs/decisions.md "Series, events and bans"), even when it is empty.
  const raw = input.emails ?? (input.email === undefined ? [] : [input.email]);
  const { emails, invalid } = normalizeBanEmails(raw);
  if (invalid.length > 0) throw unprocessable(`Invalid email format: ${invalid.join(', ')}`);
  if (emails.length === 0) throw unprocessable('At least one email is required');

  let expiresAt: string | null = null;
  if (input.expires_at !== undefined) {
    const value: unknown = input.expires_at;
    // Spec: "A value that is not ISO 8601 is rejected, not treated as absent."
    if (typeof value !== 'string' || !isIsoDateTime(value)) {
      throw unprocessable(
        'expires_at must be an ISO 8601 date-time with a time zone, e.g. 2027-01-01T00:00:00Z',
      );
    }
    if (Date.parse(value) <= Date.now()) throw unprocessable('expires_at must be in the future');
    expiresAt = value;
  }
  const reason = (input.reason ?? '').trim();

  return ctx.db.transaction(async (tx) => {
    const existing = await repo.banIdsForEmails(tx, emails);
    if (existing.length > 0) throw await alreadyBanned(tx, existing, emails);
    let id: string;
    try {
      // Savepoint: a concurrent identical request that committed after the pre-check makes this
      // insert fail on ban_emails_email_unique; the outer transaction stays usable to answer 409.
      id = await tx.transaction((sp) =>
        repo.insertBan(sp, { emails, reason, expiresAt, createdByUserId: principal.user.id }),
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // READ COMMITTED: this statement sees the row the other transaction committed.
      throw await alreadyBanned(tx, await repo.banIdsForEmails(tx, emails), emails);
    }
    await recordAudit(tx, {
      action: 'bans.create',
      principal,
      targetType: 'ban',
      targetId: id,
      metadata: { emails, reason, expires_at: expiresAt },
    });
    const [ban] = await repo.loadBans(tx, [id]);
    return { ban: serializeBan(ban!) };
  });
}

async function alreadyBanned(tx: Tx, banIds: string[], emails: readonly string[]): Promise<ApiError> {
  const records = await repo.loadBans(tx, banIds);
  const taken = new Set(records.flatMap((b) => b.emails));
  const addresses = emails.filter((e) => taken.has(e));
  const which = addresses.length > 0 ? addresses.join(', ') : emails.join(', ');
  return conflict(`Already banned: ${which}`, { bans: records.map(serializeBan) });
}

/** GET /bans: newest first, optional `active` and exact `email` filters, limit/offset paging. */
export async function listBans(ctx: UserCtx, input: ListBansInput) {
  const limit = Math.min(input.limit ?? DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
  const offset = input.offset ?? 0;
  const email = input.email === undefined ? undefined : normalizeEmail(input.email);
  const rows = await repo.listBans(ctx.db, {
    active: input.active,
    email: email === '' ? undefined : email,
    limit,
    offset,
  });
  return {
    bans: rows.slice(0, limit).map(serializeBan),
    limit,
    offset,
    has_more: rows.length > limit,
  };
}

/** GET /bans/{id}: 404 for an unknown or non-UUID id. */
export async function getBan(ctx: UserCtx, id: string) {
  if (!UUID_PATTERN.test(id)) throw notFound('Ban not found');
  const [ban] = await repo.loadBans(ctx.db, [id]);
  if (!ban) throw notFound('Ban not found');
  return { ban: serializeBan(ban) };
}

/** POST /bans/{id}/revoke: sets revoked_at; 409 when already revoked. */
export function revokeBan(ctx: UserCtx, id: string) {
  return setRevoked(ctx, id, true);
}

/** POST /bans/{id}/reinstate: clears revoked_at; 409 when not revoked. Expiry is unchanged. */
export function reinstateBan(ctx: UserCtx, id: string) {
  return setRevoked(ctx, id, false);
}

async function setRevoked(ctx: UserCtx, id: string, revoked: boolean) {
  const principal = ctx.access.principal;
  if (!UUID_PATTERN.test(id)) throw notFound('Ban not found');
  return ctx.db.transaction(async (tx) => {
    if (!(await repo.setRevoked(tx, id, revoked))) {
      if (!(await repo.banExists(tx, id))) throw notFound('Ban not found');
      throw conflict(revoked ? 'Ban is already revoked' : 'Ban is not revoked');
    }
    const [ban] = await repo.loadBans(tx, [id]);
    await recordAudit(tx, {
      action: revoked ? 'bans.revoke' : 'bans.reinstate',
      principal,
      targetType: 'ban',
      targetId: id,
      metadata: { emails: ban!.emails },
    });
    return { ban: serializeBan(ban!) };
  });
}
