/**
 * Access decisions (docs/decisions.md "Credentials and roles"), pure functions over a principal and its roles on the target.
 * Pinned by test/access/matrix.test.ts. Check order (docs/decisions.md "Status codes and check order"): 401 → 403 kind/scope → 404 →
 * 403 reach → 422 → action; this file holds the two 403 steps and the field visibility.
 */
import { forbidden } from '../lib/errors.js';
import type { ActionRule, UserRequirement } from './actions.js';
import { isUserPrincipal, type Principal, type PrincipalUser } from './principal.js';

export type EventRole = 'event_admin' | 'ops' | 'safeguarding_lead' | 'limited' | 'read_only';
export type SeriesRole = 'owner' | 'organizer';

export interface Roles {
  event: ReadonlySet<EventRole>;
  series: ReadonlySet<SeriesRole>;
}

export const NO_ROLES: Roles = { event: new Set(), series: new Set() };

/** Which participant fields the caller may see (serializers apply it; docs/decisions.md "Credentials and roles"). */
export interface Visibility {
  /** phone, date_of_birth, address, guardian email/phone, travel origin_address (hidden from `limited`). */
  pii: boolean;
  /** medical, dietary, safeguarding and guardian-contact fields and sections. */
  sensitive: boolean;
}

export const SCOPE_MESSAGE = (scopes: string[]) => `This token is limited to: ${scopes.join(', ')}`;

/** Step "403 (credential kind or scope cannot use this endpoint at all)". */
export function checkCredentialKind(rule: ActionRule, principal: Principal): void {
  if (principal.kind === 'series_key' && !rule.keys.series) throw forbidden(keyMessage(rule));
  if (principal.kind === 'event_key' && !rule.keys.event) throw forbidden(keyMessage(rule));
  if (isUserPrincipal(principal)) {
    if (principal.kind === 'global' && principal.scopes.length > 0) {
      if (!rule.scope || !principal.scopes.includes(rule.scope))
        throw forbidden(SCOPE_MESSAGE(principal.scopes));
    }
    if (rule.users === null) throw forbidden(rule.denyMessage ?? 'This endpoint requires an API key');
    if (rule.mobileOnly && principal.kind !== 'mobile')
      throw forbidden('This endpoint requires a mobile token');
  }
}

function keyMessage(rule: ActionRule): string {
  if (rule.denyMessage) return rule.denyMessage;
  // Series keys may call it, so only an event key is refused here: say so (not "requires a user").
  if (rule.keys.series && !rule.keys.event) return 'Event API keys cannot access series endpoints';
  return rule.users ? 'API keys cannot access this endpoint; it requires a user credential' : 'Forbidden';
}

const PARTICIPANT_ROLES: ReadonlySet<EventRole> = new Set([
  'event_admin',
  'ops',
  'safeguarding_lead',
  'limited',
]);
const PII_ROLES: ReadonlySet<EventRole> = new Set(['event_admin', 'ops', 'safeguarding_lead']);

function hasAny(roles: ReadonlySet<EventRole>, wanted: ReadonlySet<EventRole>): boolean {
  for (const r of roles) if (wanted.has(r)) return true;
  return false;
}

/** Whether a user holding `roles` on the target meets `requirement` (docs/decisions.md "Credentials and roles"). */
export function userMeets(requirement: UserRequirement, user: PrincipalUser, roles: Roles): boolean {
  if (user.globalAdmin) return true;
  switch (requirement) {
    case 'authenticated':
      return true;
    case 'series_member':
      return roles.series.size > 0;
    case 'series_owner':
      return roles.series.has('owner');
    case 'event_access':
      return roles.series.size > 0 || roles.event.size > 0;
    case 'participants':
      return roles.series.size > 0 || hasAny(roles.event, PARTICIPANT_ROLES);
    case 'event_write':
      return roles.series.size > 0 || [...roles.event].some((r) => r !== 'read_only');
    case 'event_manage':
      return roles.series.size > 0 || roles.event.has('event_admin');
    case 'safeguarding':
      return roles.event.has('safeguarding_lead');
    case 'rooms_read':
      return roles.series.size > 0 || roles.event.has('event_admin') || roles.event.has('safeguarding_lead');
    case 'global_admin':
      return false;
  }
}

/** Field visibility for a caller on one event. Keys see neither PII nor sensitive data. */
export function visibilityFor(principal: Principal, roles: Roles): Visibility {
  if (!isUserPrincipal(principal)) return { pii: false, sensitive: false };
  if (principal.user.globalAdmin) return { pii: true, sensitive: true };
  return {
    pii: roles.series.size > 0 || hasAny(roles.event, PII_ROLES),
    sensitive: roles.event.has('safeguarding_lead'),
  };
}

const ROLE_ORDER = ['global_admin', 'event_admin', 'safeguarding_lead', 'ops', 'limited', 'read_only'];
const SERIES_ROLE_ORDER: readonly SeriesRole[] = ['owner', 'organizer'];

/**
 * The `role` of a GET /events entry (docs/decisions.md "Credentials and roles"): `global_admin`, else the widest event role,
 * else `series_member` when the event is reached only through a series role (the value the mobile
 * app knows), else null.
 */
export function widestRole(user: PrincipalUser, roles: Roles): string | null {
  const held = new Set<string>(roles.event);
  if (user.globalAdmin) held.add('global_admin');
  return ROLE_ORDER.find((r) => held.has(r)) ?? (roles.series.size > 0 ? 'series_member' : null);
}

/** The `series_role` of a GET /events entry: `owner`, else `organizer`, else null. */
export function widestSeriesRole(roles: Roles): SeriesRole | null {
  return SERIES_ROLE_ORDER.find((r) => roles.series.has(r)) ?? null;
}

/**
 * Whether the caller may let a refused entry in anyway (docs/checkin.md "Overrides"): global
 * admins, series roles, and the event's admins and safeguarding leads. Keys never.
 */
export function mayOverrideVerdict(principal: Principal, roles: Roles): boolean {
  if (!isUserPrincipal(principal)) return false;
  if (principal.user.globalAdmin) return true;
  return roles.series.size > 0 || roles.event.has('event_admin') || roles.event.has('safeguarding_lead');
}
