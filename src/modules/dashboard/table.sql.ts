/**
 * Static SQL text of the staff participants table (docs/staff-dashboard.md): filter conditions,
 * sort keys and the columns each visibility may receive. Aliases: r registrations, p people,
 * e events. No user input is ever part of these strings (values are bound parameters, as the consent type of
 * `consentOutstanding`).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Visibility } from '../../access/policy.js';
import { CHECKED_IN, FIRST_CHECK_IN, IS_MINOR } from '../exports/presets.js';
import { iso, obj, type Pair } from '../participants/participants.serialize.js';

export { CHECKED_IN, IS_MINOR };

const travel = (direction: 'inbound' | 'outbound') =>
  `EXISTS (SELECT 1 FROM travels t WHERE t.registration_id = r.id AND t.direction = '${direction}')`;
export const HAS_INBOUND = travel('inbound');
export const HAS_OUTBOUND = travel('outbound');

/**
 * Awaiting pickup: the travel calendar's `awaiting_pickup` state (docs/decisions.md "Travel calendar"; travel.service.ts)
 * for a `complete` registration's inbound travel: its final leg not collected, not checked in,
 * pickup not dismissed.
 */
export const AWAITING_PICKUP = `(r.status = 'complete' AND NOT ${CHECKED_IN} AND EXISTS (
  SELECT 1 FROM travels t WHERE t.registration_id = r.id AND t.direction = 'inbound' AND t.pickup_dismissed_at IS NULL
     AND (SELECT l.travel_picked_up_at FROM travel_legs l WHERE l.travel_id = t.id
           ORDER BY l.position DESC, l.id DESC LIMIT 1) IS NULL))`;

/** Any answer in the medical section beyond "nothing" (sensitive callers only). */
export const HAS_MEDICAL = `EXISTS (SELECT 1 FROM registration_medical m WHERE m.registration_id = r.id AND (
  m.has_anaphylaxis_risk OR m.requires_refrigeration
  OR COALESCE(btrim(m.allergies), '') <> '' OR COALESCE(btrim(m.medical_conditions), '') <> ''
  OR COALESCE(btrim(m.medications), '') <> '' OR COALESCE(btrim(m.life_threatening_allergies), '') <> ''))`;

/** A diet other than none, an intolerance or a cross-contamination risk (sensitive callers only). */
export const HAS_DIETARY = `EXISTS (SELECT 1 FROM registration_dietary d WHERE d.registration_id = r.id AND (
  d.cross_contamination_risk OR COALESCE(btrim(d.intolerances), '') <> ''
  OR lower(COALESCE(btrim(d.diet_type), 'none')) NOT IN ('', 'none')))`;

/**
 * A consent of `type` not yet signed (pending, sent or viewed) on a registration neither withdrawn
 * nor rejected: the rows behind the overview's "Consents outstanding" count of that type.
 */
export const consentOutstanding = (type: string): SQL => sql`(r.status NOT IN ('withdrawn', 'rejected')
  AND EXISTS (SELECT 1 FROM consents c WHERE c.registration_id = r.id AND c.consent_type = ${type}
     AND c.status IN ('pending', 'sent', 'viewed')))`;

/** The funnel order of statuses (docs/decisions.md "Registration lifecycle"), for sorting by status. */
export const STATUS_ORDER = `array_position(ARRAY['invited','in_progress','awaiting_guardian','complete','withdrawn','rejected'], r.status)`;

export const SORT_KEYS = {
  name: ['lower(p.legal_last_name)', 'lower(p.legal_first_name)'],
  status: [STATUS_ORDER, 'lower(p.legal_last_name)', 'lower(p.legal_first_name)'],
  // The first check-in, kept on the registration by the scans triggers (drizzle/0016): a column
  // read, where an aggregate over every scan of the event grew slower with each scan of the day.
  checked_in: ['r.first_checked_in_at'],
  updated: ['r.updated_at'],
} as const;
export type SortKey = keyof typeof SORT_KEYS;

const arrival = `(SELECT COALESCE((SELECT l.arrival_time FROM travel_legs l WHERE l.travel_id = t.id
    ORDER BY l.position DESC, l.id DESC LIMIT 1), t.arrival_time, t.expected_arrival_time)
  FROM travels t WHERE t.registration_id = r.id AND t.direction = 'inbound')`;
const departure = `(SELECT COALESCE((SELECT l.departure_time FROM travel_legs l WHERE l.travel_id = t.id
    ORDER BY l.position, l.id LIMIT 1), t.departure_time)
  FROM travels t WHERE t.registration_id = r.id AND t.direction = 'outbound')`;

/**
 * The table's columns for a caller of visibility `v` (docs/decisions.md "Credentials and roles"): everyone with participants
 * access gets names, email, status, minor, check-in, travel and the non-sensitive summary flags;
 * `pii` adds phone and date of birth; `sensitive` adds the diet and medical detail.
 */
export function tableRowPairs(v: Visibility): Pair[] {
  return [
    ['participant_event_id', 'r.id'],
    ['participant_id', 'p.id'],
    [
      'display_name',
      `COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name || ' ' || p.legal_last_name)`,
    ],
    ['full_name', `p.legal_first_name || ' ' || p.legal_last_name`],
    ['email', 'p.email'],
    ['status', 'r.status'],
    ['minor', IS_MINOR],
    ['checked_in_at', iso(`(${FIRST_CHECK_IN})`)],
    ['inbound', HAS_INBOUND],
    ['arrival_at', iso(arrival)],
    ['outbound', HAS_OUTBOUND],
    ['departure_at', iso(departure)],
    ['awaiting_pickup', AWAITING_PICKUP],
    ['has_anaphylaxis_risk', 'COALESCE(med.has_anaphylaxis_risk, false)'],
    ['cross_contamination_risk', 'COALESCE(diet.cross_contamination_risk, false)'],
    ['high_support_flag', 'COALESCE(sg.high_support_flag, false)'],
    ...(v.pii
      ? ([
          ['phone', 'p.phone'],
          ['date_of_birth', `to_char(p.date_of_birth, 'YYYY-MM-DD')`],
        ] satisfies Pair[])
      : []),
    ...(v.sensitive
      ? ([
          ['diet_type', 'diet.diet_type'],
          ['allergies', 'med.allergies'],
          ['medical_conditions', 'med.medical_conditions'],
        ] satisfies Pair[])
      : []),
  ];
}

/** SELECT text of one table row as JSON (column `j`) for the ids of a page. */
export function tableRowSelect(v: Visibility): string {
  return `SELECT r.id, ${obj(tableRowPairs(v))} AS j
    FROM registrations r JOIN people p ON p.id = r.person_id JOIN events e ON e.id = r.event_id
    LEFT JOIN registration_medical med ON med.registration_id = r.id
    LEFT JOIN registration_dietary diet ON diet.registration_id = r.id
    LEFT JOIN registration_safeguarding sg ON sg.registration_id = r.id`;
}
