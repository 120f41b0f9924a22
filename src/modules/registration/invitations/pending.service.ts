/**
 * Pending event invitations for staff (docs/organiser-api.md
 * "Invitations"): list them, resend one (a fresh 30-day token and email: tokens are stored as
 * digests, so the old link cannot be sent again and stops working), revoke one (its link stops
 * working). Callers: the same as the invite (`participants.invite`): event key of the event, series
 * key of its series, users with participants access. Resend and revoke are audited.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { one } from '../../../db/rows.js';
import type { EventCtx } from '../../../deps.js';
import { conflict, notFound, unprocessable } from '../../../lib/errors.js';
import { isoSqlText } from '../../../lib/time.js';
import { recordAudit } from '../../audit/audit.service.js';
import { isBanned } from '../../bans/bans.service.js';
import {
  ALREADY_REGISTERED,
  EMAIL_BANNED,
  INVITATION_DAYS,
  newToken,
  queueInvitationEmail,
} from './invitations.service.js';

export const INVITATION_NOT_FOUND = 'Invitation not found';
export const NOT_PENDING = 'This invitation is no longer pending';

/** One pending invitation on the wire (`GET /events/{e}/invitations`). */
export type PendingInvitationJson = {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  status: 'pending';
  /** True when the link has lapsed (`expires_at` passed): resend issues a fresh one. */
  expired: boolean;
  created_at: string;
  /** When the current link was emailed (the invite or the latest resend). */
  sent_at: string;
  expires_at: string;
  /** The inviting user's name, or null (an API key without an owner, the CLI). */
  invited_by: string | null;
};

export interface PendingQuery {
  q?: string;
  before?: string;
  limit?: number;
}

const COLUMNS = sql.raw(`i.id, i.email, i.first_name, i.last_name, i.status, i.expires_at <= now() AS expired,
  ${isoSqlText('i.created_at')} AS created_at,
  ${isoSqlText(`i.expires_at - make_interval(days => ${INVITATION_DAYS})`)} AS sent_at,
  ${isoSqlText('i.expires_at')} AS expires_at, u.name AS invited_by`);

function selectInvitations(where: SQL, tail: SQL = sql``): SQL {
  return sql`SELECT ${COLUMNS} FROM invitations i LEFT JOIN users u ON u.id = i.invited_by_user_id
              WHERE ${where} ${tail}`;
}

/**
 * The event's pending invitations (lapsed ones included, `expired: true`), newest first, cursor-paged
 * by id: `limit` 1..200 (default 50), `before` = the previous page's `next_before`. `q`: a
 * case-insensitive substring of the email or name.
 */
export async function listPendingInvitations(
  ctx: EventCtx,
  query: PendingQuery,
): Promise<{ invitations: PendingInvitationJson[]; next_before: string | null }> {
  const limit = query.limit ?? 50;
  const where = [sql`i.event_id = ${ctx.access.event.id}`, sql`i.status = 'pending'`];
  if (query.before !== undefined) where.push(sql`i.id < ${Number(query.before)}`);
  const q = query.q?.trim().toLowerCase();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(sql`(i.email LIKE ${like} OR lower(concat_ws(' ', i.first_name, i.last_name)) LIKE ${like})`);
  }
  const res = await ctx.db.execute<PendingInvitationJson>(
    selectInvitations(sql.join(where, sql` AND `), sql`ORDER BY i.id DESC LIMIT ${limit + 1}`),
  );
  const rows = res.rows.slice(0, limit).map(toJson);
  return { invitations: rows, next_before: res.rows.length > limit ? String(rows.at(-1)!.id) : null };
}

function toJson(r: PendingInvitationJson): PendingInvitationJson {
  return { ...r, id: Number(r.id) };
}

/** Locks invitation `rawId` of the context's event; 404 `Invitation not found`, 409 when not pending. */
async function lockPending(ctx: EventCtx, tx: Tx, rawId: string): Promise<PendingInvitationJson> {
  if (!/^[0-9]{1,9}$/.test(rawId)) throw notFound(INVITATION_NOT_FOUND);
  const res = await tx.execute<PendingInvitationJson>(
    selectInvitations(
      sql`i.id = ${Number(rawId)} AND i.event_id = ${ctx.access.event.id}`,
      sql`FOR UPDATE OF i`,
    ),
  );
  const row = res.rows[0];
  if (!row) throw notFound(INVITATION_NOT_FOUND);
  if (row.status !== 'pending') throw conflict(NOT_PENDING);
  return toJson(row);
}

async function reread(tx: Tx, id: number): Promise<PendingInvitationJson> {
  const res = await tx.execute<PendingInvitationJson>(selectInvitations(sql`i.id = ${id}`));
  return toJson(one(res.rows));
}

/**
 * Resends a pending (or lapsed) invitation: a new token (the old link stops working), a new 30-day
 * expiry, the invitation email again. 404 `Invitation not found`, 409 `This invitation is no longer
 * pending` (accepted, revoked, or replaced), 422 `This email is banned from events`, 409 `This email
 * is already registered for this event`. Audited `invitations.resend`.
 */
export function resendInvitation(
  ctx: EventCtx,
  rawId: string,
): Promise<{ invitation: PendingInvitationJson }> {
  const event = ctx.access.event;
  return ctx.db.transaction(async (tx) => {
    const inv = await lockPending(ctx, tx, rawId);
    if (await isBanned(tx, inv.email)) throw unprocessable(EMAIL_BANNED);
    const registered = await tx.execute(
      sql`SELECT 1 FROM registrations r JOIN people p ON p.id = r.person_id
           WHERE r.event_id = ${event.id} AND lower(p.email) = ${inv.email} AND r.status <> 'invited'`,
    );
    if (registered.rows.length > 0) throw conflict(ALREADY_REGISTERED);
    const { token, digest } = newToken();
    const updated = await tx.execute<{ expires_at: string }>(sql`
      UPDATE invitations SET token_digest = ${digest},
             expires_at = now() + make_interval(days => ${INVITATION_DAYS})
       WHERE id = ${inv.id} RETURNING ${sql.raw(isoSqlText('expires_at'))} AS expires_at`);
    await queueInvitationEmail(ctx, tx, {
      eventId: event.id,
      eventName: event.name,
      supportEmail: event.supportEmail,
      email: inv.email,
      firstName: inv.first_name,
      token,
      expiresAt: one(updated.rows).expires_at,
    });
    await audit(ctx, tx, 'invitations.resend', inv, { renewed: inv.expired });
    return { invitation: await reread(tx, inv.id) };
  });
}

/**
 * Revokes a pending (or lapsed) invitation: status `revoked`, its link stops working (the landing
 * page says so; `POST /registrations` refuses the token). 404 `Invitation not found`, 409 `This
 * invitation is no longer pending`. Audited `invitations.revoke`.
 */
export function revokeInvitation(
  ctx: EventCtx,
  rawId: string,
): Promise<{ invitation: Omit<PendingInvitationJson, 'status'> & { status: 'revoked' } }> {
  return ctx.db.transaction(async (tx) => {
    const inv = await lockPending(ctx, tx, rawId);
    await tx.execute(sql`UPDATE invitations SET status = 'revoked' WHERE id = ${inv.id}`);
    await audit(ctx, tx, 'invitations.revoke', inv);
    return { invitation: { ...inv, status: 'revoked' as const } };
  });
}

function audit(
  ctx: EventCtx,
  tx: Tx,
  action: string,
  inv: PendingInvitationJson,
  metadata: Record<string, unknown> = {},
): Promise<void> {
  return recordAudit(tx, {
    action,
    principal: ctx.access.principal,
    eventId: ctx.access.event.id,
    seriesId: ctx.access.event.seriesId,
    targetType: 'invitation',
    targetId: inv.id,
    metadata: { invitation_id: inv.id, email: inv.email, ...metadata },
  });
}
