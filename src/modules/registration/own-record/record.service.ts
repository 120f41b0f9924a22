/**
 * The participant's own record (docs/decisions.md "Registration side" `GET|PATCH /registrations/{participant_event_id}`).
 *
 * Whose record: the gate decided (target `registration:own`, access/own.ts: 404 unknown, 403
 * `This is not your registration`). Then, in the order of docs/decisions.md "Status codes and check order", the body (422
 * `{error, problems}` naming each bad field); a minor naming their own authorised pickup adults is
 * 403 (docs/checkin.md "Presence"); then the state: a `withdrawn` or `rejected` registration is
 * 409 `This registration is <status> and can no longer be edited` (a conflict with the record's
 * state, not a fault in the body).
 *
 * Validation and writes go through the participant-record write model (participants/record:
 * validateRecordPatch, then apply.ts applyRecordPatch, shared with the staff edit); the registration's
 * `updated_at` is bumped and the change audited (`registrations.record.update`, section and field
 * names only).
 * A submitted registration then re-runs the completion check (docs/decisions.md "Registration lifecycle"), so an edit can move it
 * (e.g. a date of birth that makes a minor → `awaiting_guardian`); while it is `awaiting_guardian`,
 * guardians added (or given a new address) by the edit are emailed their portal link at once.
 */
import type { OwnRegistration } from '../../../access/own.js';
import type { Visibility } from '../../../access/policy.js';
import type { Tx } from '../../../db/client.js';
import type { RegistrationCtx } from '../../../deps.js';
import { forbidden, notFound } from '../../../lib/errors.js';
import { eventRegion } from '../../events/event-region.js';
import { participantDetailJson } from '../../participants/participants.repo.js';
import type { RecordPatchInput } from '../../participants/record/sections.schemas.js';
import { validateRecordPatch } from '../../participants/record/validate.js';
import { isMinor, loadCompletionFacts } from '../lifecycle/completion.js';
import { REGISTRATION_NOT_FOUND } from '../lifecycle/lifecycle.js';
import { applyRecordPatch, lockEditable } from './apply.js';

/** The participant sees every section of their own record, sensitive ones included. */
export const OWN_VISIBILITY: Visibility = { pii: true, sensitive: true };

async function detailJson(db: Tx, reg: OwnRegistration): Promise<string> {
  const json = await participantDetailJson(db, reg.eventId, reg.id, OWN_VISIBILITY);
  if (json === null) throw notFound(REGISTRATION_NOT_FOUND);
  return `{"participant":${json}}`;
}

/** GET → `{participant: ParticipantDetail}` as JSON text, every section included. */
export async function getOwnRecord(ctx: RegistrationCtx): Promise<string> {
  return detailJson(ctx.db, ctx.access.registration);
}

export const MINOR_PICKUP_ADULTS =
  'A minor’s authorised pickup adults are set by a parent or guardian (guardian portal) or the safeguarding lead';

/**
 * A minor (under 18 on the event's first day, by the birth date this patch leaves) may not name
 * the adults allowed to collect them: 403, before anything is written (docs/checkin.md "Presence").
 */
async function refuseMinorPickupAdults(tx: Tx, id: number, patch: RecordPatchInput): Promise<void> {
  const sg = patch.safeguarding_detail;
  if (sg === undefined || (sg !== null && sg.authorized_pickup_adults === undefined)) return;
  const facts = await loadCompletionFacts(tx, id);
  if (!facts) return;
  const given = patch.personal?.date_of_birth;
  const dateOfBirth = given === undefined ? facts.dateOfBirth : given;
  if (isMinor({ dateOfBirth, eventStartDate: facts.eventStartDate })) throw forbidden(MINOR_PICKUP_ADULTS);
}

/** PATCH → the updated `{participant}` as JSON text (see the file comment for statuses). */
export async function patchOwnRecord(ctx: RegistrationCtx, body: unknown): Promise<string> {
  const region = await eventRegion(ctx.db, ctx.access.registration.eventId);
  const patch = validateRecordPatch(body, new Date().toISOString().slice(0, 10), region);
  return ctx.db.transaction(async (tx) => {
    const reg = await lockEditable(tx, ctx.access.registration.id);
    await refuseMinorPickupAdults(tx, reg.id, patch);
    await applyRecordPatch(ctx, tx, reg, patch, { role: 'participant', principal: ctx.access.principal });
    return detailJson(tx, reg);
  });
}
