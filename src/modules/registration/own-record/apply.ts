/**
 * One record edit, shared by the participant's own PATCH (record.service.ts) and the staff edit
 * (staff-record/staff-record.service.ts): in the caller's transaction, with the registration
 * locked and the patch validated (validateRecordPatch), it writes the sections (writeRecordPatch),
 * re-runs the completion check (a new date of birth can make a minor), invites guardians added
 * while the registration is `awaiting_guardian`, and audits `registrations.record.update` with
 * metadata `{sections, fields, by}`: the section names given and the paths of the fields whose
 * stored value actually changed (e.g. `dietary_detail.intolerances`; lists and `accessibility` by
 * their section name; compared on the record read before and after the write), and `changes`, each
 * such field's old and new value (a sensitive field's name only: medical, dietary, accessibility,
 * safeguarding and emergency-contact values never enter the audit log): kept for the participant
 * page's history, which filters them per reader; the audit trail's API and pages never return `changes` (not in METADATA_KEYS), and
 * erasure and retention shredding remove them (privacy/data-map.ts).
 */
import { lockOwnRegistration, type OwnRegistration } from '../../../access/own.js';
import { SENSITIVE_WRITE_KEYS } from '../../../access/record-write.js';
import type { Tx } from '../../../db/client.js';
import type { Deps } from '../../../deps.js';
import { conflict } from '../../../lib/errors.js';
import { recordAudit } from '../../audit/audit.service.js';
import { emitWebhook } from '../../outbound-webhooks/emit.js';
import { participantDetailJson } from '../../participants/participants.repo.js';
import { PATCH_KEYS, type RecordPatchInput } from '../../participants/record/sections.schemas.js';
import { writeRecordPatch } from '../../participants/record/write.js';
import { inviteNewGuardians } from '../invitations/guardian-invitations.js';
import { recheckCompletion, type TransitionActor } from '../lifecycle/lifecycle.js';

/** Sections whose value is a whole (a list or a free-form object): named, not their keys. */
const WHOLE = new Set(['accessibility', 'emergency_contacts', 'guardians']);

/** The field paths a patch writes, in PATCH_KEYS order: `diet_type`, `personal.tshirt_size`, `guardians`. */
export function changedFields(patch: RecordPatchInput): string[] {
  return PATCH_KEYS.filter((k) => patch[k] !== undefined).flatMap((key) => {
    const value = patch[key];
    if (WHOLE.has(key) || value === null || typeof value !== 'object') return [key];
    return Object.keys(value).map((inner) => `${key}.${inner}`);
  });
}

type Json = Record<string, unknown>;
const EVERYTHING = { pii: true, sensitive: true } as const;

const recordOf = async (tx: Tx, reg: OwnRegistration): Promise<Json> =>
  JSON.parse((await participantDetailJson(tx, reg.eventId, reg.id, EVERYTHING)) ?? '{}') as Json;

const at = (obj: Json, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((cur, key) => (cur && typeof cur === 'object' ? (cur as Json)[key] : undefined), obj);

/** JSON text without row ids (replaced lists get new ids; that alone is no change). */
const comparable = (value: unknown) =>
  JSON.stringify(value ?? null, (key, v) => (key === 'id' || key === 'position' ? undefined : v));

/**
 * Registration `id` locked FOR UPDATE in `tx`; 409 `This registration is <status> and can no longer
 * be edited` when it is `withdrawn` or `rejected` (reinstate it first).
 */
export async function lockEditable(tx: Tx, id: number): Promise<OwnRegistration> {
  const reg = await lockOwnRegistration(tx, id);
  if (reg.status === 'withdrawn' || reg.status === 'rejected')
    throw conflict(`This registration is ${reg.status} and can no longer be edited`);
  return reg;
}

/**
 * Applies `patch` to `reg` (locked by the caller, not withdrawn/rejected) as `actor`. Returns the
 * section names written (empty: nothing was given, nothing written or audited).
 */
export async function applyRecordPatch(
  deps: Deps,
  tx: Tx,
  reg: OwnRegistration,
  patch: RecordPatchInput,
  actor: TransitionActor,
): Promise<string[]> {
  const sections = PATCH_KEYS.filter((k) => patch[k] !== undefined);
  if (sections.length === 0) return sections;
  const before = await recordOf(tx, reg);
  await writeRecordPatch(tx, reg, patch);
  const after = await recordOf(tx, reg);
  const fields = changedFields(patch).filter((p) => comparable(at(before, p)) !== comparable(at(after, p)));
  // Old and new values for the participant page's history, which shows each reader only the
  // values they may see (audit/registration-history.service.ts); the audit API never returns them.
  // Sensitive fields (medical, dietary, accessibility, safeguarding, emergency contacts) are kept
  // by name only: their values never enter the audit log, for any reader.
  const changes = fields.map((field) =>
    SENSITIVE_WRITE_KEYS.includes(field.split('.')[0] ?? field)
      ? { field }
      : { field, from: at(before, field) ?? null, to: at(after, field) ?? null },
  );
  // A submitted record whose facts changed may move (e.g. a new date of birth makes a minor).
  await recheckCompletion(tx, reg.id, actor);
  // Guardians added after the submission (or a record that now needs them) are invited now.
  await inviteNewGuardians(deps, tx, reg.id);
  await recordAudit(tx, {
    action: 'registrations.record.update',
    principal: actor.principal,
    eventId: reg.eventId,
    seriesId: reg.seriesId,
    targetType: 'registration',
    targetId: reg.id,
    metadata: { sections, fields, by: actor.role, changes },
  });
  // Outbound webhooks (docs/webhooks.md "Outbound"): the sections whose stored value changed.
  if (fields.length > 0)
    await emitWebhook(tx, reg.eventId, 'registration.updated', {
      participant_event_id: reg.id,
      sections: [...new Set(fields.map((f) => f.split('.')[0]!))],
    });
  return sections;
}
