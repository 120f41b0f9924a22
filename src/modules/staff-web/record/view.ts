/**
 * What the participant page shows of a ParticipantDetail, as display blocks:
 * a definition list (`dl`) or a table. Built only from keys present in the serializer's output
 * for this caller (participants.serialize.ts / detail.serialize.ts decide visibility): a field
 * the caller may not see is absent from the JSON, so it has no row here, and a table column whose
 * key no item carries is dropped. Values are text; templates escape them.
 */
import { formatPhone } from '../../../lib/phone.js';
import { consentTitle } from '../../events/consent-defaults.js';
import { getPath } from '../../web/forms.js';
import type { Section } from '../../web/sections.js';
import { GUARDIAN_STATUS_LABELS } from '../format.js';

type Json = Record<string, unknown>;
export interface Row {
  label: string;
  value: string;
}
export type Block =
  | { kind: 'dl'; heading?: string; rows: Row[] }
  | { kind: 'table'; heading: string; columns: string[]; rows: string[][]; empty: string };
type Column = readonly [label: string, key: string];

/** Display text of a JSON value: `Yes`/`No`, `—` for empty, timestamps to the minute (UTC). */
export function text(value: unknown): string {
  if (value === true) return 'Yes';
  if (value === false) return 'No';
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value))
    return `${value.slice(0, 10)} ${value.slice(11, 16)} UTC`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The display text of the value at `key`: phone numbers in international format, else text(). */
function shown(key: string, value: unknown): string {
  if ((key === 'phone' || key.endsWith('.phone')) && typeof value === 'string' && value !== '')
    return formatPhone(value);
  return text(value);
}

/** Rows for the `[label, path]` pairs whose path is present in `obj`. */
export function rowsOf(obj: unknown, pairs: readonly Column[]): Row[] {
  return pairs
    .filter(([, path]) => getPath(obj, path) !== undefined)
    .map(([label, path]) => ({ label, value: shown(path, getPath(obj, path)) }));
}

/** A table of `items` with the columns some item carries. */
export function tableOf(heading: string, items: unknown, columns: readonly Column[], empty: string): Block {
  const list = (Array.isArray(items) ? items : []) as Json[];
  const visible = columns.filter(([, key]) => list.some((item) => key in item));
  return {
    kind: 'table',
    heading,
    columns: visible.map(([label]) => label),
    rows: list.map((item) => visible.map(([, key]) => shown(key, item[key]))),
    empty,
  };
}

/** Fields the form does not edit (staff-owned, or imported), shown read-only with a section when set. */
const EXTRA: Record<string, Column[]> = {
  personal: [
    ['Age at the event', 'personal.age'],
    ['Engagement preference', 'personal.engagement_preference'],
    ['Engagement notes', 'personal.engagement_notes'],
  ],
  accommodation: [
    ['Assigned room', 'accommodation.assigned_room'],
    ['Venue', 'accommodation.venue_name'],
    ['Exempt from rooming', 'accommodation.rooming_exempt'],
    ['Gender identity (other)', 'accommodation.gender_identity_other'],
    ['Preferred roommate genders', 'accommodation.preferred_roommate_genders'],
  ],
};
const TRAVEL_EXTRA: Column[] = [
  ['Expected arrival', 'expected_arrival_time'],
  ['Visa required', 'visa_required'],
  ['Visa status', 'visa_status'],
  ['Visa type', 'visa_type'],
  ['Visa number', 'visa_number'],
  ['Passport nationality', 'passport_nationality'],
  ['Unaccompanied minor', 'is_unaccompanied_minor'],
  ['Train from', 'train_departure_station'],
  ['Train to', 'train_arrival_station'],
  ['Departure station', 'departure_station'],
  ['Arrival station', 'arrival_station'],
  ['Bus from', 'bus_departure_location'],
  ['Bus to', 'bus_arrival_location'],
  ['Origin address', 'origin_address'],
  ['Other details', 'other_details'],
  ['Pickup dismissed', 'pickup_dismissed_at'],
];

/** Rows of `pairs` whose value is set (not null, empty or false). */
const setRowsOf = (obj: unknown, pairs: readonly Column[]) =>
  rowsOf(obj, pairs).filter((r) => r.value !== '—' && r.value !== 'No');
const LEG_COLUMNS: Column[] = [
  ['Flight', 'flight_code'],
  ['From', 'departure_airport'],
  ['To', 'arrival_airport'],
  ['Departs', 'departure_time'],
  ['Departs, local time', 'departure_local'],
  ['Arrives', 'arrival_time'],
  ['Arrives, local time', 'arrival_local'],
  ['Live status', 'live_status'],
  ['Picked up', 'travel_picked_up_at'],
];
const CONTACT_COLUMNS: Column[] = [
  ['Name', 'name'],
  ['Relationship', 'relationship'],
  ['Phone', 'phone'],
  ['Priority', 'priority'],
];
export const GUARDIAN_COLUMNS: Column[] = [
  ['Name', 'name'],
  ['Relationship', 'relationship'],
  ['Email', 'email'],
  ['Phone', 'phone'],
  ['Primary', 'is_primary'],
  ['Status', 'status'],
  ['Completed', 'completed_at'],
  ['Media', 'media_permission'],
  ['Photos', 'photo_permission'],
  ['Travel', 'travel_permission'],
  ['Emergency medical', 'emergency_medical_consent'],
  ['Over-the-counter medication', 'otc_medication_consent'],
];

/** The record's guardians with their status in staff words (GUARDIAN_STATUS_LABELS). */
function guardiansOf(detail: Json): Json[] {
  return ((detail.guardians ?? []) as Json[]).map((g) =>
    'status' in g ? { ...g, status: GUARDIAN_STATUS_LABELS[String(g.status)] ?? g.status } : g,
  );
}

function travelBlocks(detail: Json, key: 'travel_inbound' | 'travel_outbound', section: Section): Block[] {
  const travel = detail[key] as Json | undefined;
  const heading = key === 'travel_inbound' ? 'Getting there' : 'Going home';
  if (!travel) return [{ kind: 'dl', heading, rows: [{ label: 'Travel', value: 'No travel recorded' }] }];
  const fields = section.groups.flatMap((g) => g.fields).filter((f) => f.name.startsWith(`${key}.`));
  return [
    {
      kind: 'dl',
      heading,
      rows: [
        ...rowsOf(
          detail,
          fields.map((f) => [f.label, f.name] as const),
        ),
        ...setRowsOf(travel, TRAVEL_EXTRA),
      ],
    },
    tableOf(`${heading}: legs`, travel.legs, LEG_COLUMNS, 'No legs recorded.'),
  ];
}

/**
 * The blocks of one editable section for this caller's `detail`; empty when the caller sees
 * nothing of it (e.g. medical detail for `ops`, who still sees the risk flags).
 */
export function sectionBlocks(section: Section, detail: Json): Block[] {
  if (section.key === 'travel')
    return [
      ...travelBlocks(detail, 'travel_inbound', section),
      ...travelBlocks(detail, 'travel_outbound', section),
    ];
  if (section.key === 'emergency-contacts')
    return 'emergency_contacts' in detail
      ? [tableOf('Emergency contacts', detail.emergency_contacts, CONTACT_COLUMNS, 'No emergency contacts.')]
      : [];
  if (section.key === 'guardians')
    return [tableOf('Parents or guardians', guardiansOf(detail), GUARDIAN_COLUMNS, 'No guardians.')];
  const pairs = section.groups.flatMap((g) => g.fields.map((f) => [f.label, f.name] as const));
  if (section.key === 'accessibility' && !('accessibility' in detail)) return [];
  const rows = [...rowsOf(detail, pairs), ...setRowsOf(detail, EXTRA[section.key] ?? [])];
  return rows.length > 0 ? [{ kind: 'dl', rows }] : [];
}

/** Consents, scans by context: the record's status tables. */
export function statusBlocks(detail: Json): Block[] {
  const consents = ((detail.consents ?? []) as Json[]).map((c) => ({
    ...c,
    consent_type: consentTitle(String(c.consent_type)),
  }));
  return [
    tableOf(
      'Consents',
      consents,
      [
        ['Consent', 'consent_type'],
        ['Status', 'status'],
        ['Waiting on', 'pending_on'],
        ['Sent', 'sent_at'],
        ['Signed', 'signed_at'],
        ['Failure', 'failure_reason'],
      ],
      'No consents requested yet.',
    ),
    tableOf(
      'Scans by context',
      detail.scans_by_context,
      [
        ['Scan context', 'scan_context_name'],
        ['Checks in', 'checks_in'],
        ['Travel pickup', 'is_travel_pickup'],
        ['Scans', 'scan_count'],
        ['First', 'first_scanned_at'],
        ['Last', 'last_scanned_at'],
      ],
      'This event has no scan contexts.',
    ),
  ];
}

/** The summary at the top of the page: contact, check-in and the flags every participants role sees. */
export function summaryRows(detail: Json): Row[] {
  return rowsOf(detail, [
    ['Email', 'email'],
    ['Phone', 'phone'],
    ['Pronouns', 'pronouns'],
    ['Checked in', 'checked_in_at'],
    ['Waiver signed', 'waiver_signed'],
    ['Anaphylaxis risk', 'has_anaphylaxis_risk'],
    ['Medication needs a fridge', 'requires_refrigeration'],
    ['Cross-contamination risk', 'cross_contamination_risk'],
    ['High support', 'high_support_flag'],
    ['May leave unaccompanied', 'can_leave_unaccompanied'],
    ['Registration updated', 'updated_at'],
  ]);
}
