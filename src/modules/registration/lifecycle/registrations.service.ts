/**
 * Participant side of registration (contract §8): start from an invitation, tickets, submit,
 * withdraw, typed consent signatures. The caller is a signed-in user (mobile token); a
 * registration is theirs when its person's `user_id` is the caller. Status changes go through
 * lifecycle.ts only.
 */
import { sql } from 'drizzle-orm';
import type { UserPrincipal } from '../../../access/principal.js';
import type { Tx } from '../../../db/client.js';
import type { Ctx } from '../../../deps.js';
import { forbidden, notFound, unprocessable } from '../../../lib/errors.js';
import { sendGuardianInvitations } from '../invitations/guardian-invitations.js';
import { isMinor, loadCompletionFacts, missingSections } from './completion.js';
import { CONSENT_NOT_FOUND, recordTypedSignature, requestConsents } from './consents.service.js';
import { recheckCompletion, transition } from './lifecycle.js';
import * as repo from './registration.repo.js';
import type { ConsentJson, TicketJson } from './registration.schemas.js';

export { startRegistration } from '../invitations/start.service.js';

export function userOf(ctx: Ctx): UserPrincipal['user'] {
  const p = ctx.access.principal;
  if (!('user' in p)) throw new Error('registration service reached without a user');
  return p.user;
}

/** GET /tickets → `{tickets}`: the caller's registrations, earliest event first. */
export async function listTickets(ctx: Ctx): Promise<{ tickets: TicketJson[] }> {
  return { tickets: await repo.ticketsOf(ctx.db, userOf(ctx).id, ctx.config.baseUrl) };
}

/** GET /tickets/{pe} → `{ticket}`; 404 `Registration not found`, 403 `This is not your registration` (someone else's). */
export async function getTicket(ctx: Ctx, rawId: string): Promise<{ ticket: TicketJson }> {
  const own = await repo.ownRegistration(ctx.db, userOf(ctx).id, rawId);
  return { ticket: await repo.ticketById(ctx.db, own.id, ctx.config.baseUrl) };
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
  ctx: Ctx,
  rawId: string,
): Promise<{ ticket: TicketJson; consents: ConsentJson[] }> {
  const user = userOf(ctx);
  return ctx.db.transaction(async (tx) => {
    const own = await repo.ownRegistration(tx, user.id, rawId, true);
    if (own.status !== 'in_progress')
      throw unprocessable(`Only a registration in progress can be submitted (it is ${own.status})`);
    // One read of the record serves both the required-sections check and the minor test.
    const facts = await loadCompletionFacts(tx, own.id);
    const missing = facts ? missingSections(facts) : [];
    if (missing.length > 0) throw unprocessable(`Registration is incomplete: ${missing.join(', ')}`);
    await tx.execute(sql`UPDATE registrations SET submitted_at = now() WHERE id = ${own.id}`);
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
  ctx: Ctx,
  rawId: string,
  reason?: string,
): Promise<{ ticket: TicketJson }> {
  const user = userOf(ctx);
  return ctx.db.transaction(async (tx) => {
    const own = await repo.ownRegistration(tx, user.id, rawId, true);
    await transition(tx, {
      registrationId: own.id,
      to: 'withdrawn',
      actor: { role: 'participant', principal: ctx.access.principal },
      reason: reason?.trim() || undefined,
    });
    return { ticket: await repo.ticketById(tx, own.id, ctx.config.baseUrl) };
  });
}

/** 404 `Registration not found` unless `rawId` is the caller's (route preValidation: 404 before 422). */
export async function assertOwnRegistration(ctx: Ctx, rawId: string): Promise<void> {
  await repo.ownRegistration(ctx.db, userOf(ctx).id, rawId);
}

async function ownConsentRegistration(
  ctx: Ctx,
  tx: Tx,
  rawId: string,
): Promise<{ id: number; registrationId: number }> {
  if (!/^[0-9]{1,9}$/.test(rawId)) throw notFound(CONSENT_NOT_FOUND);
  const id = Number(rawId);
  const res = await tx.execute<{ registration_id: number; user_id: number | null }>(
    sql`SELECT c.registration_id, p.user_id FROM consents c JOIN registrations r ON r.id = c.registration_id
          JOIN people p ON p.id = r.person_id WHERE c.id = ${id}`,
  );
  const row = res.rows[0];
  if (!row) throw notFound(CONSENT_NOT_FOUND);
  if (row.user_id === null || Number(row.user_id) !== userOf(ctx).id) throw forbidden(repo.NOT_YOURS);
  return { id, registrationId: row.registration_id };
}

/** 404 `Consent not found`; 403 `This is not your registration` when it is on someone else's (contract §1 order). */
export async function assertOwnConsent(ctx: Ctx, rawId: string): Promise<void> {
  await ownConsentRegistration(ctx, ctx.db, rawId);
}

/**
 * POST /consents/{id}/sign `{signature_name}` → `{consent, ticket}`: the registration's owner
 * signs by typing their name (time and IP recorded), then the completion check runs.
 * 404 `Consent not found` unless the consent belongs to one of the caller's registrations.
 */
export async function signOwnConsent(
  ctx: Ctx,
  rawId: string,
  input: { signatureName: string; ip: string },
): Promise<{ consent: ConsentJson; ticket: TicketJson }> {
  return ctx.db.transaction(async (tx) => {
    const { id, registrationId } = await ownConsentRegistration(ctx, tx, rawId);
    await recordTypedSignature(ctx, tx, {
      consentId: id,
      signatureName: input.signatureName,
      ip: input.ip,
      signer: 'participant',
      actor: { role: 'consent', principal: ctx.access.principal },
    });
    return {
      consent: await repo.consentById(tx, id),
      ticket: await repo.ticketById(tx, registrationId, ctx.config.baseUrl),
    };
  });
}
