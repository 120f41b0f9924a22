/**
 * The staff home (docs/staff-dashboard.md "Staff home"): the events the signed-in user can reach,
 * by the same rules and in the same order as `GET /api/v1/events` (accounts.service.ts
 * listAccessibleEvents; docs/decisions.md "Credentials and roles"), each with the user's role, dates, registrations by
 * status and check-in progress.
 */
import { type RegistrationStatus, registrationStatuses } from '../../db/schema/index.js';
import type { UserCtx } from '../../deps.js';
import { getMe, listAccessibleEvents } from '../accounts/accounts.service.js';
import { checkinProgress, statusCounts } from './dashboard.repo.js';

export type StatusCounts = Record<RegistrationStatus, number>;

/** Zero for every status, then the counted ones. */
export function countsByStatus(rows: readonly { status: string; n: number }[]): StatusCounts {
  const counts = Object.fromEntries(registrationStatuses.map((s) => [s, 0])) as StatusCounts;
  for (const r of rows) if (r.status in counts) counts[r.status as RegistrationStatus] += r.n;
  return counts;
}

type AccessibleEvent = Awaited<ReturnType<typeof listAccessibleEvents>>['events'][number];

export interface HomeEvent extends AccessibleEvent {
  counts: StatusCounts;
  /** Registrations in any status. */
  total: number;
  checkin: { complete: number; checked_in: number };
}

/** `{events}`: every reachable event with counts (an empty list for a participant-only user). */
export async function staffHome(ctx: UserCtx): Promise<{ events: HomeEvent[] }> {
  const { events } = await listAccessibleEvents(ctx);
  const ids = events.map((e) => e.id);
  const [counts, progress] = await Promise.all([statusCounts(ctx.db, ids), checkinProgress(ctx.db, ids)]);
  return {
    events: events.map((e) => {
      const c = countsByStatus(counts.filter((r) => r.event_id === e.id));
      const p = progress.find((r) => r.event_id === e.id);
      return {
        ...e,
        counts: c,
        total: Object.values(c).reduce((a, b) => a + b, 0),
        checkin: { complete: p?.complete ?? 0, checked_in: p?.checked_in ?? 0 },
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
