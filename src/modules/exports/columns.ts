/**
 * Export columns (docs/exports.md "Columns"): a machine `key` (the `?headers=keys` header), a
 * `label` in words, the SQL yielding the value, the value's type and who may see it. A column's
 * class follows the participant serializers: `basic` for every caller with participants access,
 * `pii` hidden from `limited`, `sensitive` only for global admins and safeguarding leads.
 *
 * Every expression is static SQL text (never user input) over the aliases of exports.repo.ts:
 * r registrations, p people, e events, med/diet/sg/acc section rows, ci (`at`: first check-in),
 * pg (first guardian), t travels, l travel_legs.
 */
export type ColumnClass = 'basic' | 'pii' | 'sensitive';
/**
 * How a value is read and written: `bool` a boolean expression, `int` a whole number, `date` a
 * date, `datetime` a timestamptz (shown in the event's time zone), `phone` a stored phone number
 * (E.164 when valid), `text` anything else.
 */
export type CellType = 'text' | 'int' | 'bool' | 'date' | 'datetime' | 'phone';

export interface Column {
  key: string;
  label: string;
  sql: string;
  cls: ColumnClass;
  type: CellType;
  /** Spreadsheet column width in characters. */
  width: number;
}

const WIDTH: Record<CellType, number> = { text: 22, int: 8, bool: 10, date: 12, datetime: 17, phone: 17 };

const make =
  (cls: ColumnClass) =>
  (key: string, label: string, sql: string, type: CellType = 'text', width?: number): Column => ({
    key,
    label,
    sql,
    cls,
    type,
    width: width ?? Math.max(WIDTH[type], Math.min(label.length + 2, 30)),
  });
export const b = make('basic');
export const pii = make('pii');
export const s = make('sensitive');
/** Width of a free-text column (notes, allergies). */
export const LONG = 40;

const CHECK_INS = `FROM scans s JOIN scan_contexts sc ON sc.id = s.scan_context_id AND sc.checks_in WHERE s.registration_id = r.id`;
/** LATERAL body yielding `at`: the registration's first scan in a check-in context (NULL: none). */
export const FIRST_CHECK_IN = `SELECT min(s.scanned_at) AS at ${CHECK_INS}`;
/** Whether the registration has been checked in (the `checked_in` filter). */
export const CHECKED_IN = `EXISTS (SELECT 1 ${CHECK_INS})`;
/** Under 18 on the event's first day (in its time zone); unknown birth date → not a minor. */
export const IS_MINOR = `(p.date_of_birth IS NOT NULL AND age(COALESCE((e.starts_at AT TIME ZONE e.timezone)::date, current_date), p.date_of_birth) < interval '18 years')`;
export const AGE = `date_part('year', age(COALESCE((e.starts_at AT TIME ZONE e.timezone)::date, current_date), p.date_of_birth))::int`;
/** A registration's own emergency contacts, highest priority first, as one line. */
export const CONTACTS = `(SELECT string_agg(c.name || COALESCE(' (' || c.relationship || ')', '') || COALESCE(': ' || c.phone, '') || COALESCE(', ' || c.email, ''), '; ' ORDER BY c.priority, c.id) FROM emergency_contacts c WHERE c.registration_id = r.id)`;
/** The registration's groups by name, comma-separated. */
export const GROUPS = `(SELECT string_agg(g.name, ', ' ORDER BY lower(g.name)) FROM registration_groups rg JOIN groups g ON g.id = rg.group_id AND g.event_id = r.event_id WHERE rg.registration_id = r.id)`;

export const NAME: Column[] = [
  b('participant_event_id', 'Registration no.', 'r.id', 'int', 14),
  b('first_name', 'First name', 'p.legal_first_name'),
  b('last_name', 'Last name', 'p.legal_last_name'),
  b('preferred_name', 'Preferred name', 'p.preferred_name'),
];
export const STATUS = b('status', 'Registration status', 'r.status', 'text', 20);
export const MINOR = b('minor', 'Under 18', IS_MINOR, 'bool');
export const PHONE = pii('phone', 'Phone', 'p.phone', 'phone');
export const DATE_OF_BIRTH = pii('date_of_birth', 'Date of birth', 'p.date_of_birth', 'date', 14);
export const ANAPHYLAXIS = b(
  'has_anaphylaxis_risk',
  'Anaphylaxis risk',
  'COALESCE(med.has_anaphylaxis_risk, false)',
  'bool',
);

export const ROSTER: Column[] = [
  ...NAME,
  b('email', 'Email', 'p.email', 'text', 30),
  STATUS,
  b('checked_in', 'Checked in', 'ci.at IS NOT NULL', 'bool'),
  b('checked_in_at', 'Checked in at', 'ci.at', 'datetime'),
];
export const MEDICAL: Column[] = [
  s('allergies', 'Allergies', 'med.allergies', 'text', LONG),
  s('allergy_severity', 'Allergy severity', 'med.allergy_severity'),
  s(
    'life_threatening_allergies',
    'Life-threatening allergies',
    'med.life_threatening_allergies',
    'text',
    LONG,
  ),
  ANAPHYLAXIS,
  s('medical_conditions', 'Medical conditions', 'med.medical_conditions', 'text', LONG),
  s('medications', 'Medications', 'med.medications', 'text', LONG),
  b(
    'requires_refrigeration',
    'Medication needs a fridge',
    'COALESCE(med.requires_refrigeration, false)',
    'bool',
  ),
  s('emergency_action_plan', 'Emergency action plan', 'med.emergency_action_plan', 'text', LONG),
  s('medical_notes', 'Medical notes', 'med.additional_notes', 'text', LONG),
];
export const DIETARY: Column[] = [
  s('diet_type', 'Diet', 'diet.diet_type'),
  s('intolerances', 'Intolerances', 'diet.intolerances', 'text', LONG),
  s('dietary_notes', 'Dietary notes', 'diet.notes', 'text', LONG),
  b(
    'cross_contamination_risk',
    'Cross-contamination risk',
    'COALESCE(diet.cross_contamination_risk, false)',
    'bool',
  ),
];
export const CONTACT_COLUMNS: Column[] = [
  s('emergency_contacts', 'Emergency contacts', CONTACTS, 'text', 50),
  s('guardian_name', 'Guardian', 'pg.name'),
  s('guardian_relationship', 'Guardian relationship', 'pg.relationship'),
  s('guardian_phone', 'Guardian phone', 'pg.phone', 'phone'),
  s('guardian_email', 'Guardian email', 'pg.email', 'text', 30),
];
