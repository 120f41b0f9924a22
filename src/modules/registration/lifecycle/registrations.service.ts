/**
 * Participant side of registration (docs/decisions.md "Registration side"): start from an invitation, tickets, submit,
 * withdraw, typed consent signatures. The caller is a signed-in user (mobile token or web
 * session); the gate decides that a registration is theirs (target `registration:own`: its person's
 * `user_id` is the caller) and hands it over in the context. Status changes go through lifecycle.ts only.
 */
import { sql } from 'drizzle-orm';
import { lockOwnRegistration } from '../../../access/own.js';
import type { RegistrationCtx, UserCtx } from '../../../deps.js';
import { notFound, unprocessable } from '../../../lib/errors.js';
import { sendGuardianInvitations } from '../invitations/guardian-invitations.js';
import { isMinor, loadCompletionFacts, missingSections } from './completion.js';
import { CONSENT_NOT_FOUND, recordTypedSignature, requestConsents } from './consents.service.js';
import { recheckCompletion, transition } from './lifecycle.js';
import * as repo from './registration.repo.js';
import type { ConsentJson, TicketJson } from './registration.schemas.js';
import { markSubmitted } from './writes.js';

export { startRegistration } from '../invitations/start.service.js';

/** GET /tickets → `{tickets}`: the caller's registrations, earliest event first. */
export async function listTickets(ctx: UserCtx): Promise<{ tickets: TicketJson[] }> {
  return { tickets: await repo.ticketsOf(ctx.db, ctx.access.principal.user.id, ctx.config.baseUrl) };
}

/** GET /tickets/{pe} → `{ticket}` of the caller's registration (the gate resolved it: 404, 403). */
export async function getTicket(ctx: RegistrationCtx): Promise<{ ticket: TicketJson }> {
  return { ticket: await repo.ticketById(ctx.db, ctx.access.registration.id, ctx.config.baseUrl) };
}

/**
 * POST /registrations/{pe}/submit → `{ticket, consents}`. Only `in_progress` may be submitted
 * (422 `Only a registration in progress can be submitted`); missing required sections → 422
 * `Registration is incomplete: <fields>`. Records `submitted_at`, requests the consents (pending
 * on the participant, or on a guardian for a minor), emails guardian invitations (minors), then
 * runs the completion check: adult → stays `in_progress` until the waiver is signed (then
 * `complete`); minor → `awaiting_guardian`.
 */
export async function submitRegistration(
  ctx: RegistrationCtx,
): Promise<{ ticket: TicketJson; consents: ConsentJson[] }> {
  return ctx.db.transaction(async (tx) => {
    const own = await lockOwnRegistration(tx, ctx.access.registration.id);
    if (own.status !== 'in_progress')
      throw unprocessable(`Only a registration in progress can be submitted (it is ${own.status})`);
    // One read of the record serves both the required-sections check and the minor test.
    const facts = await loadCompletionFacts(tx, own.id);
    const missing = facts ? missingSections(facts) : [];
    if (missing.length > 0) throw unprocessable(`Registration is incomplete: ${missing.join(', ')}`);
    await markSubmitted(tx, own.id);
    const minor = facts ? isMinor(facts) : false;
    await requestConsents(ctx, tx, own.id, minor ? 'guardian' : 'participant');
    if (minor) await sendGuardianInvitations(ctx, tx, own.id);
    await recheckCompletion(tx, own.id, { role: 'participant', principal: ctx.access.principal });
    return {
      ticket: await repo.ticketById(tx, own.id, ctx.config.baseUrl),
      consents: await repo.consentsOf(tx, own.id),
    };
  });
}

/** POST /registrations/{pe}/withdraw `{reason?}` → `{ticket}`; 422 when already withdrawn/rejected. */
export async function withdrawRegistration(
  ctx: RegistrationCtx,
  reason?: string,
): Promise<{ ticket: TicketJson }> {
  return ctx.db.transaction(async (tx) => {
    const own = await lockOwnRegistration(tx, ctx.access.registration.id);
    await transition(tx, {
      registrationId: own.id,
      to: 'withdrawn',
      actor: { role: 'participant', principal: ctx.access.principal },
      reason: reason?.trim() || undefined,
    });
    return { ticket: await repo.ticketById(tx, own.id, ctx.config.baseUrl) };
  });
}

/**
 * POST /consents/{id}/sign `{signature_name}` → `{consent, ticket}`: the registration's owner
 * signs by typing their name (time and IP recorded), then the completion check runs. The gate
 * resolved the caller's registration; a consent that is not one of its own → 404 `Consent not found`.
 */
export async function signOwnConsent(
  ctx: RegistrationCtx,
  rawId: string,
  input: { signatureName: string; ip: string; language?: string },
): Promise<{ consent: ConsentJson; ticket: TicketJson }> {
  const registrationId = ctx.access.registration.id;
  if (!/^[0-9]{1,9}$/.test(rawId)) throw notFound(CONSENT_NOT_FOUND);
  const id = Number(rawId);
  return ctx.db.transaction(async (tx) => {
    const res = await tx.execute(
      sql`SELECT 1 FROM consents WHERE id = ${id} AND registration_id = ${registrationId}`,
    );
    if (res.rows.length === 0) throw notFound(CONSENT_NOT_FOUND);
    await recordTypedSignature(ctx, tx, {
      consentId: id,
      signatureName: input.signatureName,
      ip: input.ip,
      language: input.language,
      signer: 'participant',
      actor: { role: 'consent', principal: ctx.access.principal },
    });
    return {
      consent: await repo.consentById(tx, id),
      ticket: await repo.ticketById(tx, registrationId, ctx.config.baseUrl),
    };
  });
}
