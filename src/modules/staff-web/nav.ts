/**
 * The staff layout's event navigation: the event's pages, each shown only to callers whose roles
 * meet the page's action (the same `userMeets` the gate applies, so a link never leads to a 403).
 * Areas add their page here: `{ label, path (after /staff/events/{id}), action }`.
 */
import { type Action, actions } from '../../access/actions.js';
import type { AccessContext, EventAccess } from '../../access/authorize.js';
import { userMeets } from '../../access/policy.js';
import { isUserPrincipal } from '../../access/principal.js';
import { staffText } from '../../lib/i18n/staff.js';

export interface NavLink {
  label: string;
  href: string;
  current: boolean;
}

/** An event's page (`path` after /staff/events/{id}), or with `series` a page of the event's series. */
const EVENT_PAGES: { label: string; path: string; action: Action; series?: true }[] = [
  { label: staffText('nav.overview'), path: '', action: 'events.overview' },
  { label: staffText('nav.participants'), path: '/participants', action: 'participants.list' },
  { label: staffText('nav.check_in_desk'), path: '/checkin', action: 'scans.write' },
  { label: staffText('nav.scan_contexts'), path: '/scan-contexts', action: 'scan_contexts.manage' },
  { label: staffText('nav.arrivals'), path: '/arrivals', action: 'travel.read' },
  { label: staffText('nav.run_sheet'), path: '/run-sheet', action: 'participants.list' },
  { label: staffText('nav.invitations'), path: '/invitations', action: 'participants.invite' },
  { label: staffText('nav.announcements'), path: '/announcements', action: 'announcements.manage' },
  { label: staffText('nav.emails'), path: '/emails', action: 'email_log.event' },
  { label: staffText('nav.exports'), path: '/exports', action: 'exports.read' },
  { label: staffText('nav.groups'), path: '/groups', action: 'groups.manage' },
  { label: staffText('nav.rooms'), path: '/rooms', action: 'rooms.read' },
  { label: staffText('nav.rooming_board'), path: '/rooming', action: 'rooms.read' },
  { label: staffText('nav.team'), path: '/team', action: 'event_roles.manage' },
  { label: staffText('nav.api_keys'), path: '/api-keys', action: 'api_keys.manage', series: true },
  { label: staffText('nav.webhooks'), path: '/webhooks', action: 'webhooks.manage' },
  { label: staffText('nav.audit_trail'), path: '/audit', action: 'audit_log.event' },
  { label: staffText('nav.setup'), path: '/setup', action: 'event_setup.manage' },
];

/** May the caller (a user) use `action` on the context's target? Keys never reach pages. */
export function may(access: AccessContext, action: Action): boolean {
  const rule = actions[action];
  if (!isUserPrincipal(access.principal) || rule.users === null) return false;
  return userMeets(rule.users, access.principal.user, access.roles);
}

/** The event's navigation for this caller; `current` marks the page at `path`. */
export function eventNav(access: EventAccess, eventId: number, path: string): NavLink[] {
  return EVENT_PAGES.filter((p) => may(access, p.action)).map((p) => ({
    label: p.label,
    href: p.series ? `/staff/series/${access.event.seriesId}${p.path}` : `/staff/events/${eventId}${p.path}`,
    current: !p.series && p.path === path,
  }));
}
