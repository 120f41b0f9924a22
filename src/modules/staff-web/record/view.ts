/**
 * What the participant page shows of a ParticipantDetail, as display blocks:
 * a definition list (`dl`) or a table. Built only from keys present in the serializer's output
 * for this caller (participants.serialize.ts / detail.serialize.ts decide visibility): a field
 * the caller may not see is absent from the JSON, so it has no row here, and a table column whose
 * key no item carries is dropped. Values are text; templates escape them.
 */

import { staffText } from '../../../lib/i18n/staff.js';
import { isRecord } from '../../../lib/narrow.js';
import { formatPhone } from '../../../lib/phone.js';
import { consentTitle } from '../../events/consent-defaults.js';
import type { ParticipantDetailJson } from '../../participants/participants.service.js';
import { getPath } from '../../web/forms.js';
import type { Section } from '../../web/sections.js';
import { fieldLabel } from '../field-labels.js';
import { GUARDIAN_STATUS_LABELS } from '../format.js';

type Detail = ParticipantDetailJson;
export interface Row {
  label: string;
  value: string;
}
export type Block =
  | { kind: 'dl'; heading?: string; rows: Row[] }
  | { kind: 'table'; heading: string; columns: string[]; rows: string[][]; empty: string };
type Column = readonly [label: string, key: string];

/** `[label, key]` pairs of `keys`, labelled from the one label table under `prefix` (field-labels.ts). */
const columns = (prefix: string, keys: readonly string[]): Column[] =>
  keys.map((key) => [fieldLabel(`${prefix}${key}`), key] as const);

/** Display text of a JSON value: `Yes`/`No`, `—` for empty, timestamps to the minute (UTC). */
export function text(value: unknown): string {
  if (value === true) return staffText('record_view.yes');
  if (value === false) return staffText('record_view.no');
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
  const list = (Array.isArray(items) ? items : []).filter(isRecord);
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
  personal: columns('', ['personal.age', 'personal.engagement_preference', 'personal.engagement_notes']),
  accommodation: columns('', [
    'accommodation.assigned_room',
    'accommodation.venue_name',
    'accommodation.rooming_exempt',
    'accommodation.gender_identity_other',
    'accommodation.preferred_roommate_genders',
  ]),
};
const TRAVEL_EXTRA: Column[] = columns('travel.', [
  'expected_arrival_time',
  'visa_required',
  'visa_status',
  'visa_type',
  'visa_number',
  'passport_nationality',
  'is_unaccompanied_minor',
  'train_departure_station',
  'train_arrival_station',
  'departure_station',
  'arrival_station',
  'bus_departure_location',
  'bus_arrival_location',
  'origin_address',
  'other_details',
  'pickup_dismissed_at',
]);

/** Rows of `pairs` whose value is set (not null, empty or false). */
const setRowsOf = (obj: unknown, pairs: readonly Column[]) =>
  rowsOf(obj, pairs).filter((r) => r.value !== '—' && r.value !== staffText('record_view.no'));
const LEG_COLUMNS: Column[] = columns('legs[].', [
  'flight_code',
  'departure_airport',
  'arrival_airport',
  'departure_time',
  'departure_local',
  'arrival_time',
  'arrival_local',
  'live_status',
  'travel_picked_up_at',
]);
const CONTACT_COLUMNS: Column[] = columns('emergency_contacts[].', [
  'name',
  'relationship',
  'phone',
  'priority',
]);
export const GUARDIAN_COLUMNS: Column[] = columns('guardians[].', [
  'name',
  'relationship',
  'email',
  'phone',
  'is_primary',
  'status',
  'completed_at',
  'media_permission',
  'photo_permission',
  'travel_permission',
  'emergency_medical_consent',
  'otc_medication_consent',
]);

/** The record's guardians with their status in staff words (GUARDIAN_STATUS_LABELS). */
function guardiansOf(detail: Detail) {
  return detail.guardians.map((g) => ({ ...g, status: GUARDIAN_STATUS_LABELS[g.status] ?? g.status }));
}

function travelBlocks(detail: Detail, key: 'travel_inbound' | 'travel_outbound', section: Section): Block[] {
  const travel = detail[key];
  const heading =
    key === 'travel_inbound' ? staffText('record_view.getting_there') : staffText('record_view.going_home');
  if (!travel)
    return [
      {
        kind: 'dl',
        heading,
        rows: [
          { label: staffText('record_view.travel'), value: staffText('record_view.no_travel_recorded') },
        ],
      },
    ];
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
    tableOf(
      staffText('record_view.legs_caption', { heading }),
      travel.legs,
      LEG_COLUMNS,
      staffText('record_view.no_legs_recorded'),
    ),
  ];
}

/**
 * The blocks of one editable section for this caller's `detail`; empty when the caller sees
 * nothing of it (e.g. medical detail for `ops`, who still sees the risk flags).
 */
export function sectionBlocks(section: Section, detail: Detail): Block[] {
  if (section.key === 'travel')
    return [
      ...travelBlocks(detail, 'travel_inbound', section),
      ...travelBlocks(detail, 'travel_outbound', section),
    ];
  if (section.key === 'emergency-contacts')
    return 'emergency_contacts' in detail
      ? [
          tableOf(
            staffText('record_view.emergency_contacts'),
            detail.emergency_contacts,
            CONTACT_COLUMNS,
            staffText('record_view.no_emergency_contacts'),
          ),
        ]
      : [];
  if (section.key === 'guardians')
    return [
      tableOf(
        staffText('record_view.parents_or_guardians'),
        guardiansOf(detail),
        GUARDIAN_COLUMNS,
        staffText('record_view.no_guardians'),
      ),
    ];
  const pairs = section.groups.flatMap((g) => g.fields.map((f) => [f.label, f.name] as const));
  if (section.key === 'accessibility' && !('accessibility' in detail)) return [];
  const rows = [...rowsOf(detail, pairs), ...setRowsOf(detail, EXTRA[section.key] ?? [])];
  return rows.length > 0 ? [{ kind: 'dl', rows }] : [];
}

/**
 * Consents, scans by context: the record's status tables. `titles`: the event's documents by type
 * (custom ones under their own title; `eventConsentTitles`).
 */
export function statusBlocks(detail: Detail, titles: ReadonlyMap<string, string> = new Map()): Block[] {
  const consents = detail.consents.map((c) => ({
    ...c,
    consent_type: titles.get(c.consent_type) ?? consentTitle(c.consent_type),
  }));
  return [
    tableOf(
      staffText('record_view.consents'),
      consents,
      [
        [staffText('record_view.consent'), 'consent_type'],
        [staffText('record_view.status'), 'status'],
        [staffText('record_view.waiting_on'), 'pending_on'],
        [staffText('record_view.sent'), 'sent_at'],
        [staffText('record_view.signed'), 'signed_at'],
        [staffText('record_view.failure'), 'failure_reason'],
      ],
      staffText('record_view.no_consents_requested_yet'),
    ),
    tableOf(
      staffText('record_view.scans_by_context'),
      detail.scans_by_context,
      [
        [staffText('record_view.scan_context'), 'scan_context_name'],
        [staffText('record_view.checks_in'), 'checks_in'],
        [staffText('record_view.travel_pickup'), 'is_travel_pickup'],
        [staffText('record_view.scans'), 'scan_count'],
        [staffText('record_view.first'), 'first_scanned_at'],
        [staffText('record_view.last'), 'last_scanned_at'],
      ],
      staffText('record_view.this_event_has_no_scan_contexts'),
    ),
  ];
}

/** The summary at the top of the page: contact, check-in and the flags every participants role sees. */
export function summaryRows(detail: Detail): Row[] {
  return rowsOf(
    detail,
    columns('summary.', [
      'email',
      'phone',
      'pronouns',
      'checked_in_at',
      'waiver_signed',
      'has_anaphylaxis_risk',
      'requires_refrigeration',
      'cross_contamination_risk',
      'high_support_flag',
      'can_leave_unaccompanied',
      'updated_at',
    ]),
  );
}
