/**
 * Export presets: which columns each has and who may see each column. A column's class follows the
 * participant serializers (participants.serialize.ts, detail.serialize.ts; docs/decisions.md "Credentials and roles"): `basic`
 * for every caller with participants access, `pii` hidden from `limited`, `sensitive` only for
 * global admins and safeguarding leads. A preset whose own columns are all hidden from the caller
 * (`medical`, `emergency_contacts` for anyone without sensitive access) is refused with 403.
 *
 * Every expression is static SQL text (never user input) over the aliases of exports.repo.ts:
 * r registrations, p people, e events, med/diet/sg/acc section rows, ci (`at`: first check-in),
 * pg (first guardian), t travels, l travel_legs.
 */
import type { Visibility } from '../../access/policy.js';

export type ColumnClass = 'basic' | 'pii' | 'sensitive';
export interface Column {
  header: string;
  /** SQL yielding text (or NULL). */
  sql: string;
  cls: ColumnClass;
}
export interface Preset {
  /** One row per registration, or one per travel leg (`travel`). */
  rows: 'registration' | 'leg';
  /** The class a caller must see for the preset to be allowed at all. */
  requires: ColumnClass;
  columns: Column[];
}

const b = (header: string, sql: string): Column => ({ header, sql, cls: 'basic' });
const pii = (header: string, sql: string): Column => ({ header, sql, cls: 'pii' });
const s = (header: string, sql: string): Column => ({ header, sql, cls: 'sensitive' });
const yesNo = (expr: string) => `CASE WHEN ${expr} THEN 'yes' ELSE 'no' END`;
const day = (expr: string) => `to_char(${expr}, 'YYYY-MM-DD')`;
const at = (expr: string) => `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

const CHECK_INS = `FROM scans s JOIN scan_contexts sc ON sc.id = s.scan_context_id AND sc.checks_in WHERE s.registration_id = r.id`;
/** LATERAL body yielding `at`: the registration's first scan in a check-in context (NULL: none). */
export const FIRST_CHECK_IN = `SELECT min(s.scanned_at) AS at ${CHECK_INS}`;
/** Whether the registration has been checked in (the `checked_in` filter). */
export const CHECKED_IN = `EXISTS (SELECT 1 ${CHECK_INS})`;
/** Under 18 on the event's first day (in its time zone); unknown birth date → not a minor. */
export const IS_MINOR = `(p.date_of_birth IS NOT NULL AND age(COALESCE((e.starts_at AT TIME ZONE e.timezone)::date, current_date), p.date_of_birth) < interval '18 years')`;

const NAME: Column[] = [
  b('participant_event_id', 'r.id::text'),
  b('first_name', 'p.legal_first_name'),
  b('last_name', 'p.legal_last_name'),
  b('preferred_name', 'p.preferred_name'),
];
const CONTACTS = `(SELECT string_agg(c.name || COALESCE(' (' || c.relationship || ')', '') || COALESCE(': ' || c.phone, '') || COALESCE(', ' || c.email, ''), '; ' ORDER BY c.priority, c.id) FROM emergency_contacts c WHERE c.registration_id = r.id)`;
const guardian = (col: string) => `pg.${col}`;

const ROSTER: Column[] = [
  ...NAME,
  b('email', 'p.email'),
  b('status', 'r.status'),
  b('checked_in', yesNo('ci.at IS NOT NULL')),
  b('checked_in_at', at('ci.at')),
];
const MEDICAL: Column[] = [
  s('allergies', 'med.allergies'),
  s('allergy_severity', 'med.allergy_severity'),
  s('life_threatening_allergies', 'med.life_threatening_allergies'),
  b('has_anaphylaxis_risk', yesNo('COALESCE(med.has_anaphylaxis_risk, false)')),
  s('medical_conditions', 'med.medical_conditions'),
  s('medications', 'med.medications'),
  b('requires_refrigeration', yesNo('COALESCE(med.requires_refrigeration, false)')),
  s('emergency_action_plan', 'med.emergency_action_plan'),
  s('medical_notes', 'med.additional_notes'),
];
const DIETARY: Column[] = [
  s('diet_type', 'diet.diet_type'),
  s('intolerances', 'diet.intolerances'),
  s('dietary_notes', 'diet.notes'),
  b('cross_contamination_risk', yesNo('COALESCE(diet.cross_contamination_risk, false)')),
];
const CONTACT_COLUMNS: Column[] = [
  s('emergency_contacts', CONTACTS),
  s('guardian_name', guardian('name')),
  s('guardian_relationship', guardian('relationship')),
  s('guardian_phone', guardian('phone')),
  s('guardian_email', guardian('email')),
];
const ROOMING: Column[] = [
  b('gender_identity', `COALESCE(acc.gender_identity_other, acc.gender_identity)`),
  b('check_in_date', day('acc.check_in_date')),
  b('check_out_date', day('acc.check_out_date')),
  b('venue_name', 'acc.venue_name'),
  b('assigned_room', 'acc.assigned_room'),
  b('rooming_exempt', yesNo('COALESCE(acc.rooming_exempt, false)')),
  b('room_type_preference', 'acc.room_type_preference'),
  b('quiet_room_preference', 'acc.quiet_room_preference'),
  b('preferred_roommate_genders', 'acc.preferred_roommate_genders'),
  b('roommate_preferences', 'acc.roommate_preferences'),
  b('roommate_exclusions', 'acc.roommate_exclusions'),
  b('accessibility_needs', 'acc.accessibility_needs'),
  b('accommodation_notes', 'acc.notes'),
];
const AGE = `date_part('year', age(COALESCE((e.starts_at AT TIME ZONE e.timezone)::date, current_date), p.date_of_birth))::int::text`;
const PERSONAL: Column[] = [
  b('pronouns', 'p.pronouns'),
  pii('phone', 'p.phone'),
  pii('date_of_birth', day('p.date_of_birth')),
  b('age', AGE),
  b('minor', yesNo(IS_MINOR)),
  pii(
    'address',
    `(SELECT string_agg(a.value, ', ' ORDER BY a.key) FROM jsonb_each_text(p.address) a WHERE btrim(a.value) <> '')`,
  ),
  b('tshirt_size', 'r.tshirt_size'),
];
const SAFEGUARDING: Column[] = [
  b('high_support_flag', yesNo('COALESCE(sg.high_support_flag, false)')),
  b('can_leave_unaccompanied', yesNo('COALESCE(sg.can_leave_unaccompanied, false)')),
  s('high_support_notes', 'sg.high_support_notes'),
  s('authorized_pickup_adults', 'sg.authorized_pickup_adults'),
  s('safeguarding_instructions', 'sg.other_instructions'),
];
/** Travel calendar pickup state (docs/decisions.md "Travel calendar"), per travel record: inbound only. */
const PICKUP_STATE = `CASE WHEN t.direction <> 'inbound' THEN NULL
  WHEN (SELECT ll.travel_picked_up_at FROM travel_legs ll WHERE ll.travel_id = t.id ORDER BY ll.position DESC, ll.id DESC LIMIT 1) IS NOT NULL THEN 'collected'
  WHEN ci.at IS NOT NULL THEN 'checked_in'
  WHEN t.pickup_dismissed_at IS NOT NULL THEN 'pickup_not_needed'
  ELSE 'awaiting_pickup' END`;
const TRAVEL: Column[] = [
  ...NAME,
  b('direction', 't.direction'),
  b('mode', 't.mode'),
  b('carrier', 't.carrier'),
  b('leg', 'l.position::text'),
  b('flight_code', 'COALESCE(l.flight_code, t.flight_number)'),
  b(
    'departure',
    `COALESCE(l.departure_airport, t.departure_city, t.train_departure_station, t.departure_station, t.bus_departure_location)`,
  ),
  b(
    'arrival',
    `COALESCE(l.arrival_airport, t.arrival_city, t.train_arrival_station, t.arrival_station, t.bus_arrival_location)`,
  ),
  b('departure_time', at('COALESCE(l.departure_time, t.departure_time)')),
  b('arrival_time', at('COALESCE(l.live_arrival_time, l.arrival_time, t.arrival_time)')),
  b('live_status', 'l.live_status'),
  b('unaccompanied_minor', yesNo('COALESCE(t.is_unaccompanied_minor, false)')),
  b('picked_up_at', at('l.travel_picked_up_at')),
  b('pickup_state', PICKUP_STATE),
  pii('origin_address', 't.origin_address'),
  b('travel_notes', 't.notes'),
];

export const PRESETS = {
  roster: { rows: 'registration', requires: 'basic', columns: ROSTER },
  medical: {
    rows: 'registration',
    requires: 'sensitive',
    columns: [...NAME, pii('date_of_birth', day('p.date_of_birth')), ...MEDICAL, ...CONTACT_COLUMNS],
  },
  dietary: {
    rows: 'registration',
    requires: 'basic',
    columns: [
      ...NAME,
      b('status', 'r.status'),
      ...DIETARY,
      b('has_anaphylaxis_risk', yesNo('COALESCE(med.has_anaphylaxis_risk, false)')),
      s('allergies', 'med.allergies'),
      s('life_threatening_allergies', 'med.life_threatening_allergies'),
    ],
  },
  rooming: {
    rows: 'registration',
    requires: 'basic',
    columns: [...NAME, b('status', 'r.status'), b('age', AGE), ...ROOMING],
  },
  travel: { rows: 'leg', requires: 'basic', columns: TRAVEL },
  emergency_contacts: {
    rows: 'registration',
    requires: 'sensitive',
    columns: [
      ...NAME,
      b('status', 'r.status'),
      b('minor', yesNo(IS_MINOR)),
      pii('phone', 'p.phone'),
      ...CONTACT_COLUMNS,
    ],
  },
  full: {
    rows: 'registration',
    requires: 'basic',
    columns: [
      ...ROSTER,
      ...PERSONAL,
      ...ROOMING,
      ...DIETARY,
      ...MEDICAL,
      ...SAFEGUARDING,
      ...CONTACT_COLUMNS,
      b(
        'waiver_signed',
        yesNo(
          `EXISTS (SELECT 1 FROM consents c WHERE c.registration_id = r.id AND c.consent_type = 'waiver' AND c.status = 'signed')`,
        ),
      ),
      s('freedom_waiver_granted', yesNo('r.freedom_waiver_granted')),
    ],
  },
} as const satisfies Record<string, Preset>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export function canSee(cls: ColumnClass, v: Visibility): boolean {
  return cls === 'basic' || (cls === 'pii' ? v.pii : v.sensitive);
}

/** The preset's columns this caller may see, or null when the preset is closed to them. */
export function visibleColumns(name: PresetName, v: Visibility): Column[] | null {
  const preset: Preset = PRESETS[name];
  if (!canSee(preset.requires, v)) return null;
  return preset.columns.filter((c) => canSee(c.cls, v));
}
