/**
 * The single gate every request passes (architecture "one check order"): 401 → 403 kind/scope →
 * 404 target → 403 reach. Returns what services need: principal, target and field visibility.
 * Pinned by test/access/matrix.test.ts.
 */
import type { Tx } from '../db/client.js';
import { forbidden, notFound } from '../lib/errors.js';
import { type Action, type ActionRule, actions } from './actions.js';
import { authenticate, authenticateWithEvent } from './authenticate.js';
import {
  checkCredentialKind,
  NO_ROLES,
  type Roles,
  userMeets,
  type Visibility,
  visibilityFor,
} from './policy.js';
import { isUserPrincipal, type Principal } from './principal.js';
import {
  EVENT_NOT_FOUND,
  type EventRow,
  eventRef,
  loadRoles,
  resolveEvent,
  resolveEventInSeries,
  resolveSeries,
  type SeriesRow,
} from './resolve.js';

export interface AccessContext {
  action: Action;
  principal: Principal;
  event?: EventRow;
  series?: SeriesRow;
  roles: Roles;
  visibility: Visibility;
}

export const NO_ACCESS_MESSAGE = 'You do not have access to this event';

export async function authorize(
  db: Tx,
  action: Action,
  token: string | undefined,
  params: Record<string, string | undefined>,
  onAuthenticated?: (principal: Principal) => void,
): Promise<AccessContext> {
  const rule: ActionRule = actions[action];
  // An event path target is fetched with a mobile token's lookup, in one statement; the checks
  // below still run in the order 401 → 403 kind/scope → 404.
  const eventTarget = rule.target === 'event:id' || rule.target === 'event:slug';
  const ref = eventTarget ? eventRef(params.event_id ?? '', rule.target === 'event:slug') : null;
  const combined = ref ? await authenticateWithEvent(db, token, ref) : undefined;
  const principal = combined?.principal ?? (await authenticate(db, token));
  onAuthenticated?.(principal);
  checkCredentialKind(rule, principal);

  let event: EventRow | undefined;
  let series: SeriesRow | undefined;
  if (combined) {
    if (!combined.event) throw notFound(EVENT_NOT_FOUND);
    event = combined.event;
  } else if (eventTarget) {
    event = await resolveEvent(db, params.event_id ?? '', rule.target === 'event:slug');
  } else if (rule.target === 'series') {
    series = await resolveSeries(db, params.series_id ?? '', principal);
  } else if (rule.target === 'series:event') {
    series = await resolveSeries(db, params.series_id ?? '', principal);
    event = await resolveEventInSeries(db, params.event_id ?? '', series);
  }

  let roles = NO_ROLES;
  if (principal.kind === 'series_key') {
    const seriesId = event?.seriesId ?? series?.id;
    if (seriesId !== undefined && seriesId !== principal.seriesId) throw forbidden(keyReachMessage(event));
  } else if (principal.kind === 'event_key') {
    if (event && event.id !== principal.eventId) throw forbidden(keyReachMessage(event));
    if (series) throw forbidden('Event API keys cannot access series endpoints');
  } else if (isUserPrincipal(principal) && rule.users) {
    const seriesId = event?.seriesId ?? series?.id;
    if (seriesId !== undefined && !principal.user.globalAdmin) {
      roles = combined
        ? combined.roles
        : await loadRoles(db, principal.user.id, { eventId: event?.id, seriesId });
    }
    if (!userMeets(rule.users, principal.user, roles)) {
      throw forbidden(
        rule.users === 'global_admin'
          ? (rule.denyMessage ?? 'This action requires a global admin')
          : denyMessage(event, series),
      );
    }
  }
  return { action, principal, event, series, roles, visibility: visibilityFor(principal, roles) };
}

function keyReachMessage(event: EventRow | undefined): string {
  return event ? 'This API key cannot access this event' : 'This API key cannot access this series';
}

function denyMessage(event: EventRow | undefined, series: SeriesRow | undefined): string {
  if (event) return NO_ACCESS_MESSAGE;
  if (series) return 'You do not have access to this series';
  return 'Forbidden';
}
