/**
 * Subject access and erasure for callers (docs/privacy.md): a global admin or the event's
 * safeguarding lead, through a registration of the event (`privacy.export`, `privacy.erase`), and a
 * signed-in person for themselves (`privacy.own_export`). Every export and erasure is audited with
 * counts only, never values.
 */
import { sql } from 'drizzle-orm';
import type { UserCtx, UserEventCtx } from '../../deps.js';
import { forbidden, unprocessable } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { registrationInEvent } from '../notes/notes.service.js';
import { type ErasureCounts, erasePerson } from './erase.service.js';
import { subjectAccessZip } from './export.service.js';
import { subjectOfRegistration, subjectOfUser } from './subject.js';

export const CONFIRM_MISMATCH = 'confirm_email must be the person’s email address';
export const NOT_ALL_YOURS =
  'This person is also registered at events you do not lead; ask a global admin to erase them';

const leadOf = (ctx: UserEventCtx): number | null =>
  ctx.access.principal.user.globalAdmin ? null : ctx.access.principal.user.id;

function tableCounts(tables: Record<string, unknown[]>): Record<string, number> {
  return Object.fromEntries(Object.entries(tables).map(([k, v]) => [k, v.length]));
}

/** The ZIP for the person holding registration `{participant_event_id}` of the event (404 when not there). */
export async function exportForStaff(ctx: UserEventCtx, rawId: string): Promise<Buffer> {
  const registrationId = await registrationInEvent(ctx, rawId);
  return ctx.db.transaction(async (tx) => {
    const subject = await subjectOfRegistration(tx, registrationId, leadOf(ctx));
    const { data, zip } = await subjectAccessZip(tx, subject);
    await recordAudit(tx, {
      principal: ctx.access.principal,
      action: 'person.exported',
      eventId: ctx.access.event.id,
      targetType: 'registration',
      targetId: registrationId,
      metadata: { scope: data.scope, tables: tableCounts(data.tables) },
    });
    return zip;
  });
}

/** The signed-in user's own ZIP (whole scope). */
export async function exportOwn(ctx: UserCtx): Promise<Buffer> {
  return ctx.db.transaction(async (tx) => {
    const subject = await subjectOfUser(tx, ctx.access.principal.user.id);
    const { data, zip } = await subjectAccessZip(tx, subject);
    await recordAudit(tx, {
      principal: ctx.access.principal,
      action: 'person.exported',
      targetType: 'user',
      targetId: ctx.access.principal.user.id,
      metadata: { scope: data.scope, tables: tableCounts(data.tables) },
    });
    return zip;
  });
}

/**
 * Erases the person holding the registration, across every event. 422 `CONFIRM_MISMATCH` unless
 * `confirm_email` is their address; a safeguarding lead gets 403 `NOT_ALL_YOURS` when the person is
 * also registered at an event they do not lead. Nothing changes on either refusal.
 */
export async function eraseForStaff(
  ctx: UserEventCtx,
  rawId: string,
  body: { confirm_email: string },
): Promise<{ erased: { person_id: number; tables: ErasureCounts } }> {
  const registrationId = await registrationInEvent(ctx, rawId);
  return ctx.db.transaction(async (tx) => {
    const whole = await subjectOfRegistration(tx, registrationId, null);
    const personId = whole.personId as number;
    const lead = leadOf(ctx);
    if (lead !== null) {
      const res = await tx.execute<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM registrations WHERE person_id = ${personId}
           AND event_id NOT IN (SELECT event_id FROM event_roles WHERE user_id = ${lead} AND role = 'safeguarding_lead')`);
      if ((res.rows[0]?.n ?? 0) > 0) throw forbidden(NOT_ALL_YOURS);
    }
    const own = await tx.execute<{ email: string }>(sql`SELECT email FROM people WHERE id = ${personId}`);
    if (own.rows[0]?.email.toLowerCase() !== body.confirm_email.trim().toLowerCase())
      throw unprocessable(CONFIRM_MISMATCH);
    const tables = await erasePerson(tx, whole);
    await recordAudit(tx, {
      principal: ctx.access.principal,
      action: 'person.erased',
      eventId: ctx.access.event.id,
      targetType: 'person',
      targetId: personId,
      metadata: { tables },
    });
    return { erased: { person_id: personId, tables } };
  });
}
