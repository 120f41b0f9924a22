/**
 * The only place that decides which participant fields a caller sees (docs/decisions.md "Credentials and roles"). The JSON
 * is built by PostgreSQL (architecture: hot list endpoints may build JSON in SQL), from static SQL
 * text chosen by the caller's Visibility — no user input is ever part of these strings.
 * Timestamps use the same format as lib/time.ts (test/http/participants.test.ts compares them).
 *
 * Row aliases expected by the fragments: r = registrations, p = people, e = events,
 * med/diet/sg/acc/ax = section rows (LEFT JOINed), ti/tout = travel JSON, pg = first guardian.
 */
import type { Visibility } from '../../access/policy.js';
import { isoSqlText } from '../../lib/time.js';

export type Pair = readonly [key: string, expr: string];

/** timestamptz column → ISO 8601 UTC with microseconds (NULL stays NULL). */
export const iso = isoSqlText;

/** `json_build_object(...)` text over key/expression pairs (keys are static identifiers). */
export const obj = (pairs: readonly Pair[]) =>
  `json_build_object(${pairs.map(([k, v]) => `'${k}', ${v}`).join(', ')})`;

const SCANS_BY_CONTEXT = `COALESCE((
  SELECT json_agg(${obj([
    ['scan_context_id', 'sc.id'],
    ['scan_context_name', 'sc.name'],
    ['checks_in', 'sc.checks_in'],
    ['is_travel_pickup', 'sc.is_travel_pickup'],
    ['is_airport', 'sc.is_travel_pickup'],
    ['scan_count', 'COALESCE(sx.n, 0)'],
    ['first_scanned_at', iso('sx.first_at')],
    ['last_scanned_at', iso('sx.last_at')],
    // Presence (docs/checkin.md "Presence"): null where the context does not track it.
    ['inside', `CASE WHEN sc.tracks_presence THEN COALESCE(sx.last_type = 'entry', false) END`],
    ['last_exit_at', iso('sx.exit_at')],
  ])} ORDER BY sc.position, sc.id)
  FROM scan_contexts sc
  LEFT JOIN LATERAL (SELECT count(*)::int AS n, min(s.scanned_at) AS first_at, max(s.scanned_at) AS last_at,
                            max(s.scanned_at) FILTER (WHERE s.type = 'exit') AS exit_at,
                            (array_agg(s.type ORDER BY s.scanned_at DESC, s.id DESC))[1] AS last_type
                       FROM scans s WHERE s.registration_id = r.id AND s.scan_context_id = sc.id) sx ON true
  WHERE sc.event_id = r.event_id), '[]'::json)`;

const CHECKED_IN_AT = `(SELECT min(s.scanned_at) FROM scans s JOIN scan_contexts sc ON sc.id = s.scan_context_id AND sc.checks_in WHERE s.registration_id = r.id)`;
const WAIVER_SIGNED = `EXISTS (SELECT 1 FROM consents c WHERE c.registration_id = r.id AND c.consent_type = 'waiver' AND c.status = 'signed')`;

function legsJson(): string {
  return `COALESCE((SELECT json_agg(${obj([
    ['id', 'l.id'],
    ['position', 'l.position'],
    ['flight_code', 'l.flight_code'],
    ['departure_airport', 'l.departure_airport'],
    ['arrival_airport', 'l.arrival_airport'],
    ['departure_time', iso('l.departure_time')],
    ['arrival_time', iso('l.arrival_time')],
    ['live_status', 'l.live_status'],
    ['live_departure_time', iso('l.live_departure_time')],
    ['live_arrival_time', iso('l.live_arrival_time')],
    ['travel_picked_up_at', iso('l.travel_picked_up_at')],
    ['airport_picked_up_at', iso('l.travel_picked_up_at')],
  ])} ORDER BY l.position, l.id) FROM travel_legs l WHERE l.travel_id = t.id), '[]'::json)`;
}

/** LATERAL subquery text yielding column `j` (json) for one travel direction, or no row. */
export function travelLateral(direction: 'inbound' | 'outbound', v: Visibility): string {
  const pairs: Pair[] = [
    ['id', 't.id'],
    ['direction', 't.direction'],
    ['mode', 't.mode'],
    ['visa_required', 't.visa_required'],
    ['visa_status', 't.visa_status'],
    ['visa_type', 't.visa_type'],
    ['visa_number', 't.visa_number'],
    ['passport_nationality', 't.passport_nationality'],
    ['is_unaccompanied_minor', 't.is_unaccompanied_minor'],
    ['carrier', 't.carrier'],
    ['flight_number', 't.flight_number'],
    ['train_departure_station', 't.train_departure_station'],
    ['train_arrival_station', 't.train_arrival_station'],
    ['departure_station', 't.departure_station'],
    ['arrival_station', 't.arrival_station'],
    ['departure_city', 't.departure_city'],
    ['arrival_city', 't.arrival_city'],
    ['departure_time', iso('t.departure_time')],
    ['arrival_time', iso('t.arrival_time')],
    ['expected_arrival_time', iso('t.expected_arrival_time')],
    ['bus_departure_location', 't.bus_departure_location'],
    ['bus_arrival_location', 't.bus_arrival_location'],
    ...(v.pii ? ([['origin_address', 't.origin_address']] satisfies Pair[]) : []),
    ['other_details', 't.other_details'],
    ['notes', 't.notes'],
    ['pickup_dismissed_at', iso('t.pickup_dismissed_at')],
    ['legs', legsJson()],
  ];
  return `(SELECT ${obj(pairs)} AS j FROM travels t WHERE t.registration_id = r.id AND t.direction = '${direction}')`;
}

/** Key/value pairs of the spec's Participant for this visibility (always-present keys). */
export function participantPairs(v: Visibility): Pair[] {
  const pairs: Pair[] = [
    ['participant_id', 'p.id'],
    ['participant_event_id', 'r.id'],
    [
      'display_name',
      `COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name || ' ' || p.legal_last_name)`,
    ],
    ['full_name', `p.legal_first_name || ' ' || p.legal_last_name`],
    ['email', 'p.email'],
    ['chat_user_id', 'p.chat_user_id'],
    // The name the deployed mobile app reads (its NFC badge writing needs it); docs/decisions.md "Participants API".
    ['slack_user_id', 'p.chat_user_id'],
    ...(v.pii ? ([['phone', 'p.phone']] satisfies Pair[]) : []),
    ['pronouns', 'p.pronouns'],
    ['headshot_url', 'p.headshot_url'],
    ['status', 'r.status'],
    ['checked_in_at', iso(CHECKED_IN_AT)],
    ['nfc_badge_token', `CASE WHEN (e.modules->>'nfc_badges_enabled')::boolean THEN r.nfc_badge_token END`],
    [
      'nfc_badge_assigned',
      `(COALESCE((e.modules->>'nfc_badges_enabled')::boolean, false) AND r.nfc_badge_token IS NOT NULL AND r.nfc_badge_assigned_at IS NOT NULL)`,
    ],
    ['has_anaphylaxis_risk', 'COALESCE(med.has_anaphylaxis_risk, false)'],
    ['requires_refrigeration', 'COALESCE(med.requires_refrigeration, false)'],
    ['cross_contamination_risk', 'COALESCE(diet.cross_contamination_risk, false)'],
    ['high_support_flag', 'COALESCE(sg.high_support_flag, false)'],
    ['can_leave_unaccompanied', 'COALESCE(sg.can_leave_unaccompanied, false)'],
    ['waiver_signed', WAIVER_SIGNED],
    ['updated_at', iso('r.updated_at')],
    ['scans_by_context', SCANS_BY_CONTEXT],
  ];
  if (v.sensitive) {
    pairs.push(
      ['allergies', 'med.allergies'],
      ['medical_conditions', 'med.medical_conditions'],
      ['medications', 'med.medications'],
      ['diet_type', 'diet.diet_type'],
      ['life_threatening_allergies', 'med.life_threatening_allergies'],
      ['freedom_waiver_granted', 'r.freedom_waiver_granted'],
      [
        'emergency_contacts',
        `COALESCE((SELECT json_agg(${obj([
          ['name', 'c.name'],
          ['phone', 'c.phone'],
          ['relationship', 'c.relationship'],
          ['priority', 'c.priority'],
        ])} ORDER BY c.priority, c.id) FROM emergency_contacts c WHERE c.registration_id = r.id), '[]'::json)`,
      ],
    );
  }
  return pairs;
}

/** Keys present only when their value exists (travel records; the guardian for sensitive callers). */
export function optionalPairs(v: Visibility): Pair[] {
  const pairs: Pair[] = [
    ['travel_inbound', 'ti.j'],
    ['travel_outbound', 'tout.j'],
  ];
  if (v.sensitive) {
    pairs.push(
      ['parent_guardian_name', `CASE WHEN pg.id IS NOT NULL THEN to_json(COALESCE(pg.name, '')) END`],
      ['parent_guardian_phone', `CASE WHEN pg.id IS NOT NULL THEN to_json(pg.phone) END`],
      ['parent_guardian_email', `CASE WHEN pg.id IS NOT NULL THEN to_json(pg.email) END`],
    );
  }
  return pairs;
}

/** JSON text of one object: the always-present pairs, then each optional pair only when non-NULL. */
export function objectText(pairs: readonly Pair[], optional: readonly Pair[]): string {
  const tail = optional
    .map(([k, v]) => `CASE WHEN ${v} IS NULL THEN '' ELSE ', "${k}" : ' || (${v})::text END`)
    .join(' || ');
  return `left(${obj(pairs)}::text, -1) || ${tail || "''"} || '}'`;
}

/** FROM clause shared by list, search and detail. */
export function participantFrom(v: Visibility): string {
  return `registrations r
  JOIN people p ON p.id = r.person_id
  JOIN events e ON e.id = r.event_id
  LEFT JOIN registration_medical med ON med.registration_id = r.id
  LEFT JOIN registration_dietary diet ON diet.registration_id = r.id
  LEFT JOIN registration_safeguarding sg ON sg.registration_id = r.id
  LEFT JOIN LATERAL ${travelLateral('inbound', v)} ti ON true
  LEFT JOIN LATERAL ${travelLateral('outbound', v)} tout ON true
  ${v.sensitive ? 'LEFT JOIN LATERAL (SELECT g.id, g.name, g.phone, g.email FROM guardians g WHERE g.registration_id = r.id ORDER BY g.is_primary DESC, g.id LIMIT 1) pg ON true' : ''}`;
}

/** SQL text yielding JSON text of one Participant per row (column `j`). */
export function participantSelect(v: Visibility): string {
  return `${objectText(participantPairs(v), optionalPairs(v))} AS j`;
}
