/**
 * What each role sees and may do, in words, for the Team pages (docs/staff-dashboard.md "Team").
 * Computed from the policy data, never written per role: a role's list is every action of
 * `actions` whose user requirement the role meets (`userMeets`, the gate's own test), in the
 * words of `ACTION_WORDS`; what it sees is `visibilityFor`; letting a refused entry in is
 * `mayOverrideVerdict`. A new action must be given words here (the type demands every key), so
 * the descriptions cannot fall behind the policy.
 */
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
 * What an action lets a person do, as a phrase after "May …"; null for actions every signed-in
 * person has, or that no staff role is given (the ban list and the whole email log are global
 * admins' only, the guardian portal is the guardian's link).
 */
export const ACTION_WORDS: Record<Action, string | null> = {
  'account.me': null,
  'account.events': null,
  'participants.list': 'list and search participants',
  'participants.search': null,
  'participants.read': 'open a participant’s record',
  'participants.edit': 'edit participants’ records (the parts they may see)',
  'participants.lookup': null,
  'participants.roster': null,
  'series.list': null,
  'series.read': 'see the series',
  'series.events.list': 'list the series’ events',
  'session.delete': null,
  'session.refresh': null,
  'push_tokens.write': null,
  'bans.create': null,
  'bans.read': null,
  'bans.manage': null,
  'scan_contexts.read': 'see the scan contexts (doors and hubs)',
  'scan_contexts.manage': 'set what each door refuses',
  'scans.read': 'see the check-in history',
  'scans.write': 'check people in and out at the door',
  'nfc_badges.write': 'pair NFC badges',
  'travel.read': 'see travel and arrivals',
  'travel.lookup': null,
  'notes.read': 'read staff notes',
  'notes.write': 'write staff notes',
  'events.create': null,
  'series_events.create': 'create events of the series, blank or copied from an earlier one',
  'series.events.read': 'see the event’s settings',
  'series.events.update': 'change the event’s settings',
  'events.setup_complete': 'finish the event’s setup',
  'event_setup.manage': 'edit consent documents, logo and banner',
  'chat_blasts.read': 'read chat messages sent to groups',
  'chat_blasts.write': 'send chat messages to groups',
  'email_log.read': null,
  'email_log.event': 'see which emails the event sent and whether they arrived',
  'email_suppressions.manage': null,
  'participants.invite': 'invite participants',
  'invitations.manage': 'resend and revoke invitations',
  'guardians.resend': 'resend a guardian’s link',
  'registrations.self': null,
  'registrations.own': null,
  'consents.sign': null,
  'registrations.manage': 'withdraw, reinstate or reject registrations',
  'guardian_portal.read': null,
  'guardian_portal.write': null,
  'exports.read': 'download exports and printouts (with the fields they may see)',
  'audit_log.event': 'read the event’s audit trail',
  'audit_log.read': null,
  'event_roles.manage': 'give and remove roles on the event',
  'series_roles.manage': 'give and remove series roles',
  'api_keys.manage': 'create and revoke API keys',
  'groups.manage': 'manage groups',
  'email_templates.manage': 'change the wording of the event’s emails',
  'announcements.manage': 'send announcements',
  'webhooks.manage': 'connect webhooks',
  'series_webhooks.manage': 'connect the series’ webhooks',
  'rooms.read': 'see rooms and who sleeps where',
  'rooming.manage': 'set rooming rules and assign rooms',
  'privacy.export': 'export a person’s data on request',
  'privacy.erase': 'erase a person’s data on request',
  'privacy.own_export': null,
  'retention.read': 'see how long data is kept',
  'retention.write': 'change how long data is kept',
  'events.overview': 'see the event’s overview',
};

/** Role names as people read them. */
export const ROLE_NAMES: Record<EventRole | SeriesRole, string> = {
  event_admin: 'Event admin',
  ops: 'Operations',
  safeguarding_lead: 'Safeguarding lead',
  limited: 'Limited',
  read_only: 'Read only',
  owner: 'Series owner',
  organizer: 'Series organizer',
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
  if (!participants) return 'Sees the event’s overview and counts, but no participant’s record.';
  const v = visibilityFor(ANY_USER, roles);
  if (v.sensitive) return 'Sees the whole record, medical, dietary and safeguarding details included.';
  if (v.pii) return 'Sees names and contact details, not medical, dietary or safeguarding details.';
  return 'Sees names, status and alerts; not phone numbers, dates of birth, addresses or health details.';
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
    const words = ACTION_WORDS[action];
    const rule: ActionRule = actions[action];
    if (words && rule.users !== null && userMeets(rule.users, USER, roles)) may.push(words);
  }
  if (mayOverrideVerdict(ANY_USER, roles)) may.push('let someone in whom the door refuses, with a reason');
  return { role, name: ROLE_NAMES[role], sees: sees(roles, userMeets('participants', USER, roles)), may };
}
