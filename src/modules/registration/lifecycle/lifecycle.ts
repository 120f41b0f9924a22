/**
 * Registration lifecycle (docs/decisions.md "Registration lifecycle"): the ONE place that changes
 * `registrations.status`. The rules are data in `lifecycle.rules.ts`; the `complete` condition is
 * in `completion.ts`. Every transition is audited (`registrations.transition`, metadata
 * `{from, to, by, reason?}`) and bumps `updated_at` (the registrations update trigger).
 * Pinned by test/registration/lifecycle.test.ts.
 */
import { sql } from 'drizzle-orm';
import type { Principal } from '../../../access/principal.js';
import type { Tx } from '../../../db/client.js';
import type { RegistrationStatus } from '../../../db/schema/index.js';
import { notFound } from '../../../lib/errors.js';
import { type AuditVia, recordAudit } from '../../audit/audit.service.js';
import { completionStatus, loadCompletionFacts, lostCompletion } from './completion.js';
import { type ActorRole, assertTransition, CHECKED_STATUSES } from './lifecycle.rules.js';
import { writeStatus } from './writes.js';

export { REGISTRATION_NOT_FOUND } from '../../../access/own.js';
export { ACTOR_ROLES, type ActorRole, rolesFor, TRANSITIONS } from './lifecycle.rules.js';

import { REGISTRATION_NOT_FOUND } from '../../../access/own.js';

/** Who moves a registration: the role the rules check, plus what the audit entry names. */
export interface TransitionActor {
  role: ActorRole;
  /** The credential that acted (HTTP). */
  principal?: Principal;
  /** For actors without a credential (guardian portal token, CLI, webhook): the user, or null. */
  actorUserId?: number | null;
  /** For actors without a credential: how they were identified (audit `credential_kind`; default `cli`). */
  via?: AuditVia;
  /** Extra audit metadata (e.g. `guardian_id`, `consent_id`); never secrets. */
  metadata?: Record<string, unknown>;
}

export interface TransitionInput {
  registrationId: number;
  to: RegistrationStatus;
  actor: TransitionActor;
  reason?: string;
}

/**
 * Moves one registration to `to` under a row lock. 404 `Registration not found`; 422 when the
 * move is not allowed (see `assertTransition`). Writes the status with the timestamps it sets
 * (STATUS_STAMPS: `submitted_at` kept, `completed_at` on `complete`, `withdrawn_at` on
 * `withdrawn`). Returns the previous and the new status.
 */
export async function transition(
  tx: Tx,
  input: TransitionInput,
): Promise<{ from: RegistrationStatus; to: RegistrationStatus }> {
  const res = await tx.execute<{ status: RegistrationStatus; event_id: number; series_id: string }>(
    sql`SELECT r.status, r.event_id, e.series_id FROM registrations r JOIN events e ON e.id = r.event_id
         WHERE r.id = ${input.registrationId} FOR UPDATE OF r`,
  );
  const row = res.rows[0];
  if (!row) throw notFound(REGISTRATION_NOT_FOUND);
  const from = row.status;
  assertTransition(from, input.to, input.actor.role);
  await writeStatus(tx, input.registrationId, input.to);
  await recordAudit(tx, {
    action: 'registrations.transition',
    principal: input.actor.principal,
    ...(input.actor.principal ? {} : { actorUserId: input.actor.actorUserId ?? null, via: input.actor.via }),
    eventId: row.event_id,
    seriesId: row.series_id,
    targetType: 'registration',
    targetId: input.registrationId,
    metadata: {
      from,
      to: input.to,
      by: input.actor.role,
      ...(input.reason ? { reason: input.reason } : {}),
      ...input.actor.metadata,
    },
  });
  return { from, to: input.to };
}

/**
 * Re-runs the `complete` check (after a submit, a guardian's completion or a consent's signature)
 * and moves the registration when its place changed. Only registrations in `awaiting_guardian`,
 * `complete`, or a submitted `in_progress` move; others are left alone. A `complete` one moves
 * back only when a required consent was declined/expired or a guardian declined. Returns the
 * (possibly new) status; 404 when the registration does not exist.
 */
export async function recheckCompletion(
  tx: Tx,
  registrationId: number,
  actor: TransitionActor,
): Promise<RegistrationStatus> {
  await tx.execute(sql`SELECT 1 FROM registrations WHERE id = ${registrationId} FOR UPDATE`);
  const facts = await loadCompletionFacts(tx, registrationId);
  if (!facts) throw notFound(REGISTRATION_NOT_FOUND);
  if (!CHECKED_STATUSES.includes(facts.status)) return facts.status;
  // An `in_progress` registration is still being edited until it is submitted; `awaiting_guardian`
  // and `complete` imply a submission (also when imported with that status).
  if (facts.status === 'in_progress' && !facts.submitted) return facts.status;
  const target = completionStatus(facts);
  if (target === facts.status) return facts.status;
  if (facts.status === 'complete' && !lostCompletion(facts)) return facts.status;
  await transition(tx, { registrationId, to: target, actor });
  return target;
}
