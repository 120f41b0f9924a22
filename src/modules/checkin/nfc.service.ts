/**
 * NFC badges (docs/decisions.md "Check-in"): ensure a registration's badge token, confirm it was written to a
 * badge (assignment), reset it. Only with the event's NFC module on (else 422). Each runs in one
 * transaction with a row lock on the registration; changes bump `updated_at` (DB trigger).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { EventRow } from '../../access/resolve.js';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { EventCtx } from '../../deps.js';
import { notFound, unprocessable } from '../../lib/errors.js';
import { isoTimestamp } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';

export const NFC_DISABLED = 'NFC badges are not enabled for this event';
export const NO_BADGE_TOKEN = 'This participant has no badge token yet: call ensure first';
export const BADGE_MISMATCH = "badge_token does not match this participant's badge";
const PARTICIPANT_NOT_FOUND = 'Participant not found for this event';

interface BadgeRow extends Record<string, unknown> {
  token: string | null;
  assigned_at: string | null;
}

export const newBadgeToken = () => randomBytes(16).toString('base64url');

/** Locks the registration (404 unless in the event), then refuses when the NFC module is off. */
async function lockBadge(tx: Tx, event: EventRow, registrationId: number): Promise<BadgeRow> {
  const res = await tx.execute<BadgeRow>(
    sql`SELECT nfc_badge_token AS token, nfc_badge_assigned_at::text AS assigned_at FROM registrations
         WHERE id = ${registrationId} AND event_id = ${event.id} FOR UPDATE`,
  );
  const row = res.rows[0];
  if (!row) throw notFound(PARTICIPANT_NOT_FOUND);
  const modules = await tx.execute<{ on: boolean | null }>(
    sql`SELECT (modules->>'nfc_badges_enabled')::boolean AS on FROM events WHERE id = ${event.id}`,
  );
  if (!modules.rows[0]?.on) throw unprocessable(NFC_DISABLED);
  return row;
}

/**
 * Writes registration `registrationId`'s badge token and its assignment time: `now`, `clear`
 * (NULL), `keep`, or an ISO 8601 instant (the demo's past check-ins). Returns both as stored.
 */
export async function storeBadge(
  tx: Tx,
  registrationId: number,
  token: string | null,
  assigned: 'keep' | 'now' | 'clear' | { at: string },
) {
  const assignedAt =
    typeof assigned === 'object'
      ? sql`${assigned.at}::timestamptz`
      : assigned === 'now'
        ? sql`now()`
        : assigned === 'clear'
          ? sql`NULL`
          : sql`nfc_badge_assigned_at`;
  const res = await tx.execute<BadgeRow>(
    sql`UPDATE registrations SET nfc_badge_token = ${token}, nfc_badge_assigned_at = ${assignedAt}
         WHERE id = ${registrationId}
         RETURNING nfc_badge_token AS token, nfc_badge_assigned_at::text AS assigned_at`,
  );
  return one(res.rows);
}

function audit(ctx: EventCtx, tx: Tx, action: string, registrationId: number) {
  const event = ctx.access.event;
  return recordAudit(tx, {
    action,
    principal: ctx.access.principal,
    eventId: event.id,
    seriesId: event.seriesId,
    targetType: 'registration',
    targetId: registrationId,
  });
}

const ensureBody = (row: BadgeRow) => ({
  badge_token: row.token!,
  assigned: row.token !== null && row.assigned_at !== null,
  assigned_at: isoTimestamp(row.assigned_at),
});

/** `{badge_token, assigned, assigned_at}`: creates a token when there is none. */
export async function ensureBadge(ctx: EventCtx, registrationId: number) {
  const event = ctx.access.event;
  return ctx.db.transaction(async (tx) => {
    let row = await lockBadge(tx, event, registrationId);
    if (row.token === null) {
      row = await storeBadge(tx, registrationId, newBadgeToken(), 'clear');
      await audit(ctx, tx, 'nfc_badges.ensure', registrationId);
    }
    return ensureBody(row);
  });
}

/** `{success, badge_token, assigned_at}`: records that the badge was written (idempotent). */
export async function confirmBadge(ctx: EventCtx, registrationId: number, input: { badge_token?: string }) {
  const event = ctx.access.event;
  return ctx.db.transaction(async (tx) => {
    let row = await lockBadge(tx, event, registrationId);
    if (row.token === null) throw unprocessable(NO_BADGE_TOKEN);
    if (input.badge_token !== undefined && input.badge_token !== row.token)
      throw unprocessable(BADGE_MISMATCH);
    if (row.assigned_at === null) {
      row = await storeBadge(tx, registrationId, row.token, 'now');
      await audit(ctx, tx, 'nfc_badges.confirm', registrationId);
    }
    return { success: true as const, badge_token: row.token!, assigned_at: isoTimestamp(row.assigned_at)! };
  });
}

/** `{badge_token, assigned:false, assigned_at:null}`: a new token; the old badge no longer scans. */
export async function resetBadge(ctx: EventCtx, registrationId: number) {
  const event = ctx.access.event;
  return ctx.db.transaction(async (tx) => {
    await lockBadge(tx, event, registrationId);
    const row = await storeBadge(tx, registrationId, newBadgeToken(), 'clear');
    await audit(ctx, tx, 'nfc_badges.reset', registrationId);
    return ensureBody(row);
  });
}
