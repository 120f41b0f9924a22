/**
 * Where Muster holds data about a person (docs/privacy.md "The data map"): every table with a column
 * that names a person (a person, registration or user key, or an email address), how to find the
 * person's rows, and what erasure does with them. Subject access exports the rows these entries
 * select; erasure applies their `erase`; test/privacy/coverage.test.ts fails when a table gains such
 * a column that no entry names.
 *
 * `where` predicates use unqualified column names, so one predicate serves `SELECT … FROM t`,
 * `UPDATE t` and `DELETE FROM t`.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { RetentionCategory } from '../../db/schema/retention.js';
import { emailIn, type Subject } from './subject.js';

export type Erase =
  /** Delete the rows (data with no value once the person is gone). */
  | { delete: true }
  /** Overwrite the columns that identify the person; keep the row (counts, statuses, history). */
  | { set: SQL }
  /** Keep as is, for the stated reason. */
  | { keep: string };

export interface PersonTable {
  table: string;
  /** `person`: account-level data, only in whole-person scope; `any`: also a safeguarding lead's export. */
  scope: 'person' | 'any';
  where: (s: Subject) => SQL;
  erase: Erase;
  /** The `table.column` keys that name a person which this entry accounts for. */
  keys: string[];
  /** The retention category whose shredding applies `erase` to an event's rows (none: never shredded per event). */
  category?: RetentionCategory;
}

const regs = (s: Subject) => sql`registration_id IN (${s.registrations})`;
const user = (column: string) => (s: Subject) =>
  s.userId === null ? sql`false` : sql`${sql.identifier(column)} = ${s.userId}`;
const byEmail = (column: string) => (s: Subject) => emailIn(sql`${sql.identifier(column)}`, s);
/** The registrations in scope, and (whole person only) rows naming the person elsewhere. */
const regsOr = (other: (s: Subject) => SQL) => (s: Subject) =>
  s.whole ? sql`(${regs(s)} OR ${other(s)})` : regs(s);
const KEEP_STAFF = 'staff authorship: the id of the staff member who acted, never the person acted on';
const DELETE = { delete: true } as const;
const GUARDIAN_ERASE = sql`name = 'Erased', email = NULL, phone = NULL, invited_via_email = NULL,
  guardian_user_id = NULL, invite_token_digest = NULL, updated_at = now()`;

/** Staff-authorship columns: user ids of who did something, kept as history (ids only). */
const AUTHORSHIP: PersonTable[] = [
  'announcements.created_by_user_id',
  'bans.created_by_user_id',
  'chat_blasts.sent_by_user_id',
  'email_templates.updated_by_user_id',
  'event_api_keys.owner_user_id',
  'series_api_keys.owner_user_id',
  'webhook_endpoints.created_by_user_id',
  'rooming_overrides.by_user_id',
  'invitations.invited_by_user_id',
  'notes.author_user_id',
  'scans.scanner_user_id',
].map((key) => ({
  table: key.slice(0, key.indexOf('.')),
  scope: 'person',
  where: user(key.slice(key.indexOf('.') + 1)),
  erase: { keep: KEEP_STAFF },
  keys: [key],
}));

export const DATA_MAP: PersonTable[] = [
  {
    table: 'people',
    scope: 'any',
    where: (s) => (s.personId === null ? sql`false` : sql`id = ${s.personId}`),
    erase: {
      set: sql`email = 'erased-' || id || '@erased.invalid', legal_first_name = 'Erased', legal_last_name = 'Person',
        preferred_name = NULL, pronouns = NULL, phone = NULL, date_of_birth = NULL, headshot_url = NULL,
        chat_user_id = NULL, address = '{}'::jsonb, user_id = NULL, updated_at = now()`,
    },
    keys: ['people.email', 'people.user_id', 'people.chat_user_id'],
  },
  {
    table: 'users',
    scope: 'person',
    where: user('id'),
    erase: {
      set: sql`email = 'erased-user-' || id || '@erased.invalid', name = 'Erased', helpdesk_customer_id = NULL,
        language = NULL, updated_at = now()`,
    },
    keys: ['users.email'],
  },
  // Sessions and tokens: revoked (a web session is a mobile token in a sealed cookie).
  {
    table: 'authorization_codes',
    scope: 'person',
    where: user('user_id'),
    erase: DELETE,
    keys: ['authorization_codes.user_id'],
  },
  {
    table: 'mobile_tokens',
    scope: 'person',
    where: user('user_id'),
    erase: { set: sql`revoked_at = coalesce(revoked_at, now()), device_name = NULL` },
    keys: ['mobile_tokens.user_id'],
  },
  {
    table: 'global_api_tokens',
    scope: 'person',
    where: user('user_id'),
    erase: { set: sql`revoked_at = coalesce(revoked_at, now())` },
    keys: ['global_api_tokens.user_id'],
  },
  {
    table: 'push_tokens',
    scope: 'person',
    where: user('user_id'),
    erase: DELETE,
    keys: ['push_tokens.user_id'],
  },
  {
    table: 'event_roles',
    scope: 'person',
    where: user('user_id'),
    erase: { keep: 'staff roles are removed by an organiser, not by erasure (ids only)' },
    keys: ['event_roles.user_id'],
  },
  {
    table: 'series_roles',
    scope: 'person',
    where: user('user_id'),
    erase: { keep: 'staff roles are removed by an organiser, not by erasure (ids only)' },
    keys: ['series_roles.user_id'],
  },
  {
    table: 'sign_in_requests',
    scope: 'person',
    where: byEmail('email'),
    erase: DELETE,
    keys: ['sign_in_requests.email'],
  },
  {
    table: 'chat_accounts',
    scope: 'person',
    where: byEmail('email'),
    erase: DELETE,
    keys: ['chat_accounts.email', 'chat_accounts.chat_user_id'],
  },
  {
    table: 'helpdesk_conversations',
    scope: 'person',
    where: (s) => sql`(${byEmail('customer_email')(s)} OR ${user('user_id')(s)})`,
    erase: DELETE,
    keys: ['helpdesk_conversations.customer_email', 'helpdesk_conversations.user_id'],
  },
  {
    table: 'email_suppressions',
    scope: 'person',
    where: byEmail('email'),
    erase: DELETE,
    keys: ['email_suppressions.email'],
  },
  {
    table: 'email_log',
    scope: 'person',
    where: byEmail('to_email'),
    erase: { set: sql`to_email = 'erased@erased.invalid', subject = '(erased)', error = NULL` },
    keys: ['email_log.to_email'],
  },
  {
    table: 'ban_emails',
    scope: 'person',
    where: byEmail('email'),
    erase: { keep: 'the app-wide ban list protects children; an admin lifts a ban, erasure does not' },
    keys: ['ban_emails.email'],
  },
  {
    table: 'audit_log',
    scope: 'person',
    where: user('actor_user_id'),
    // The entries stay (ids and counts only); the credential's name (a phone's device name) goes.
    erase: { set: sql`credential_name = NULL` },
    keys: ['audit_log.actor_user_id'],
  },
  ...registrationTables(),
  ...AUTHORSHIP,
];

/** Not about a person: addresses of events and of Muster itself. */
export const NOT_PERSONAL: Record<string, string> = {
  'events.support_email': 'the event’s own support address',
  'email_log.from_email': 'the sending address (Muster’s or the event’s)',
};

function registrationTables(): PersonTable[] {
  const sensitive = [
    'registration_medical',
    'registration_dietary',
    'registration_accessibility',
    'registration_safeguarding',
    'registration_accommodations',
  ].map(
    (table): PersonTable => ({
      table,
      scope: 'any',
      where: regs,
      erase: DELETE,
      keys: [`${table}.registration_id`],
      category: 'sensitive',
    }),
  );
  return [
    {
      table: 'registrations',
      scope: 'any',
      where: (s) => sql`id IN (${s.registrations})`,
      erase: { set: sql`engagement_notes = NULL, nfc_badge_token = NULL, updated_at = now()` },
      keys: ['registrations.person_id'],
      category: 'pii',
    },
    ...sensitive,
    {
      table: 'registration_groups',
      scope: 'any',
      where: regs,
      erase: { keep: 'group membership is ids only; the counts stay' },
      keys: ['registration_groups.registration_id'],
    },
    {
      table: 'consents',
      scope: 'any',
      where: regs,
      erase: {
        set: sql`signature_name = NULL, signature_ip = NULL, failure_reason = NULL, updated_at = now()`,
      },
      keys: ['consents.registration_id'],
      category: 'pii',
    },
    {
      table: 'consents',
      scope: 'any',
      where: regs,
      erase: { set: sql`document_url = NULL` },
      keys: [],
      category: 'uploads',
    },
    // The sync list's cached JSON of a registration (participants.cache.ts): a copy of the rows
    // above. Emptied, not deleted: the change to the registration already left an empty fence in
    // every tier (migration 0027) that stops a read built before the erasure from storing its
    // text afterwards; deleting the rows would remove that fence. Fences hold nothing: not selected.
    ...(['pii', 'sensitive'] as const).map(
      (category): PersonTable => ({
        table: 'participant_json',
        scope: 'any',
        where: (s) => sql`${regs(s)} AND j <> ''`,
        erase: { set: sql`version = '', j = ''` },
        keys: category === 'pii' ? ['participant_json.registration_id'] : [],
        category,
      }),
    ),
    // The old and new values the participant page's history shows (own-record/apply.ts `changes`):
    // the entries stay (who changed which field when), the values go with the person's data.
    ...(['pii', 'sensitive'] as const).map(
      (category): PersonTable => ({
        table: 'audit_log',
        scope: 'any',
        where: (s) =>
          sql`target_type = 'registration' AND metadata->'changes' IS NOT NULL
              AND target_id IN (SELECT r.id::text FROM (${s.registrations}) r)`,
        erase: { set: sql`metadata = metadata - 'changes'` },
        keys: [],
        category,
      }),
    ),
    {
      table: 'guardians',
      scope: 'any',
      where: regsOr((s) => sql`(${user('guardian_user_id')(s)} OR ${byEmail('email')(s)})`),
      erase: { set: GUARDIAN_ERASE },
      keys: [
        'guardians.registration_id',
        'guardians.guardian_user_id',
        'guardians.email',
        'guardians.invited_via_email',
      ],
      category: 'pii',
    },
    {
      table: 'emergency_contacts',
      scope: 'any',
      where: regs,
      erase: DELETE,
      keys: ['emergency_contacts.registration_id', 'emergency_contacts.email'],
      category: 'pii',
    },
    {
      table: 'travel_leg_tracking',
      scope: 'any',
      where: (s) =>
        sql`leg_id IN (SELECT l.id FROM travel_legs l JOIN travels t ON t.id = l.travel_id
                        WHERE t.registration_id IN (${s.registrations}))`,
      erase: DELETE,
      keys: [],
      category: 'travel',
    },
    {
      table: 'travel_legs',
      scope: 'any',
      where: (s) => sql`travel_id IN (SELECT id FROM travels WHERE registration_id IN (${s.registrations}))`,
      erase: DELETE,
      keys: [],
      category: 'travel',
    },
    {
      table: 'travels',
      scope: 'any',
      where: regs,
      erase: DELETE,
      keys: ['travels.registration_id'],
      category: 'travel',
    },
    {
      table: 'notes',
      scope: 'any',
      where: regs,
      erase: DELETE,
      keys: ['notes.registration_id'],
      category: 'notes',
    },
    {
      table: 'scan_feed',
      scope: 'any',
      where: (s) => sql`scan_id IN (SELECT id FROM scans WHERE registration_id IN (${s.registrations}))`,
      erase: DELETE,
      keys: [],
      category: 'scans',
    },
    {
      table: 'scans',
      scope: 'any',
      where: regs,
      erase: { set: sql`collected_by = NULL` },
      keys: ['scans.registration_id'],
      category: 'scans',
    },
    {
      table: 'chat_blast_recipients',
      scope: 'any',
      where: regs,
      erase: { set: sql`chat_user_id = 'erased', error = NULL` },
      keys: ['chat_blast_recipients.registration_id', 'chat_blast_recipients.chat_user_id'],
      category: 'pii',
    },
    {
      table: 'email_reminders',
      scope: 'any',
      where: regs,
      erase: { keep: 'reminder bookkeeping: ids and times only' },
      keys: ['email_reminders.registration_id'],
    },
    {
      table: 'rooming_overrides',
      scope: 'any',
      where: regs,
      erase: DELETE,
      keys: ['rooming_overrides.registration_id'],
      category: 'sensitive',
    },
    {
      table: 'invitations',
      scope: 'any',
      where: regsOr(byEmail('email')),
      erase: {
        set: sql`email = 'erased-invitation-' || id || '@erased.invalid', first_name = NULL, last_name = NULL`,
      },
      keys: ['invitations.registration_id', 'invitations.email'],
      category: 'pii',
    },
    {
      table: 'announcement_recipients',
      scope: 'any',
      where: regsOr(byEmail('email')),
      erase: { set: sql`email = 'erased@erased.invalid', name = 'Erased'` },
      keys: ['announcement_recipients.registration_id', 'announcement_recipients.email'],
      category: 'pii',
    },
  ];
}

/**
 * Job payloads (pgboss.job and its archive) that name the person by address or registration id:
 * exported with the rest, deleted on erasure (a pending email to an erased address is not sent).
 */
export function jobPayloadWhere(s: Subject): SQL {
  const byAddress = sql.join(
    s.emails.map((e) => sql`position(${e} in lower(data::text)) > 0`),
    sql` OR `,
  );
  return sql`(${byAddress} OR (data->>'registration_id') IN (SELECT id::text FROM (${s.registrations}) r)
    OR (data->>'registrationId') IN (SELECT id::text FROM (${s.registrations}) r))`;
}
