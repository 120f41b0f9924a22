/**
 * The single gate every request passes (architecture "one check order"): 401 → 403 kind/scope →
 * 404 target → 403 reach. Returns what services need: principal, target and field visibility.
 * Pinned by test/access/matrix.test.ts.
 */
import type { Tx } from '../db/client.js';
import { ApiError, forbidden, notFound } from '../lib/errors.js';
import { type Action, type ActionRule, actions, type UserRequirement } from './actions.js';
import { authenticate, authenticateWithEvent } from './authenticate.js';
import { type OwnRegistration, resolveOwnConsent, resolveOwnRegistration } from './own.js';
import {
  checkCredentialKind,
  NO_ROLES,
  type Roles,
  userMeets,
  type Visibility,
  visibilityFor,
} from './policy.js';
import {
  type GuardianLinkPrincipal,
  isUserPrincipal,
  type KeyPrincipal,
  type MobilePrincipal,
  type Principal,
  type UserPrincipal,
} from './principal.js';
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

/** What every authorised request carries: the action, who called, their roles and field visibility. */
export interface AccessContext {
  action: Action;
  principal: Principal;
  event?: EventRow;
  series?: SeriesRow;
  registration?: OwnRegistration;
  roles: Roles;
  visibility: Visibility;
  /**
   * The sync high-water mark (ISO 8601), when the route asked for it and the credential's lookup
   * read it in the same statement (mobile tokens on an event path); else the handler reads it.
   */
  watermark?: string;
}

/** An action on an event (`{event_id}`): the event row is resolved. */
export interface EventAccess extends AccessContext {
  event: EventRow;
}
/** An action on a series (`{series_id}`): the series row is resolved. */
export interface SeriesAccess extends AccessContext {
  series: SeriesRow;
}
/** An action on an event within a series (`/series/{s}/events/{e}`): both rows are resolved. */
export interface SeriesEventAccess extends AccessContext {
  series: SeriesRow;
  event: EventRow;
}
/** An action only a user credential may call (mobile token or global API token). */
export interface UserAccess extends AccessContext {
  principal: UserPrincipal;
}
/** An action only a mobile token may call (docs/decisions.md "Credentials and roles"). */
export interface MobileAccess extends UserAccess {
  principal: MobilePrincipal;
}
/** A guardian-portal action: the guardian the link names (`guardian:link`). */
export interface GuardianLinkAccess extends AccessContext {
  principal: GuardianLinkPrincipal;
}
/** An action on one of the caller's own registrations (`registration:own`, `consent:own`). */
export interface RegistrationAccess extends UserAccess {
  registration: OwnRegistration;
}

type RuleOf<A extends Action> = (typeof actions)[A];
type TargetAccess<T> = T extends 'event:id' | 'event:slug'
  ? { event: EventRow }
  : T extends 'series'
    ? { series: SeriesRow }
    : T extends 'series:event'
      ? { series: SeriesRow; event: EventRow }
      : T extends 'registration:own' | 'consent:own'
        ? { registration: OwnRegistration }
        : unknown;
type PrincipalAccess<R> = R extends { target: 'guardian:link' }
  ? { principal: GuardianLinkPrincipal }
  : R extends { mobileOnly: true }
    ? { principal: MobilePrincipal }
    : R extends { keys: { series: false; event: false }; users: UserRequirement }
      ? { principal: UserPrincipal }
      : R extends { users: null }
        ? { principal: KeyPrincipal }
        : unknown;

/**
 * The context `authorize(action)` hands out, typed by the action's rule: its target (event, series,
 * both) is resolved and present; an action no API key may call carries a user principal (a mobile
 * one when only mobile tokens may call), and one only keys may call carries a key principal.
 */
export type AccessFor<A extends Action> = AccessContext &
  TargetAccess<RuleOf<A>['target']> &
  PrincipalAccess<RuleOf<A>>;

export const NO_ACCESS_MESSAGE = 'You do not have access to this event';

/**
 * The 403 of a user who holds a role on the event or its series, just not one the action needs:
 * the API answers the same `NO_ACCESS_MESSAGE` body, while pages say "You may not open this page"
 * (they do have access to the event; docs/staff-dashboard.md "Plain words").
 */
export class RoleRefusal extends ApiError {}

export async function authorize<A extends Action>(
  db: Tx,
  action: A,
  token: string | undefined,
  params: Record<string, string | undefined>,
  onAuthenticated?: (principal: Principal) => void,
  opts: { watermark?: boolean } = {},
): Promise<AccessFor<A>> {
  const rule: ActionRule = actions[action];
  // An event path target is fetched with a mobile token's lookup, in one statement; the checks
  // below still run in the order 401 → 403 kind/scope → 404.
  const eventTarget = rule.target === 'event:id' || rule.target === 'event:slug';
  const ref = eventTarget ? eventRef(params.event_id ?? '', rule.target === 'event:slug') : null;
  const combined = ref
    ? await authenticateWithEvent(db, token, ref, new Date(), opts.watermark === true)
    : undefined;
  const principal = combined?.principal ?? (await authenticate(db, token));
  onAuthenticated?.(principal);
  checkCredentialKind(rule, principal);

  let event: EventRow | undefined;
  let series: SeriesRow | undefined;
  let registration: OwnRegistration | undefined;
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
  } else if (rule.target === 'registration:own' || rule.target === 'consent:own') {
    // Only user credentials get here (the rule admits no keys); ownership is the reach check.
    if (!isUserPrincipal(principal)) throw forbidden('Forbidden');
    // Pages name the registration `{pe}`, the API `{participant_event_id}`.
    registration =
      rule.target === 'consent:own'
        ? await resolveOwnConsent(db, params.id ?? '', principal.user.id)
        : await resolveOwnRegistration(db, params.participant_event_id ?? params.pe ?? '', principal.user.id);
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
      if (event && rule.users !== 'global_admin' && roles.event.size + roles.series.size > 0)
        throw new RoleRefusal(403, NO_ACCESS_MESSAGE);
      throw forbidden(
        rule.users === 'global_admin'
          ? (rule.denyMessage ?? 'This action requires a global admin')
          : denyMessage(event, series),
      );
    }
  }
  // The rule's target was resolved above (or 404 thrown) and its credential kinds checked, so the
  // context has what AccessFor<A> promises.
  const access: AccessContext = {
    action,
    principal,
    event,
    series,
    ...(registration ? { registration } : {}),
    roles,
    visibility: visibilityFor(principal, roles),
    ...(combined?.watermark ? { watermark: combined.watermark } : {}),
  };
  return access as AccessFor<A>;
}

function keyReachMessage(event: EventRow | undefined): string {
  return event ? 'This API key cannot access this event' : 'This API key cannot access this series';
}

function denyMessage(event: EventRow | undefined, series: SeriesRow | undefined): string {
  if (event) return NO_ACCESS_MESSAGE;
  if (series) return 'You do not have access to this series';
  return 'Forbidden';
}
