/**
 * Authorization-matrix rows for `POST /invitations/claim` (README "Registration flow"; docs/decisions.md "Registration side":
 * the invitation token from the email is what lets an invitee in; §3: sign-in never creates
 * accounts). Transcribed from that design, not from src/access: no bearer credential plays a part,
 * so every principal — none, garbage, revoked, keys, users, admins — gets the same answer: a live
 * token → 200, an unknown token → 422 `Invalid or expired invitation token`.
 * Run by test/registration/claim.test.ts; the route key counts for test/access/matrix.test.ts.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

export type ClaimTarget = 'live' | 'unknown';

export interface ClaimRow {
  principal: PrincipalName;
  target: ClaimTarget;
  expected: { status: number; error?: string };
}

export const claimRouteKeys = ['POST /api/v1/invitations/claim'];

const EXPECTED: Record<ClaimTarget, ClaimRow['expected']> = {
  live: { status: 200 },
  unknown: { status: 422, error: 'Invalid or expired invitation token' },
};

export const claimRows: ClaimRow[] = PRINCIPALS.flatMap((principal) =>
  (['live', 'unknown'] as const).map((target) => ({ principal, target, expected: EXPECTED[target] })),
);
