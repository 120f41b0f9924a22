/** Item keys written to each section table (snake_case keys; columns are their camelCase). */
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
export const MEDICAL_TOP = [
  'allergies',
  'medical_conditions',
  'medications',
  'life_threatening_allergies',
  'has_anaphylaxis_risk',
  'requires_refrigeration',
] as const;
export const MEDICAL_DETAIL = ['allergy_severity', 'emergency_action_plan', 'additional_notes'] as const;
export const DIETARY_TOP = ['diet_type', 'cross_contamination_risk'] as const;
export const DIETARY_DETAIL = ['intolerances', 'notes'] as const;
export const SAFEGUARDING_TOP = ['high_support_flag', 'can_leave_unaccompanied'] as const;
export const SAFEGUARDING_TEXT = [
  'high_support_notes',
  'authorized_pickup_adults',
  'other_instructions',
] as const;
export const SAFEGUARDING_FLAGS = ['curfew_acknowledged', 'overnight_rules_acknowledged'] as const;
export const CONSENT_KEYS = [
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
export const GUARDIAN_KEYS = [
  'name',
  'phone',
  'relationship',
  'is_primary',
  'status',
  'accepted_at',
  'completed_at',
  'invite_token_sent_at',
  'invited_via_email',
  'media_permission',
  'photo_permission',
  'travel_permission',
  'emergency_medical_consent',
  'otc_medication_consent',
] as const;
export const TRAVEL_KEYS = [
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
  'origin_address',
  'other_details',
  'notes',
  'pickup_dismissed_at',
] as const;
export const LEG_KEYS = [
  'flight_code',
  'departure_airport',
  'arrival_airport',
  'departure_time',
  'arrival_time',
  'live_status',
  'live_departure_time',
  'live_arrival_time',
  'travel_picked_up_at',
] as const;
