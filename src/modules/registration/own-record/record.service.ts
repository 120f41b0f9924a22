/**
 * The participant's own record (contract §8 `GET|PATCH /registrations/{participant_event_id}`).
 *
 * Whose record: the gate decided (target `registration:own`, access/own.ts: 404 unknown, 403
 * `This is not your registration`). Then, in the order of contract §1, the body (422
 * `{error, problems}` naming each bad field); then the state: a `withdrawn` or `rejected` registration is
 * 409 `This registration is <status> and can no longer be edited` (a conflict with the record's
 * state, not a fault in the body).
 *
 * Validation and writes go through the participant-record write model (participants/record:
 * validateRecordPatch, writeRecordPatch, the same section writers as import); the registration's
 * `updated_at` is bumped and the change audited (`registrations.record.update`, section names only).
 * A submitted registration then re-runs the completion check (contract §4), so an edit can move it
 * (e.g. a date of birth that makes a minor → `awaiting_guardian`); while it is `awaiting_guardian`,
 * guardians added (or given a new address) by the edit are emailed their portal link at once.
 */
import { lockOwnRegistration, type OwnRegistration } from '../../../access/own.js';
import type { Visibility } from '../../../access/policy.js';
import type { Tx } from '../../../db/client.js';
import type { RegistrationCtx } from '../../../deps.js';
import { conflict, notFound } from '../../../lib/errors.js';
import { recordAudit } from '../../audit/audit.service.js';
import { participantDetailJson } from '../../participants/participants.repo.js';
import { PATCH_KEYS } from '../../participants/record/sections.schemas.js';
import { validateRecordPatch } from '../../participants/record/validate.js';
import { writeRecordPatch } from '../../participants/record/write.js';
import { inviteNewGuardians } from '../invitations/guardian-invitations.js';
import { REGISTRATION_NOT_FOUND, recheckCompletion } from '../lifecycle/lifecycle.js';

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

/** PATCH → the updated `{participant}` as JSON text (see the file comment for statuses). */
export async function patchOwnRecord(ctx: RegistrationCtx, body: unknown): Promise<string> {
  const patch = validateRecordPatch(body, new Date().toISOString().slice(0, 10));
  return ctx.db.transaction(async (tx) => {
    const reg = await lockOwnRegistration(tx, ctx.access.registration.id);
    if (reg.status === 'withdrawn' || reg.status === 'rejected')
      throw conflict(`This registration is ${reg.status} and can no longer be edited`);
    const sections = PATCH_KEYS.filter((k) => patch[k] !== undefined);
    if (sections.length === 0) return detailJson(tx, reg);
    await writeRecordPatch(tx, reg, patch);
    // A submitted record whose facts changed may move (e.g. a new date of birth makes a minor).
    await recheckCompletion(tx, reg.id, { role: 'participant', principal: ctx.access.principal });
    // Guardians added after the submission (or a record that now needs them) are invited now.
    await inviteNewGuardians(ctx, tx, reg.id);
    await recordAudit(tx, {
      action: 'registrations.record.update',
      principal: ctx.access.principal,
      eventId: reg.eventId,
      seriesId: reg.seriesId,
      targetType: 'registration',
      targetId: reg.id,
      metadata: { sections },
    });
    return detailJson(tx, reg);
  });
}
