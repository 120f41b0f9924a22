/**
 * SQL of the ban list (docs/decisions.md "Series, events and bans"). "In force" is decided by the database clock in every query
 * (`now()`), so the `active` flag, the `?active=` filter and isBanned() always agree.
 */
import { and, desc, eq, inArray, isNotNull, isNull, not, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { banEmails, bans, users } from '../../db/schema/index.js';

/** Not revoked and not expired (spec "Ban": `active`). */
const inForce = sql<boolean>`(${bans.revokedAt} IS NULL AND (${bans.expiresAt} IS NULL OR ${bans.expiresAt} > now()))`;

/** The ban's addresses in the order they were given (ban_emails.id follows insertion order). */
const emailsOf = sql<
  string[]
>`coalesce((SELECT array_agg(be.email ORDER BY be.id) FROM ban_emails be WHERE be.ban_id = ${bans.id}), '{}'::text[])`;

const banColumns = {
  id: bans.id,
  reason: bans.reason,
  expiresAt: bans.expiresAt,
  revokedAt: bans.revokedAt,
  createdAt: bans.createdAt,
  active: inForce,
  emails: emailsOf,
  creatorUuid: users.uuid,
  creatorName: users.name,
};

export interface BanRecord {
  id: string;
  reason: string;
  /** PostgreSQL timestamptz text (UTC session); formatted by the serializer. */
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  active: boolean;
  emails: string[];
  creatorUuid: string | null;
  creatorName: string | null;
}

function selectBans(tx: Tx) {
  return tx.select(banColumns).from(bans).leftJoin(users, eq(users.id, bans.createdByUserId));
}

/** Bans by id, newest first. */
export async function loadBans(tx: Tx, ids: readonly string[]): Promise<BanRecord[]> {
  if (ids.length === 0) return [];
  return selectBans(tx)
    .where(inArray(bans.id, [...ids]))
    .orderBy(desc(bans.createdAt), desc(bans.id));
}

export interface BanFilter {
  active?: boolean;
  /** Normalised address. */
  email?: string;
  limit: number;
  offset: number;
}

/** One page of bans, newest first; fetches `limit + 1` rows so the caller can tell whether more exist. */
export async function listBans(tx: Tx, filter: BanFilter): Promise<BanRecord[]> {
  const where: SQL[] = [];
  if (filter.active === true) where.push(inForce);
  if (filter.active === false) where.push(not(inForce));
  if (filter.email !== undefined) {
    where.push(
      inArray(
        bans.id,
        tx.select({ id: banEmails.banId }).from(banEmails).where(eq(banEmails.email, filter.email)),
      ),
    );
  }
  return selectBans(tx)
    .where(and(...where))
    .orderBy(desc(bans.createdAt), desc(bans.id))
    .limit(filter.limit + 1)
    .offset(filter.offset);
}

/** Ids of the bans holding any of these (normalised) addresses. */
export async function banIdsForEmails(tx: Tx, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await tx
    .selectDistinct({ id: banEmails.banId })
    .from(banEmails)
    .where(inArray(banEmails.email, [...emails]));
  return rows.map((r) => r.id);
}

/**
 * Inserts the ban and one ban_emails row per address. Throws PostgreSQL's unique violation
 * (ban_emails_email_unique) when an address is already on a ban, including one committed by a
 * concurrent request after the caller's pre-check.
 */
export async function insertBan(
  tx: Tx,
  input: { emails: readonly string[]; reason: string; expiresAt: string | null; createdByUserId: number },
): Promise<string> {
  const [row] = await tx
    .insert(bans)
    .values({ reason: input.reason, expiresAt: input.expiresAt, createdByUserId: input.createdByUserId })
    .returning({ id: bans.id });
  await tx.insert(banEmails).values(input.emails.map((email) => ({ banId: row!.id, email })));
  return row!.id;
}

/**
 * Sets (`revoked` true) or clears revoked_at, only if the ban is currently in the other state.
 * Returns false when nothing changed (no such ban, or already in that state): one statement, so two
 * racing revokes cannot both succeed.
 */
export async function setRevoked(tx: Tx, id: string, revoked: boolean): Promise<boolean> {
  const rows = await tx
    .update(bans)
    .set({ revokedAt: revoked ? sql`now()` : null, updatedAt: sql`now()` })
    .where(and(eq(bans.id, id), revoked ? isNull(bans.revokedAt) : isNotNull(bans.revokedAt)))
    .returning({ id: bans.id });
  return rows.length > 0;
}

export async function banExists(tx: Tx, id: string): Promise<boolean> {
  const rows = await tx.select({ id: bans.id }).from(bans).where(eq(bans.id, id));
  return rows.length > 0;
}

/** Whether a ban in force holds this (normalised) address. */
export async function activeBanExists(tx: Tx, email: string): Promise<boolean> {
  const rows = await tx
    .select({ one: sql<number>`1` })
    .from(banEmails)
    .innerJoin(bans, eq(bans.id, banEmails.banId))
    .where(and(eq(banEmails.email, email), inForce))
    .limit(1);
  return rows.length > 0;
}
