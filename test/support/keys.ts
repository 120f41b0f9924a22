/**
 * Exact key sets of participant payloads per visibility class, transcribed from the spec
 * ("Participant", "ParticipantDetail", "ScansByContext", "Travel", "TravelLeg") and docs/decisions.md "Status codes and check order":
 * keys the caller may not see are ABSENT (not null); travel_inbound/outbound absent without a record.
 *
 * Classes: `sensitive` = global admin or safeguarding lead (sensitive + PII); `pii` = ops,
 * event_admin, series roles (PII, no sensitive); `limited` = neither.
 */
import { expect } from 'vitest';

export type VisibilityClass = 'sensitive' | 'pii' | 'limited';

export const PARTICIPANT_BASE_KEYS = [
  'participant_id',
  'participant_event_id',
  'display_name',
  'full_name',
  'email',
  'chat_user_id',
  'slack_user_id',
  'pronouns',
  'headshot_url',
  'status',
  'checked_in_at',
  'nfc_badge_token',
  'nfc_badge_assigned',
  'has_anaphylaxis_risk',
  'requires_refrigeration',
  'cross_contamination_risk',
  'high_support_flag',
  'can_leave_unaccompanied',
  'waiver_signed',
  'updated_at',
  'scans_by_context',
] as const;
export const PARTICIPANT_PII_KEYS = ['phone'] as const;
export const PARTICIPANT_SENSITIVE_KEYS = [
  'allergies',
  'medical_conditions',
  'medications',
  'diet_type',
  'life_threatening_allergies',
  'freedom_waiver_granted',
  'emergency_contacts',
] as const;
/** Sensitive, and present only when the registration has a guardian. */
export const PARENT_GUARDIAN_KEYS = [
  'parent_guardian_name',
  'parent_guardian_phone',
  'parent_guardian_email',
] as const;
export const EMERGENCY_CONTACT_KEYS = ['name', 'phone', 'relationship', 'priority'] as const;

export const SCANS_BY_CONTEXT_KEYS = [
  'scan_context_id',
  'scan_context_name',
  'checks_in',
  'is_travel_pickup',
  'is_airport',
  'scan_count',
  'first_scanned_at',
  'last_scanned_at',
] as const;

export const TRAVEL_BASE_KEYS = [
  'id',
  'direction',
  'mode',
  'visa_required',
  'visa_status',
  'visa_type',
  'visa_number',
  'passport_nationality',
  'is_unaccompanied_minor',
  'carrier',
  'flight_number',
  'train_departure_station',
  'train_arrival_station',
  'departure_station',
  'arrival_station',
  'departure_city',
  'arrival_city',
  'departure_time',
  'arrival_time',
  'expected_arrival_time',
  'bus_departure_location',
  'bus_arrival_location',
  'other_details',
  'notes',
  'pickup_dismissed_at',
  'legs',
] as const;
export const TRAVEL_PII_KEYS = ['origin_address'] as const;

export const TRAVEL_LEG_KEYS = [
  'id',
  'position',
  'flight_code',
  'departure_airport',
  'arrival_airport',
  'departure_time',
  'arrival_time',
  'live_status',
  'live_departure_time',
  'live_arrival_time',
  'travel_picked_up_at',
  'airport_picked_up_at',
] as const;

export const DETAIL_SECTION_KEYS = ['personal', 'accommodation', 'consents', 'guardians'] as const;
export const DETAIL_SENSITIVE_SECTION_KEYS = [
  'medical_detail',
  'dietary_detail',
  'accessibility',
  'safeguarding_detail',
] as const;

export const PERSONAL_BASE_KEYS = [
  'legal_first_name',
  'legal_last_name',
  'preferred_name',
  'age',
  'tshirt_size',
  'engagement_preference',
  'engagement_notes',
] as const;
export const PERSONAL_PII_KEYS = ['date_of_birth', 'address'] as const;

export const ACCOMMODATION_KEYS = [
  'check_in_date',
  'check_out_date',
  'gender_identity',
  'gender_identity_other',
  'assigned_room',
  'rooming_exempt',
  'venue_name',
  'preferred_roommate_genders',
  'roommate_preferences',
  'roommate_exclusions',
  'quiet_room_preference',
  'room_type_preference',
  'accessibility_needs',
  'notes',
] as const;

export const CONSENT_KEYS = [
  'id',
  'consent_type',
  'status',
  'pending_on',
  'sent_at',
  'viewed_at',
  'participant_signed_at',
  'guardian_signed_at',
  'signed_at',
  'document_url',
  'failure_reason',
] as const;

export const GUARDIAN_BASE_KEYS = [
  'id',
  'guardian_id',
  'name',
  'relationship',
  'is_primary',
  'status',
  'accepted_at',
  'completed_at',
  'invite_token_sent_at',
  'media_permission',
  'photo_permission',
  'travel_permission',
  'emergency_medical_consent',
  'otc_medication_consent',
  'emergency_contacts',
] as const;
/**
 * Guardian contact details hidden from `limited`. `invited_via_email` is the address the guardian was
 * invited at — the guardian's email under another name — so it follows the guardian email rule
 * (our reading; the spec does not classify it).
 */
export const GUARDIAN_PII_KEYS = ['email', 'phone', 'invited_via_email'] as const;
/** guardians[].emergency_contacts items: phone/email are contact PII (same rule as guardian email/phone). */
export const GUARDIAN_CONTACT_BASE_KEYS = ['id', 'name', 'relationship', 'priority'] as const;
export const GUARDIAN_CONTACT_PII_KEYS = ['phone', 'email'] as const;

export const MEDICAL_DETAIL_KEYS = ['allergy_severity', 'emergency_action_plan', 'additional_notes'] as const;
export const DIETARY_DETAIL_KEYS = ['intolerances', 'notes'] as const;
export const SAFEGUARDING_DETAIL_KEYS = [
  'high_support_notes',
  'authorized_pickup_adults',
  'other_instructions',
  'curfew_acknowledged',
  'overnight_rules_acknowledged',
] as const;

export const LOOKUP_KEYS = ['email', 'registered', 'participant_id', 'status'] as const;
export const ROSTER_ENTRY_KEYS = [
  'email',
  'first_name',
  'last_name',
  'chat_user_id',
  'slack_user_id',
  'status',
] as const;

export interface RegistrationShape {
  hasInbound: boolean;
  hasOutbound: boolean;
  hasGuardian: boolean;
}

const sorted = (keys: Iterable<string>) => [...keys].sort();
const hasPii = (cls: VisibilityClass) => cls !== 'limited';
const hasSensitive = (cls: VisibilityClass) => cls === 'sensitive';

export function expectedParticipantKeys(
  cls: VisibilityClass,
  reg: RegistrationShape,
  detail = false,
): string[] {
  const keys: string[] = [...PARTICIPANT_BASE_KEYS];
  if (hasPii(cls)) keys.push(...PARTICIPANT_PII_KEYS);
  if (hasSensitive(cls)) {
    keys.push(...PARTICIPANT_SENSITIVE_KEYS);
    if (reg.hasGuardian) keys.push(...PARENT_GUARDIAN_KEYS);
  }
  if (reg.hasInbound) keys.push('travel_inbound');
  if (reg.hasOutbound) keys.push('travel_outbound');
  if (detail) {
    keys.push(...DETAIL_SECTION_KEYS);
    if (hasSensitive(cls)) keys.push(...DETAIL_SENSITIVE_SECTION_KEYS);
  }
  return sorted(keys);
}

type Json = Record<string, unknown>;
const keysOf = (value: unknown) => sorted(Object.keys(value as Json));

/** Asserts the exact key set of one participant (list/search item or detail) and of every nested object. */
export function expectParticipantShape(
  p: Json,
  cls: VisibilityClass,
  reg: RegistrationShape,
  detail = false,
  label = '',
): void {
  const where = `${label} participant ${String(p.participant_event_id)} (${cls}${detail ? ', detail' : ''})`;
  expect(keysOf(p), where).toEqual(expectedParticipantKeys(cls, reg, detail));

  for (const s of p.scans_by_context as Json[]) {
    expect(keysOf(s), `${where} scans_by_context`).toEqual(sorted(SCANS_BY_CONTEXT_KEYS));
  }
  for (const dir of ['travel_inbound', 'travel_outbound'] as const) {
    const t = p[dir] as Json | undefined;
    if (!t) continue;
    const travelKeys = [...TRAVEL_BASE_KEYS, ...(hasPii(cls) ? TRAVEL_PII_KEYS : [])];
    expect(keysOf(t), `${where} ${dir}`).toEqual(sorted(travelKeys));
    for (const leg of t.legs as Json[])
      expect(keysOf(leg), `${where} ${dir}.legs[]`).toEqual(sorted(TRAVEL_LEG_KEYS));
  }
  if (hasSensitive(cls)) {
    for (const c of p.emergency_contacts as Json[]) {
      expect(keysOf(c), `${where} emergency_contacts[]`).toEqual(sorted(EMERGENCY_CONTACT_KEYS));
    }
  }
  if (!detail) return;

  const personalKeys = [...PERSONAL_BASE_KEYS, ...(hasPii(cls) ? PERSONAL_PII_KEYS : [])];
  expect(keysOf(p.personal), `${where} personal`).toEqual(sorted(personalKeys));
  if (p.accommodation !== null)
    expect(keysOf(p.accommodation), `${where} accommodation`).toEqual(sorted(ACCOMMODATION_KEYS));
  for (const c of p.consents as Json[])
    expect(keysOf(c), `${where} consents[]`).toEqual(sorted(CONSENT_KEYS));
  for (const g of p.guardians as Json[]) {
    expect(keysOf(g), `${where} guardians[]`).toEqual(
      sorted([...GUARDIAN_BASE_KEYS, ...(hasPii(cls) ? GUARDIAN_PII_KEYS : [])]),
    );
    for (const c of g.emergency_contacts as Json[]) {
      expect(keysOf(c), `${where} guardians[].emergency_contacts[]`).toEqual(
        sorted([...GUARDIAN_CONTACT_BASE_KEYS, ...(hasPii(cls) ? GUARDIAN_CONTACT_PII_KEYS : [])]),
      );
    }
  }
  if (hasSensitive(cls)) {
    if (p.medical_detail !== null)
      expect(keysOf(p.medical_detail), `${where} medical_detail`).toEqual(sorted(MEDICAL_DETAIL_KEYS));
    if (p.dietary_detail !== null)
      expect(keysOf(p.dietary_detail), `${where} dietary_detail`).toEqual(sorted(DIETARY_DETAIL_KEYS));
    if (p.safeguarding_detail !== null) {
      expect(keysOf(p.safeguarding_detail), `${where} safeguarding_detail`).toEqual(
        sorted(SAFEGUARDING_DETAIL_KEYS),
      );
    }
  }
}

/**
 * Values planted by test/support/world.ts that only some classes may see anywhere in a body.
 * A raw-text check catches leaks through fields the key-set checks do not name.
 */
export const SENSITIVE_VALUES = [
  'Peanuts',
  'Asthma',
  'Inhaler',
  'vegetarian',
  'lactose',
  'No mushrooms',
  'EpiPen then 999',
  'Carries two pens',
  'Needs ramp',
  'Check in twice daily',
  'Andy Anderson',
  '+447700900001',
  'Uncle Minor',
  '+447700900201',
] as const;
export const PII_VALUES = [
  '+447700900999',
  '1990-04-01',
  '1 High Street',
  '1 Beacon St, Boston MA',
  'Summit venue',
  'gina.guardian@example.com',
  '+447700900100',
  'gus.guardian@example.com',
  '+447700900101',
  '+447700900200',
  'grandma@example.com',
] as const;

/** Asserts that a raw response body holds no value the class may not see. */
export function expectNoLeaks(body: string, cls: VisibilityClass, label = ''): void {
  const forbidden = [...(hasSensitive(cls) ? [] : SENSITIVE_VALUES), ...(hasPii(cls) ? [] : PII_VALUES)];
  const leaked = forbidden.filter((v) => body.includes(JSON.stringify(v).slice(1, -1)));
  expect(leaked, `${label}: values leaked to a ${cls} caller`).toEqual([]);
}
