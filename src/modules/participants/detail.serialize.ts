/**
 * ParticipantDetail sections (spec "ParticipantDetail"), built in SQL like the base Participant.
 * Visibility: PII keys omitted for limited callers; sensitive sections only for global admins and
 * safeguarding leads (null when the caller may see them but no record exists).
 */
import type { Visibility } from '../../access/policy.js';
import {
  iso,
  obj,
  objectText,
  optionalPairs,
  type Pair,
  participantFrom,
  participantPairs,
} from './participants.serialize.js';

function personal(v: Visibility): string {
  const address = `(SELECT COALESCE(json_object_agg(a.key, a.value ORDER BY a.key), '{}'::json) FROM jsonb_each_text(p.address) a WHERE btrim(a.value) <> '')`;
  return obj([
    ['legal_first_name', 'p.legal_first_name'],
    ['legal_last_name', 'p.legal_last_name'],
    ['preferred_name', 'p.preferred_name'],
    ...(v.pii ? ([['date_of_birth', `to_char(p.date_of_birth, 'YYYY-MM-DD')`]] satisfies Pair[]) : []),
    [
      'age',
      `date_part('year', age(COALESCE((e.starts_at AT TIME ZONE e.timezone)::date, current_date), p.date_of_birth))::int`,
    ],
    ['tshirt_size', 'r.tshirt_size'],
    ['engagement_preference', 'r.engagement_preference'],
    ['engagement_notes', 'r.engagement_notes'],
    ...(v.pii ? ([['address', address]] satisfies Pair[]) : []),
  ]);
}

const ACCOMMODATION = `(SELECT ${obj([
  ['check_in_date', `to_char(a.check_in_date, 'YYYY-MM-DD')`],
  ['check_out_date', `to_char(a.check_out_date, 'YYYY-MM-DD')`],
  ['gender_identity', 'a.gender_identity'],
  ['gender_identity_other', 'a.gender_identity_other'],
  ['assigned_room', 'a.assigned_room'],
  ['rooming_exempt', 'a.rooming_exempt'],
  ['venue_name', 'a.venue_name'],
  ['preferred_roommate_genders', 'a.preferred_roommate_genders'],
  ['roommate_preferences', 'a.roommate_preferences'],
  ['roommate_exclusions', 'a.roommate_exclusions'],
  ['quiet_room_preference', 'a.quiet_room_preference'],
  ['room_type_preference', 'a.room_type_preference'],
  ['accessibility_needs', 'a.accessibility_needs'],
  ['notes', 'a.notes'],
])} FROM registration_accommodations a WHERE a.registration_id = r.id)`;

const CONSENTS = `COALESCE((SELECT json_agg(${obj([
  ['id', 'c.id'],
  ['consent_type', 'c.consent_type'],
  ['status', 'c.status'],
  ['pending_on', 'c.pending_on'],
  ['sent_at', iso('c.sent_at')],
  ['viewed_at', iso('c.viewed_at')],
  ['participant_signed_at', iso('c.participant_signed_at')],
  ['guardian_signed_at', iso('c.guardian_signed_at')],
  ['signed_at', iso('c.signed_at')],
  ['document_url', 'c.document_url'],
  ['failure_reason', 'c.failure_reason'],
])} ORDER BY c.id) FROM consents c WHERE c.registration_id = r.id), '[]'::json)`;

function guardians(v: Visibility): string {
  const contact = obj([
    ['id', 'gc.id'],
    ['name', 'gc.name'],
    ...(v.pii
      ? ([
          ['phone', 'gc.phone'],
          ['email', 'gc.email'],
        ] satisfies Pair[])
      : []),
    ['relationship', 'gc.relationship'],
    ['priority', 'gc.priority'],
  ]);
  return `COALESCE((SELECT json_agg(${obj([
    ['id', 'g.id'],
    ['guardian_id', 'g.guardian_user_id'],
    ['name', 'g.name'],
    ...(v.pii
      ? ([
          ['email', 'g.email'],
          ['phone', 'g.phone'],
        ] satisfies Pair[])
      : []),
    ['relationship', 'g.relationship'],
    ['is_primary', 'g.is_primary'],
    ['status', 'g.status'],
    ['accepted_at', iso('g.accepted_at')],
    ['completed_at', iso('g.completed_at')],
    ['invite_token_sent_at', iso('g.invite_token_sent_at')],
    ...(v.pii ? ([['invited_via_email', 'g.invited_via_email']] satisfies Pair[]) : []),
    ['media_permission', 'g.media_permission'],
    ['photo_permission', 'g.photo_permission'],
    ['travel_permission', 'g.travel_permission'],
    ['emergency_medical_consent', 'g.emergency_medical_consent'],
    ['otc_medication_consent', 'g.otc_medication_consent'],
    [
      'emergency_contacts',
      `COALESCE((SELECT json_agg(${contact} ORDER BY gc.priority, gc.id) FROM emergency_contacts gc WHERE gc.guardian_id = g.id), '[]'::json)`,
    ],
  ])} ORDER BY g.is_primary DESC, g.id) FROM guardians g WHERE g.registration_id = r.id), '[]'::json)`;
}

const SENSITIVE_SECTIONS: Pair[] = [
  [
    'medical_detail',
    `CASE WHEN med.registration_id IS NOT NULL THEN ${obj([
      ['allergy_severity', 'med.allergy_severity'],
      ['emergency_action_plan', 'med.emergency_action_plan'],
      ['additional_notes', 'med.additional_notes'],
    ])} END`,
  ],
  [
    'dietary_detail',
    `CASE WHEN diet.registration_id IS NOT NULL THEN ${obj([
      ['intolerances', 'diet.intolerances'],
      ['notes', 'diet.notes'],
    ])} END`,
  ],
  [
    'accessibility',
    '(SELECT ax.data::json FROM registration_accessibility ax WHERE ax.registration_id = r.id)',
  ],
  [
    'safeguarding_detail',
    `CASE WHEN sg.registration_id IS NOT NULL THEN ${obj([
      ['high_support_notes', 'sg.high_support_notes'],
      ['authorized_pickup_adults', 'sg.authorized_pickup_adults'],
      ['other_instructions', 'sg.other_instructions'],
      ['curfew_acknowledged', 'sg.curfew_acknowledged'],
      ['overnight_rules_acknowledged', 'sg.overnight_rules_acknowledged'],
    ])} END`,
  ],
];

/** `SELECT … FROM …` text for ParticipantDetail rows (column `j`); the caller appends WHERE. */
export function participantDetailSelect(v: Visibility): string {
  const pairs: Pair[] = [
    ...participantPairs(v),
    ['personal', personal(v)],
    ['accommodation', ACCOMMODATION],
    ['consents', CONSENTS],
    ['guardians', guardians(v)],
    ...(v.sensitive ? SENSITIVE_SECTIONS : []),
  ];
  return `SELECT ${objectText(pairs, optionalPairs(v))} AS j FROM ${participantFrom(v)}`;
}
