/**
 * What each role sees and may do, in words, for the Team pages (docs/staff-dashboard.md "Team").
 * Computed from the policy data, never written per role: a role's list is every action of
 * `actions` whose user requirement the role meets (`userMeets`, the gate's own test), in the
 * words of `actionWords`; what it sees is `visibilityFor`; letting a refused entry in is
 * `mayOverrideVerdict`. A new action must be listed here (the type demands every key), and a
 * described one needs its phrase in the staff catalog (`staff.roles.actions.<action>`,
 * locales/staff/en.json; test/i18n/staff-strings.test.ts), so the descriptions cannot fall behind
 * the policy.
 */
import { staffText } from '../lib/i18n/staff.js';
import { type Action, type ActionRule, actions, isAction } from './actions.js';
import {
  type EventRole,
  mayOverrideVerdict,
  type Roles,
  type SeriesRole,
  userMeets,
  visibilityFor,
} from './policy.js';
import type { Principal, PrincipalUser } from './principal.js';

/**
 * What an action lets a person do, as a phrase after "May …" (`staff.roles.actions.<action>`);
 * false for actions every signed-in person has, or that no staff role is given (the
 * ban list and the whole email log are global admins' only, the guardian portal is the guardian's
 * link).
 */
const DESCRIBED: Record<Action, boolean> = {
  'account.me': false,
  'account.events': false,
  'participants.list': true,
  'participants.search': false,
  'participants.read': true,
  'participants.edit': true,
  'participants.lookup': false,
  'participants.roster': false,
  'series.list': false,
  'series.read': true,
  'series.events.list': true,
  'session.delete': false,
  'session.refresh': false,
  'push_tokens.write': false,
  'bans.create': false,
  'bans.read': false,
  'bans.manage': false,
  'scan_contexts.read': true,
  'scan_contexts.manage': true,
  'scans.read': true,
  'scans.write': true,
  'nfc_badges.write': true,
  'travel.read': true,
  'travel.lookup': false,
  'notes.read': true,
  'notes.write': true,
  'events.create': false,
  'series_events.create': true,
  'series.events.read': true,
  'series.events.update': true,
  'events.setup_complete': true,
  'event_setup.manage': true,
  'chat_blasts.read': true,
  'chat_blasts.write': true,
  'email_log.read': false,
  'email_log.event': true,
  'email_suppressions.manage': false,
  'participants.invite': true,
  'invitations.manage': true,
  'guardians.resend': true,
  'registrations.self': false,
  'registrations.own': false,
  'consents.sign': false,
  'registrations.manage': true,
  'guardian_portal.read': false,
  'guardian_portal.write': false,
  'exports.read': true,
  'audit_log.event': true,
  'audit_log.read': false,
  'event_roles.manage': true,
  'series_roles.manage': true,
  'api_keys.manage': true,
  'groups.manage': true,
  'email_templates.manage': true,
  'announcements.manage': true,
  'webhooks.manage': true,
  'series_webhooks.manage': true,
  'rooms.read': true,
  'rooming.manage': true,
  'privacy.export': true,
  'privacy.erase': true,
  'privacy.own_export': false,
  'retention.read': true,
  'retention.write': true,
  'events.overview': true,
};

/** An action's phrase after "May …", or null for an action not described. */
export function actionWords(action: Action): string | null {
  return DESCRIBED[action] ? staffText(`roles.actions.${action}`) : null;
}

/** Role names as people read them. */
export const ROLE_NAMES: Record<EventRole | SeriesRole, string> = {
  event_admin: staffText('roles.names.event_admin'),
  ops: staffText('roles.names.ops'),
  safeguarding_lead: staffText('roles.names.safeguarding_lead'),
  limited: staffText('roles.names.limited'),
  read_only: staffText('roles.names.read_only'),
  owner: staffText('roles.names.owner'),
  organizer: staffText('roles.names.organizer'),
};

export interface RoleDescription {
  role: EventRole | SeriesRole;
  name: string;
  /** What of a participant's record the role receives, one sentence. */
  sees: string;
  /** "May …" phrases, in the order of the policy. */
  may: string[];
}

/** A user who is not a global admin: what a role gives comes from the role alone. */
const USER: PrincipalUser = { id: 0, uuid: '', email: '', name: '', globalAdmin: false };
const ANY_USER: Principal = {
  kind: 'mobile',
  user: USER,
  expiresAt: new Date(0),
  credentialId: '',
  credentialName: null,
};

function sees(roles: Roles, participants: boolean): string {
  if (!participants) return staffText('roles.sees.no_records');
  const v = visibilityFor(ANY_USER, roles);
  if (v.sensitive) return staffText('roles.sees.sensitive');
  if (v.pii) return staffText('roles.sees.pii');
  return staffText('roles.sees.limited');
}

/** What an event role sees and may do on its event. */
export function describeEventRole(role: EventRole): RoleDescription {
  return describe(role, { event: new Set([role]), series: new Set() });
}

/** What a series role sees and may do, on the series and on each of its events. */
export function describeSeriesRole(role: SeriesRole): RoleDescription {
  return describe(role, { event: new Set(), series: new Set([role]) });
}

function describe(role: EventRole | SeriesRole, roles: Roles): RoleDescription {
  const may: string[] = [];
  for (const action of Object.keys(actions).filter(isAction)) {
    const words = actionWords(action);
    const rule: ActionRule = actions[action];
    if (words && rule.users !== null && userMeets(rule.users, USER, roles)) may.push(words);
  }
  if (mayOverrideVerdict(ANY_USER, roles)) may.push(staffText('roles.override_verdict'));
  return { role, name: ROLE_NAMES[role], sees: sees(roles, userMeets('participants', USER, roles)), may };
}
