/**
 * Staff edits of a participant's record (docs/decisions.md "Staff status changes and edits"):
 * `PATCH /events/{event_id}/participants/{participant_event_id}` and the staff participant page.
 * The same sections and validation as the participant's own PATCH (docs/decisions.md "Registration side"), written through the same
 * write model (own-record/apply.ts). Who may write which section follows who may read it (docs/decisions.md "Credentials and roles",
 * access/record-write.ts): sensitive sections only global admins and the event's safeguarding
 * leads, PII fields not `limited`, `read_only` nothing (the gate).
 *
 * Order (docs/decisions.md "Status codes and check order"): the gate (401 → 403 kind → 404 event → 403 reach) → 404 `Participant not
 * found for this event` → 403 `You may not edit: <fields>` (from the body's keys) → 422
 * `{error, problems}` → 409 withdrawn/rejected → write. Returns `{participant}` as JSON text in the
 * caller's visibility. Audited `registrations.record.update` with `{sections, fields, by:
 * 'staff_edit'}` (names, never values).
 */
import { forbiddenWrites } from '../../../access/record-write.js';
import type { CtxFor } from '../../../deps.js';
import { forbidden } from '../../../lib/errors.js';
import { participantDetailJson } from '../../participants/participants.repo.js';
import { validateRecordPatch } from '../../participants/record/validate.js';
import { registrationOfEvent } from '../lifecycle/staff.service.js';
import { applyRecordPatch, lockEditable } from '../own-record/apply.js';

export type StaffEditCtx = CtxFor<'participants.edit'>;

/** 403 message naming the fields the caller may not write. */
export const mayNotEdit = (fields: string[]) => `You may not edit: ${fields.join(', ')}`;

/**
 * Applies an untrusted PATCH body to registration `rawId` of the authorised event (see the file
 * comment for the statuses); returns `{"participant": ParticipantDetail}` as the caller sees it.
 */
export async function patchParticipant(ctx: StaffEditCtx, rawId: string, body: unknown): Promise<string> {
  const { id } = await registrationOfEvent(ctx, rawId);
  const refused = forbiddenWrites(body, ctx.access.visibility);
  if (refused.length > 0) throw forbidden(mayNotEdit(refused));
  const patch = validateRecordPatch(body, new Date().toISOString().slice(0, 10));
  return ctx.db.transaction(async (tx) => {
    const reg = await lockEditable(tx, id);
    await applyRecordPatch(ctx, tx, reg, patch, { role: 'staff_edit', principal: ctx.access.principal });
    const json = await participantDetailJson(tx, reg.eventId, reg.id, ctx.access.visibility);
    return `{"participant":${json}}`;
  });
}
