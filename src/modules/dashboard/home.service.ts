/**
 * The staff home (docs/staff-dashboard.md "Staff home"): the events the signed-in user can reach,
 * by the same rules and in the same order as `GET /api/v1/events` (accounts.service.ts
 * listAccessibleEvents; docs/decisions.md "Credentials and roles"), each with the user's role, dates, registrations by
 * status, check-in progress and whether it is still a draft.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { events, type RegistrationStatus, registrationStatuses } from '../../db/schema/index.js';
import type { UserCtx } from '../../deps.js';
import { isOneOf } from '../../lib/narrow.js';
import { getMe, listAccessibleEvents } from '../accounts/accounts.service.js';
import { checkinProgress, statusCounts } from './dashboard.repo.js';

export type StatusCounts = Record<RegistrationStatus, number>;

/** Zero for every status, then the counted ones. */
export function countsByStatus(rows: readonly { status: string; n: number }[]): StatusCounts {
  const counts: StatusCounts = {
    invited: 0,
    in_progress: 0,
    awaiting_guardian: 0,
    complete: 0,
    withdrawn: 0,
    rejected: 0,
  };
  for (const r of rows) if (isOneOf(registrationStatuses, r.status)) counts[r.status] += r.n;
  return counts;
}

type AccessibleEvent = Awaited<ReturnType<typeof listAccessibleEvents>>['events'][number];

export interface HomeEvent extends AccessibleEvent {
  counts: StatusCounts;
  /** Registrations in any status. */
  total: number;
  checkin: { complete: number; checked_in: number };
  /** Not set up yet (`setup_complete` false): shown as "Draft". */
  draft: boolean;
}

/** The ids among `ids` of events whose setup is not complete. */
async function draftIds(ctx: UserCtx, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db
    .select({ id: events.id })
    .from(events)
    .where(and(inArray(events.id, ids), eq(events.setupComplete, false)));
  return new Set(rows.map((r) => r.id));
}

/** `{events}`: every reachable event with counts (an empty list for a participant-only user). */
export async function staffHome(ctx: UserCtx): Promise<{ events: HomeEvent[] }> {
  const { events } = await listAccessibleEvents(ctx);
  const ids = events.map((e) => e.id);
  const [counts, progress, drafts] = await Promise.all([
    statusCounts(ctx.db, ids),
    checkinProgress(ctx.db, ids),
    draftIds(ctx, ids),
  ]);
  return {
    events: events.map((e) => {
      const c = countsByStatus(counts.filter((r) => r.event_id === e.id));
      const p = progress.find((r) => r.event_id === e.id);
      return {
        ...e,
        counts: c,
        total: Object.values(c).reduce((a, b) => a + b, 0),
        checkin: { complete: p?.complete ?? 0, checked_in: p?.checked_in ?? 0 },
        draft: drafts.has(e.id),
      };
    }),
  };
}

/**
 * Whether the user is staff (`GET /me` `is_organizer`: a global admin, or any event or series
 * role): the home page then links to /staff.
 */
export async function isStaff(ctx: UserCtx): Promise<boolean> {
  return (await getMe(ctx)).is_organizer;
}
