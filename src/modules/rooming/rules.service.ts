/**
 * An event's rooming rules as data (docs/rooming.md "Rules"): GET returns the stored rules over the
 * defaults; PUT replaces them (a key left out takes its default). Audited `rooming.rules.update`
 * (field names). Designation choices must name registrations of this event (422 otherwise).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { UserEventCtx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import { keysOf } from '../../lib/narrow.js';
import { recordAudit } from '../audit/audit.service.js';
import type { PutRulesInput } from './rules.schemas.js';
import { DEFAULT_RULES, type RoomingRules } from './solver/types.js';

/** The event's rules: stored keys over the defaults (unknown stored keys are ignored). */
export async function loadRules(tx: Tx, eventId: number): Promise<RoomingRules> {
  const res = await tx.execute<{ rules: Partial<RoomingRules> }>(
    sql`SELECT rules FROM rooming_rules WHERE event_id = ${eventId}`,
  );
  const stored = res.rows[0]?.rules ?? {};
  const out = { ...DEFAULT_RULES };
  for (const key of keysOf(DEFAULT_RULES)) copyStored(out, stored, key);
  return out;
}

/** `out[key] = stored[key]` when the stored rules have that key (keys no longer known are dropped). */
function copyStored<K extends keyof RoomingRules>(out: RoomingRules, stored: Partial<RoomingRules>, key: K) {
  const value = stored[key];
  if (value !== undefined) out[key] = value;
}

export async function getRules(ctx: UserEventCtx): Promise<{ rules: RoomingRules }> {
  return { rules: await loadRules(ctx.db, ctx.access.event.id) };
}

export async function putRules(ctx: UserEventCtx, input: PutRulesInput): Promise<{ rules: RoomingRules }> {
  const eventId = ctx.access.event.id;
  const rules: RoomingRules = { ...DEFAULT_RULES, ...input };
  const ids = [...new Set(rules.designation_choices.map((c) => c.participant_event_id))];
  if (ids.length !== rules.designation_choices.length)
    throw unprocessable('designation_choices names a registration more than once');
  return ctx.db.transaction(async (tx) => {
    if (ids.length) {
      const known = await tx.execute<{ id: number }>(
        sql`SELECT id FROM registrations WHERE event_id = ${eventId} AND id IN (${sql.raw(ids.join(','))})`,
      );
      const found = new Set(known.rows.map((r) => Number(r.id)));
      const unknown = ids.filter((id) => !found.has(id));
      if (unknown.length)
        throw unprocessable(`Not registrations of this event: ${unknown.slice(0, 20).join(', ')}`);
    }
    rules.designation_choices = rules.designation_choices.map((c) => ({
      participant_event_id: c.participant_event_id,
      designations: [...new Set(c.designations)],
    }));
    await tx.execute(
      sql`INSERT INTO rooming_rules (event_id, rules) VALUES (${eventId}, ${JSON.stringify(rules)}::jsonb)
          ON CONFLICT (event_id) DO UPDATE SET rules = EXCLUDED.rules, updated_at = now()`,
    );
    await recordAudit(tx, {
      action: 'rooming.rules.update',
      principal: ctx.access.principal,
      eventId,
      targetType: 'event',
      targetId: eventId,
      metadata: { fields: Object.keys(input).sort() },
    });
    return { rules };
  });
}
