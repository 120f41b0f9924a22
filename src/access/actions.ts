/**
 * The spec's credential-and-role matrix as data (spec "Authentication", docs/decisions.md "Credentials and roles").
 * Every route names one of these actions in `config.action`; the app refuses to start otherwise.
 * Pinned by test/access/matrix.test.ts, which is transcribed from the spec, not from this file.
 *
 * - `keys`: which API-key kinds may call at all (others get 403 before any lookup).
 * - `users`: what a user-bearing credential needs on the target; `null` = users get 403.
 * - `scope`: the global-token scope that also unlocks this action (only `bans:write` exists).
 * - `target`: what the path names: nothing, an event (`id` = numeric id or UUID; `slug` also slugs),
 *   a series (UUID, slug or `current`), or an event within a series (`series:event`: the series as
 *   above, then `{event_id}` = numeric id, UUID or slug of an event of that series), or one of the
 *   caller's own registrations (`registration:own`: `{participant_event_id}`; `consent:own`: the
 *   registration of the consent `{id}`), decided by ownership (access/own.ts), not by roles, or
 *   the guardian named by the portal link `{token}` (`guardian:link`: the link is the credential,
 *   read by the `guardian_link` credential source, access/guardian-link.ts; no other credential
 *   reaches these actions, and a bearer header plays no part).
 */
export type UserRequirement =
  | 'authenticated' // any signed-in user
  | 'series_member' // global admin or a series role on the target series
  | 'series_owner' // global admin or the `owner` series role on the target series
  | 'event_access' // global admin, any event role, or a series role on the event's series
  | 'participants' // event access except read_only-only
  | 'event_write' // global admin, series role, or any event role other than read_only (writes at the door)
  | 'event_manage' // global admin, series role, or event_admin
  | 'safeguarding' // global admin or the event's safeguarding_lead
  | 'rooms_read' // event_manage or the event's safeguarding_lead
  | 'global_admin';

export interface ActionRule {
  keys: { series: boolean; event: boolean };
  users: UserRequirement | null;
  scope?: 'bans:write';
  target:
    | 'none'
    | 'event:id'
    | 'event:slug'
    | 'series'
    | 'series:event'
    | 'registration:own'
    | 'consent:own'
    | 'guardian:link';
  /** Only a mobile token may call (docs/decisions.md "Credentials and roles": other valid credentials get 403). */
  mobileOnly?: boolean;
  /** Message for credential kinds that may never use the action (403). */
  denyMessage?: string;
}

const KEYS_BOTH = { series: true, event: true } as const;
const NO_KEYS = { series: false, event: false } as const;
const SERIES_KEY = { series: true, event: false } as const;

export const actions = {
  'account.me': { keys: NO_KEYS, users: 'authenticated', target: 'none' },
  'account.events': { keys: NO_KEYS, users: 'authenticated', target: 'none' },
  'participants.list': { keys: NO_KEYS, users: 'participants', target: 'event:slug' },
  'participants.search': { keys: NO_KEYS, users: 'participants', target: 'event:slug' },
  'participants.read': { keys: NO_KEYS, users: 'participants', target: 'event:slug' },
  // Staff edits of a record (docs/decisions.md "Staff status changes and edits"): participants access; which sections each role may
  // write is data too (access/record-write.ts), checked by the service on the body's keys.
  'participants.edit': { keys: NO_KEYS, users: 'participants', target: 'event:slug' },
  'participants.lookup': { keys: KEYS_BOTH, users: 'participants', target: 'event:slug' },
  'participants.roster': { keys: KEYS_BOTH, users: 'participants', target: 'event:slug' },
  'series.list': { keys: SERIES_KEY, users: 'authenticated', target: 'none' },
  'series.read': { keys: SERIES_KEY, users: 'series_member', target: 'series' },
  'series.events.list': { keys: SERIES_KEY, users: 'series_member', target: 'series' },
  // Sessions, push tokens, bans.
  'session.delete': { keys: NO_KEYS, users: 'authenticated', target: 'none', mobileOnly: true },
  'session.refresh': { keys: NO_KEYS, users: 'authenticated', target: 'none', mobileOnly: true },
  'push_tokens.write': { keys: NO_KEYS, users: 'authenticated', target: 'none' },
  'bans.create': {
    keys: NO_KEYS,
    users: 'global_admin',
    scope: 'bans:write',
    target: 'none',
    denyMessage: 'Only global admins can manage the ban list',
  },
  'bans.read': {
    keys: NO_KEYS,
    users: 'global_admin',
    target: 'none',
    denyMessage: 'Only global admins can manage the ban list',
  },
  'bans.manage': {
    keys: NO_KEYS,
    users: 'global_admin',
    target: 'none',
    denyMessage: 'Only global admins can manage the ban list',
  },
  // Check-in (docs/decisions.md "Check-in"): users only; keys get 403.
  'scan_contexts.read': { keys: NO_KEYS, users: 'event_access', target: 'event:id' },
  'scan_contexts.manage': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  'scans.read': { keys: NO_KEYS, users: 'event_access', target: 'event:id' },
  'scans.write': { keys: NO_KEYS, users: 'event_write', target: 'event:id' },
  'nfc_badges.write': { keys: NO_KEYS, users: 'event_write', target: 'event:id' },
  // Travel calendar (docs/decisions.md "Check-in"): both key kinds within reach, users with event access.
  'travel.read': { keys: KEYS_BOTH, users: 'event_access', target: 'event:id' },
  // Airport and flight lookups (docs/travel.md): any signed-in person, through the web session
  // cookie only (the routes read no bearer header), for the travel forms.
  'travel.lookup': { keys: NO_KEYS, users: 'authenticated', target: 'none' },
  // Staff notes (docs/decisions.md "Participants API"): users with participants access only; keys 403.
  'notes.read': { keys: NO_KEYS, users: 'participants', target: 'event:slug' },
  'notes.write': { keys: NO_KEYS, users: 'participants', target: 'event:slug' },
  // Series event API (spec "Series and events"; docs/decisions.md "Series, events and bans"). Creation: series keys only.
  'events.create': {
    keys: SERIES_KEY,
    users: null,
    target: 'series',
    denyMessage: 'Creating an event requires a series API key',
  },
  'series.events.read': { keys: SERIES_KEY, users: 'event_access', target: 'series:event' },
  'series.events.update': { keys: SERIES_KEY, users: 'event_manage', target: 'series:event' },
  // docs/decisions.md "Credentials and roles": keys reach `setup/complete` for their event(s); users need event management.
  'events.setup_complete': { keys: KEYS_BOTH, users: 'event_manage', target: 'event:id' },
  // Event setup content (consent documents, logo and banner): like the event update route — the
  // series key of the event's series and event managers.
  'event_setup.manage': { keys: SERIES_KEY, users: 'event_manage', target: 'event:id' },
  // Chat blasts (docs/decisions.md "Messaging"): keys 403.
  'chat_blasts.read': { keys: NO_KEYS, users: 'event_write', target: 'event:id' },
  'chat_blasts.write': { keys: NO_KEYS, users: 'event_write', target: 'event:id' },
  // Email log (docs/decisions.md "Messaging"): global admins only.
  'email_log.read': {
    keys: NO_KEYS,
    users: 'global_admin',
    target: 'none',
    denyMessage: 'Only global admins can read the email log',
  },
  // What went out for one event (docs/email.md "Emails sent"): the event's managers, the people who
  // already see each announcement's recipients and manage the emails' wording; keys 403.
  'email_log.event': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  // The suppression list (read and lift an entry): global admins only, like the email log.
  'email_suppressions.manage': {
    keys: NO_KEYS,
    users: 'global_admin',
    target: 'none',
    denyMessage: 'Only global admins can manage email suppressions',
  },
  // Registration (docs/decisions.md "Participants API"). Invite: event key of the event, series key of
  // its series, users with participants access. Participant side: the signed-in user (mobile
  // token) on their own registrations. Staff withdraw/reinstate/reject: event admins and above.
  'participants.invite': { keys: KEYS_BOTH, users: 'participants', target: 'event:slug' },
  // Pending invitations (list, resend, revoke): the same callers as the invite. Guardian resend:
  // users with participants access only (a registration's guardians are not for integrations).
  'invitations.manage': { keys: KEYS_BOTH, users: 'participants', target: 'event:slug' },
  'guardians.resend': { keys: NO_KEYS, users: 'participants', target: 'event:slug' },
  'registrations.self': { keys: NO_KEYS, users: 'authenticated', target: 'none', mobileOnly: true },
  'registrations.own': {
    keys: NO_KEYS,
    users: 'authenticated',
    target: 'registration:own',
    mobileOnly: true,
  },
  'consents.sign': { keys: NO_KEYS, users: 'authenticated', target: 'consent:own', mobileOnly: true },
  'registrations.manage': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  // Guardian portal (docs/decisions.md "Guardian portal"): the guardian the link names, only.
  'guardian_portal.read': { keys: NO_KEYS, users: null, target: 'guardian:link' },
  'guardian_portal.write': { keys: NO_KEYS, users: null, target: 'guardian:link' },
  // Organiser operations (the staff dashboard's API). Users only: keys 403 before any lookup.
  // Exports: participants access; a preset wholly made of fields the caller may not see is 403.
  'exports.read': { keys: NO_KEYS, users: 'participants', target: 'event:id' },
  // Audit trail: event admins, series roles and global admins per event; everything: global admins.
  'audit_log.event': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  'audit_log.read': {
    keys: NO_KEYS,
    users: 'global_admin',
    target: 'none',
    denyMessage: 'Only global admins can read the whole audit log',
  },
  // Team: event admins (and series roles) manage event roles; series owners manage series roles.
  'event_roles.manage': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  'series_roles.manage': { keys: NO_KEYS, users: 'series_owner', target: 'series' },
  // API keys of a series and its events: series owners and global admins.
  'api_keys.manage': { keys: NO_KEYS, users: 'series_owner', target: 'series' },
  // Groups of an event and their members: event admins, series roles, global admins.
  'groups.manage': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  // Email wording per event (docs/email.md): event admins, series roles, global admins.
  'email_templates.manage': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  // Email announcements (compose, preview, send, schedule, cancel, delivery): event admins and above.
  'announcements.manage': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  // Outbound webhooks (docs/webhooks.md "Outbound"): an event's endpoints for event admins and
  // above; a series' endpoints for series owners and global admins. Users only: keys 403.
  'webhooks.manage': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  'series_webhooks.manage': { keys: NO_KEYS, users: 'series_owner', target: 'series' },
  // Rooming (docs/rooming.md "Who sees what"): the inventory and the board's rooms and names for
  // event admins (and series roles) and safeguarding leads; everything else (rules, plan, apply,
  // inventory changes, the full board) for safeguarding leads and global admins only.
  'rooms.read': { keys: NO_KEYS, users: 'rooms_read', target: 'event:id' },
  'rooming.manage': { keys: NO_KEYS, users: 'safeguarding', target: 'event:id' },
  // Subject access and erasure (docs/privacy.md): global admins and the event's safeguarding leads,
  // through a registration of the event; anyone signed in, for their own data.
  'privacy.export': { keys: NO_KEYS, users: 'safeguarding', target: 'event:slug' },
  'privacy.erase': { keys: NO_KEYS, users: 'safeguarding', target: 'event:slug' },
  'privacy.own_export': { keys: NO_KEYS, users: 'authenticated', target: 'none' },
  // Retention policies (docs/privacy.md "Retention and shredding"): the event's managers.
  'retention.read': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  'retention.write': { keys: NO_KEYS, users: 'event_manage', target: 'event:id' },
  // Staff dashboard pages: an event's overview, for anyone with event access.
  'events.overview': { keys: NO_KEYS, users: 'event_access', target: 'event:id' },
} as const satisfies Record<string, ActionRule>;

export type Action = keyof typeof actions;

export function isAction(value: unknown): value is Action {
  return typeof value === 'string' && Object.hasOwn(actions, value);
}
