/**
 * The registration state machine as data (docs/decisions.md "Registration lifecycle"): which status
 * may move to which, and who may move it. Pure; `lifecycle.ts` applies it to the database.
 *
 * Actor roles:
 * - `participant`: the registration's owner (start from an invitation, submit, withdraw);
 * - `guardian`: a guardian completing the portal (re-runs the completion check);
 * - `consent`: a consent being signed/declined (typed signature or e-signature webhook);
 * - `staff`: event admins and above (withdraw, reinstate, reject);
 * - `staff_edit`: a staff member's edit of the record (docs/decisions.md "Staff status changes and edits") re-running the
 *   completion check, like the participant's own edit does.
 *
 * Moves between `in_progress`, `awaiting_guardian` and `complete` happen only through the
 * completion check (`recheckCompletion`), run by the participant's submit or edit, a staff edit, a
 * guardian's completion or a consent's signature. A `complete` registration moves back only when the check no longer
 * holds (e.g. a consent declined through the e-signature provider).
 */
import type { RegistrationStatus } from '../../../db/schema/index.js';
import { unprocessable } from '../../../lib/errors.js';

export const ACTOR_ROLES = ['participant', 'guardian', 'consent', 'staff', 'staff_edit'] as const;
export type ActorRole = (typeof ACTOR_ROLES)[number];

type Rules = Record<RegistrationStatus, Partial<Record<RegistrationStatus, readonly ActorRole[]>>>;

const CHECK: readonly ActorRole[] = ['participant', 'guardian', 'consent', 'staff_edit'];
const WITHDRAW: readonly ActorRole[] = ['participant', 'staff'];
const STAFF: readonly ActorRole[] = ['staff'];

/** from → to → roles allowed to make that move. Anything absent is refused. */
export const TRANSITIONS: Rules = {
  invited: { in_progress: ['participant'], withdrawn: WITHDRAW, rejected: STAFF },
  in_progress: { awaiting_guardian: CHECK, complete: CHECK, withdrawn: WITHDRAW, rejected: STAFF },
  awaiting_guardian: { in_progress: CHECK, complete: CHECK, withdrawn: WITHDRAW, rejected: STAFF },
  complete: { in_progress: CHECK, awaiting_guardian: CHECK, withdrawn: WITHDRAW, rejected: STAFF },
  withdrawn: { in_progress: STAFF, rejected: STAFF },
  rejected: { in_progress: STAFF },
};

/** The roles allowed to move `from` → `to` (empty when the move does not exist). */
export function rolesFor(from: RegistrationStatus, to: RegistrationStatus): readonly ActorRole[] {
  return TRANSITIONS[from][to] ?? [];
}

/**
 * Throws 422 unless `role` may move a registration from `from` to `to`. Messages:
 * `Registration is already <to>`, `A registration cannot move from <from> to <to>`,
 * `Only <roles> can move a registration from <from> to <to>`.
 */
export function assertTransition(from: RegistrationStatus, to: RegistrationStatus, role: ActorRole): void {
  if (from === to) throw unprocessable(`Registration is already ${to}`);
  const roles = rolesFor(from, to);
  if (roles.length === 0) throw unprocessable(`A registration cannot move from ${from} to ${to}`);
  if (!roles.includes(role)) {
    throw unprocessable(`Only ${roles.join(' or ')} can move a registration from ${from} to ${to}`);
  }
}

/** Statuses the completion check may move between (anything else it leaves alone). */
export const CHECKED_STATUSES: readonly RegistrationStatus[] = [
  'in_progress',
  'awaiting_guardian',
  'complete',
];

/** A timestamp a status sets when a registration enters it (column of `registrations`). */
export interface StatusStamp {
  column: 'submittedAt' | 'completedAt' | 'withdrawnAt';
  /** Keep an earlier value (the first submission); otherwise the latest entry wins. */
  keepFirst: boolean;
}

/**
 * The one timestamp rule (docs/registration.md "Timestamps"), for transitions and import alike:
 * entering `awaiting_guardian` or `complete` implies a submission (`submitted_at`, the first one
 * kept); `complete` sets `completed_at` and `withdrawn` sets `withdrawn_at` to the latest entry.
 */
export const STATUS_STAMPS: Partial<Record<RegistrationStatus, readonly StatusStamp[]>> = {
  awaiting_guardian: [{ column: 'submittedAt', keepFirst: true }],
  complete: [
    { column: 'submittedAt', keepFirst: true },
    { column: 'completedAt', keepFirst: false },
  ],
  withdrawn: [{ column: 'withdrawnAt', keepFirst: false }],
};
