/**
 * POST /registrations {invitation_token} (docs/decisions.md "Registration side"): a signed-in user turns an invitation into a
 * registration in `in_progress` (an imported `invited` registration moves to `in_progress`).
 *
 * Checks in order, all 422: `Invalid invitation token`, `This invitation has already been used`,
 * `This invitation has been revoked`, `This invitation has expired`, `This email is banned from
 * events`, `This invitation was sent to a different email address` (the signed-in user's email
 * must match the invited one: the link may have been forwarded), `Registration for this event is
 * not open` (draft event, before `registration_open_at` or after `registration_close_at`); then
 * 409 `This email is already registered for this event`.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import type { MobileCtx } from '../../../deps.js';
import { conflict, unprocessable } from '../../../lib/errors.js';
import { normalizeEmail } from '../../../lib/identifiers.js';
import { digestSecret } from '../../../lib/secrets.js';
import { recordAudit } from '../../audit/audit.service.js';
import { isBanned } from '../../bans/bans.service.js';
import { transition } from '../lifecycle/lifecycle.js';
import { ticketById } from '../lifecycle/registration.repo.js';
import type { TicketJson } from '../lifecycle/registration.schemas.js';
import { createPersonAndRegistration } from '../lifecycle/writes.js';
import { ALREADY_REGISTERED, EMAIL_BANNED } from './invitations.service.js';

interface InvitationRow {
  id: number;
  event_id: number;
  series_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  status: string;
  expired: boolean;
  open: boolean;
}

async function loadInvitation(tx: Tx, token: string): Promise<InvitationRow> {
  const res = await tx.execute<InvitationRow & Record<string, unknown>>(sql`
    SELECT i.id, i.event_id, e.series_id, i.email, i.first_name, i.last_name, i.status,
           i.expires_at <= now() AS expired,
           (e.setup_complete AND (e.registration_open_at IS NULL OR e.registration_open_at <= now())
             AND (e.registration_close_at IS NULL OR e.registration_close_at > now())) AS open
      FROM invitations i JOIN events e ON e.id = i.event_id
     WHERE i.token_digest = ${digestSecret(token)}
     FOR UPDATE OF i`);
  const inv = res.rows[0];
  if (!inv) throw unprocessable('Invalid invitation token');
  if (inv.status === 'accepted') throw unprocessable('This invitation has already been used');
  if (inv.status === 'revoked') throw unprocessable('This invitation has been revoked');
  if (inv.status === 'expired' || inv.expired) throw unprocessable('This invitation has expired');
  return inv;
}

function splitName(name: string): [string, string] {
  const parts = name.trim().split(/\s+/);
  return [parts[0] ?? '', parts.slice(1).join(' ')];
}

export async function startRegistration(ctx: MobileCtx, token: string): Promise<{ ticket: TicketJson }> {
  const p = ctx.access.principal;
  const user = p.user;
  return ctx.db.transaction(async (tx) => {
    const inv = await loadInvitation(tx, token);
    if (await isBanned(tx, inv.email)) throw unprocessable(EMAIL_BANNED);
    if (normalizeEmail(user.email) !== inv.email)
      throw unprocessable('This invitation was sent to a different email address');
    if (!inv.open) throw unprocessable('Registration for this event is not open');

    const [first, last] = splitName(user.name);
    const reg = await createPersonAndRegistration(tx, {
      eventId: inv.event_id,
      person: {
        userId: user.id,
        email: inv.email,
        legalFirstName: inv.first_name ?? first,
        legalLastName: inv.last_name ?? last,
      },
      status: 'invited',
    });
    const registrationId = reg.registrationId;
    if (!reg.created && reg.status !== 'invited') throw conflict(ALREADY_REGISTERED);
    if (reg.created)
      await recordAudit(tx, {
        action: 'registrations.create',
        principal: p,
        eventId: inv.event_id,
        seriesId: inv.series_id,
        targetType: 'registration',
        targetId: registrationId,
        metadata: { invitation_id: inv.id },
      });
    await transition(tx, {
      registrationId,
      to: 'in_progress',
      actor: { role: 'participant', principal: p, metadata: { invitation_id: inv.id } },
    });
    await tx.execute(sql`
      UPDATE invitations SET status = 'accepted', accepted_at = now(), registration_id = ${registrationId}
       WHERE id = ${inv.id}`);
    return { ticket: await ticketById(tx, registrationId, ctx.config.baseUrl) };
  });
}
