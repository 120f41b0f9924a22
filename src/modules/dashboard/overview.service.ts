/**
 * The event overview (docs/staff-dashboard.md "Event overview"), for anyone with event access:
 * the status funnel (invited → complete, then withdrawn and rejected), minors awaiting a guardian,
 * consents outstanding, check-in progress per scan context, today's arrivals and pickups (the
 * travel calendar's entries dated today in the event's time zone, when travel is on) and the
 * latest audit entries about the event for callers who may read the event's audit trail
 * (`audit_log.event`: event admins, series roles, global admins); `activity` is null for others.
 */
import { actions } from '../../access/actions.js';
import { userMeets } from '../../access/policy.js';
import type { UserEventCtx } from '../../deps.js';
import type { AuditEntryJson } from '../audit/audit-log.schemas.js';
import { auditPage } from '../audit/audit-log.service.js';
import { travelCalendar } from '../travel/travel.service.js';
import {
  checkinProgress,
  consentsOutstanding,
  contextProgress,
  guardiansPending,
  statusCounts,
} from './dashboard.repo.js';
import { countsByStatus, type StatusCounts } from './home.service.js';

export const ACTIVITY_LIMIT = 10;

export interface TravelToday {
  date: string;
  arrivals: number;
  departures: number;
  awaiting_pickup: number;
  collected: number;
}

export interface EventOverview {
  counts: StatusCounts;
  total: number;
  awaiting_guardian: { registrations: number; guardians_pending: number };
  consents_outstanding: { consent_type: string; count: number }[];
  checkin: { complete: number; checked_in: number };
  contexts: {
    id: number;
    name: string;
    checks_in: boolean;
    is_travel_pickup: boolean;
    tracks_presence: boolean;
    scanned: number;
    /** Registrations inside now (presence contexts; null elsewhere). */
    inside: number | null;
  }[];
  travel_today: TravelToday | null;
  activity: AuditEntryJson[] | null;
}

/** `YYYY-MM-DD` of `now` in `timeZone` (an unknown zone falls back to UTC). */
export function dateIn(timeZone: string, now: Date): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

async function travelToday(ctx: UserEventCtx, now: Date): Promise<TravelToday | null> {
  const event = ctx.access.event;
  if (!event.modules.travel_enabled) return null;
  const date = dateIn(event.timezone, now);
  const today = (await travelCalendar(ctx)).entries.filter((e) => e.agendaDate === date);
  const inbound = today.filter((e) => e.direction === 'inbound');
  return {
    date,
    arrivals: inbound.length,
    departures: today.length - inbound.length,
    awaiting_pickup: inbound.filter((e) => e.pickupState === 'awaiting_pickup').length,
    collected: inbound.filter((e) => e.pickupState === 'collected').length,
  };
}

/** The overview of the authorised event; `now` decides "today" (default: the current time). */
export async function eventOverview(ctx: UserEventCtx, now = new Date()): Promise<EventOverview> {
  const id = ctx.access.event.id;
  const canAudit = userMeets(actions['audit_log.event'].users, ctx.access.principal.user, ctx.access.roles);
  const [status, progress, contexts, consents, guardians, travel, audit] = await Promise.all([
    statusCounts(ctx.db, [id]),
    checkinProgress(ctx.db, [id]),
    contextProgress(ctx.db, id),
    consentsOutstanding(ctx.db, id),
    guardiansPending(ctx.db, id),
    travelToday(ctx, now),
    canAudit ? auditPage(ctx, { limit: ACTIVITY_LIMIT }, id) : Promise.resolve(null),
  ]);
  const counts = countsByStatus(status);
  return {
    counts,
    total: Object.values(counts).reduce((a, b) => a + b, 0),
    awaiting_guardian: { registrations: counts.awaiting_guardian, guardians_pending: guardians },
    consents_outstanding: consents,
    checkin: { complete: progress[0]?.complete ?? 0, checked_in: progress[0]?.checked_in ?? 0 },
    contexts,
    travel_today: travel,
    activity: audit?.entries ?? null,
  };
}
