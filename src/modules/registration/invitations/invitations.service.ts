/**
 * Event invitations (docs/decisions.md "Participants API"; spec "POST /events/{event_id}/participants"). An
 * invitation is a 30-day one-time token (stored as its SHA-256 digest) plus an email from the
 * event's support address, both written in the caller's transaction. No registration is created
 * here: the invitee starts one with `POST /registrations {invitation_token}` (docs/decisions.md "Registration side").
 * Reused by `muster import --invite`.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { actorUserIdOf, type Principal } from '../../../access/principal.js';
import type { Tx } from '../../../db/client.js';
import type { Deps, EventCtx } from '../../../deps.js';
import { conflict, notFound, unprocessable } from '../../../lib/errors.js';
import { EMAIL_PATTERN, normalizeEmail } from '../../../lib/identifiers.js';
import { digestSecret } from '../../../lib/secrets.js';
import { recordAudit } from '../../audit/audit.service.js';
import { isBanned } from '../../bans/bans.service.js';
import { queueEmail } from '../../email/email.service.js';
import { eventEmailContext } from '../../email/event-email.js';

export const INVITATION_DAYS = 30;
export const EMAIL_REQUIRED = 'Email is required';
export const EMAIL_INVALID = 'Invalid email format';
export const EMAIL_BANNED = 'This email is banned from events';
export const ALREADY_REGISTERED = 'This email is already registered for this event';
export const ALREADY_INVITED = 'An invitation has already been sent to this email';

const MAX_EMAIL = 320;

/** Who invites: an HTTP credential, or (CLI) a user id or nobody. */
export interface InvitationActor {
  principal?: Principal;
  actorUserId?: number | null;
}

export interface CreateInvitationInput {
  eventId: number;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  actor: InvitationActor;
}

export interface CreatedInvitation {
  invitationId: number;
  email: string;
  eventName: string;
  /** The one-time token (only in the email; never stored). */
  token: string;
  expiresAt: string;
  /** email_log id of the queued invitation email. */
  emailLogId: number;
}

/** A fresh URL-safe invitation/guardian token (32 random bytes) and its digest. */
export function newToken(): { token: string; digest: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, digest: digestSecret(token) };
}

/**
 * Creates a pending invitation and queues its email in `tx`. Checks, in order (docs/decisions.md "Participants API"):
 * 422 `Email is required`, 422 `Invalid email format`, 422 `This email is banned from events`,
 * 409 `This email is already registered for this event` (a registration other than `invited`),
 * 409 `An invitation has already been sent to this email` (a pending, unexpired invitation).
 * The email is trimmed and lowercased. 404 `Event not found` for an unknown event id.
 */
export async function createInvitation(
  deps: Deps,
  tx: Tx,
  input: CreateInvitationInput,
): Promise<CreatedInvitation> {
  const email = normalizeEmail(input.email ?? '');
  if (email === '') throw unprocessable(EMAIL_REQUIRED);
  if (email.length > MAX_EMAIL || !EMAIL_PATTERN.test(email)) throw unprocessable(EMAIL_INVALID);
  if (await isBanned(tx, email)) throw unprocessable(EMAIL_BANNED);
  const ev = await tx.execute<{ name: string; support_email: string | null; series_id: string }>(
    sql`SELECT name, support_email, series_id FROM events WHERE id = ${input.eventId}`,
  );
  const event = ev.rows[0];
  if (!event) throw notFound('Event not found');
  const registered = await tx.execute(
    sql`SELECT 1 FROM registrations r JOIN people p ON p.id = r.person_id
         WHERE r.event_id = ${input.eventId} AND lower(p.email) = ${email} AND r.status <> 'invited'`,
  );
  if (registered.rows.length > 0) throw conflict(ALREADY_REGISTERED);
  // A lapsed pending invitation no longer blocks a new one.
  await tx.execute(
    sql`UPDATE invitations SET status = 'expired'
         WHERE event_id = ${input.eventId} AND email = ${email} AND status = 'pending' AND expires_at <= now()`,
  );
  const { token, digest } = newToken();
  const p = input.actor.principal;
  const invitedBy = input.actor.actorUserId ?? (p ? actorUserIdOf(p) : null);
  // ON CONFLICT on the partial unique index: concurrent identical invites create exactly one.
  const inserted = await tx.execute<{ id: number; expires_at: string }>(sql`
    INSERT INTO invitations (event_id, email, first_name, last_name, token_digest, expires_at,
                             invited_by_user_id, credential_kind, credential_id)
    VALUES (${input.eventId}, ${email}, ${clean(input.firstName)}, ${clean(input.lastName)}, ${digest},
            now() + make_interval(days => ${INVITATION_DAYS}), ${invitedBy}, ${p?.kind ?? 'cli'},
            ${p?.credentialId ?? null})
    ON CONFLICT (event_id, email) WHERE status = 'pending' DO NOTHING
    RETURNING id, to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS expires_at`);
  const row = inserted.rows[0];
  if (!row) throw conflict(ALREADY_INVITED);
  const emailLogId = await queueInvitationEmail(deps, tx, {
    eventId: input.eventId,
    eventName: event.name,
    supportEmail: event.support_email,
    email,
    firstName: clean(input.firstName),
    token,
    expiresAt: row.expires_at,
  });
  await recordAudit(tx, {
    action: 'participants.invite',
    principal: p,
    ...(p ? {} : { actorUserId: input.actor.actorUserId ?? null }),
    eventId: input.eventId,
    seriesId: event.series_id,
    targetType: 'invitation',
    targetId: row.id,
  });
  return { invitationId: row.id, email, eventName: event.name, token, expiresAt: row.expires_at, emailLogId };
}

/**
 * POST /events/{event_id}/participants: `createInvitation` in its own transaction, on the gate's
 * event, by the authorised caller (same errors).
 */
export function inviteParticipant(
  ctx: EventCtx,
  input: { email?: string; first_name?: string | null; last_name?: string | null },
): Promise<CreatedInvitation> {
  return ctx.db.transaction((tx) =>
    createInvitation(ctx, tx, {
      eventId: ctx.access.event.id,
      email: input.email,
      firstName: input.first_name,
      lastName: input.last_name,
      actor: { principal: ctx.access.principal },
    }),
  );
}

/** What an invitation email needs (the token is in the link only). */
export interface InvitationEmail {
  eventId: number;
  eventName: string;
  supportEmail: string | null;
  email: string;
  firstName: string | null;
  token: string;
  expiresAt: string;
}

/** Queues the `invitation` email (from the event's support address) in `tx`; returns its email_log id. */
export async function queueInvitationEmail(deps: Deps, tx: Tx, m: InvitationEmail): Promise<number> {
  const base = deps.config.baseUrl.replace(/\/$/, '');
  return queueEmail(deps, tx, {
    to: m.email,
    from: m.supportEmail ?? undefined,
    eventId: m.eventId,
    template: 'invitation',
    vars: {
      ...(await eventEmailContext(deps, tx, m.eventId, 'invitation')),
      first_name: m.firstName,
      accept_url: `${base}/register/accept?token=${m.token}`,
      expires_at: m.expiresAt,
    },
  });
}

function clean(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v ? v : null;
}
