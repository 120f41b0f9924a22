/**
 * The one label table of the staff pages (docs/staff-dashboard.md "Plain words"): how a wire field
 * name (`ends_at`, `dietary_detail.intolerances`, `send_at`) reads wherever a person meets it — a
 * page, a page's error message, the participant page's history, the audit trail. The API keeps the
 * wire names (its readers are programs; docs/decisions.md "Plain words on pages, wire names in the API").
 *
 * Record fields take the registration form's own labels (web/sections.ts, English catalog `form.*`),
 * so a field reads the same on the form, the participant page and its history; everything else is
 * listed in LABELS, the participant page's read-only rows and table columns under their table's
 * prefix (`summary.`, `travel.`, `legs[].`, `guardians[].`, `emergency_contacts[].`). A name in neither is shown with its underscores and dots as spaces (never as a
 * wire name), and a test pins that every field the services name in a change or error is listed.
 */
import { SECTIONS } from '../web/sections.js';

/** Labels of wire names that are not fields of the registration form (or read better than its label). */
const LABELS: Record<string, string> = {
  // Events (the setup wizard, the event API's messages).
  name: 'Name',
  slug: 'Web address',
  starts_at: 'Start',
  ends_at: 'End',
  timezone: 'Time zone',
  registration_open_at: 'Registration opens',
  registration_close_at: 'Registration closes',
  support_email: 'Support email',
  location_city: 'City',
  location_country: 'Country',
  default_language: 'Default language',
  languages: 'Languages',
  // Announcements, bans, keys.
  send_at: 'Send time',
  expires_at: 'End date',
  event_id: 'Event',
  // Record sections and the fields the form names differently (history, errors).
  personal: 'Personal details',
  accommodation: 'Accommodation',
  medical_detail: 'Medical details',
  dietary_detail: 'Dietary details',
  accessibility: 'Accessibility',
  safeguarding_detail: 'Safeguarding',
  travel_inbound: 'Travel there',
  travel_outbound: 'Travel home',
  emergency_contacts: 'Emergency contacts',
  guardians: 'Parents or guardians',
  phone: 'Phone',
  pronouns: 'Pronouns',
  diet_type: 'Diet',
  'personal.address': 'Home address',
  'accommodation.notes': 'Accommodation notes',
  'dietary_detail.notes': 'Dietary notes',
  'accessibility.notes': 'Other access needs',
  'medical_detail.additional_notes': 'Medical notes',
  'safeguarding_detail.notes': 'Safeguarding notes',
  'safeguarding_detail.high_support_flag': 'High support',
  'safeguarding_detail.can_leave_unaccompanied': 'May leave unaccompanied',
  // The participant page's history sections (its filter).
  status: 'Status',
  medical: 'Medical',
  dietary: 'Dietary',
  safeguarding: 'Safeguarding',
  travel: 'Travel',
  consents: 'Consents',
  notes: 'Notes',
  // Staff wording where the registration form speaks as the participant ("I am at risk of anaphylaxis").
  has_anaphylaxis_risk: 'Risk of anaphylaxis',
  requires_refrigeration: 'Medication needs a fridge',
  cross_contamination_risk: 'Cross-contamination risk (even traces)',
  'accessibility.wheelchair': 'Uses a wheelchair',
  'accessibility.step_free_access': 'Needs step-free access',
  'travel_inbound.mode': 'Mode',
  'travel_outbound.mode': 'Mode',
  'accommodation.roommate_preferences': 'Roommate preferences',
  'accommodation.roommate_exclusions': 'Roommate exclusions',
  'medical_detail.allergy_severity': 'Allergy severity',
  // The participant page's read-only rows and table columns (record/view.ts), by table.
  'travel.expected_arrival_time': 'Expected arrival',
  'travel.visa_required': 'Visa required',
  'travel.visa_status': 'Visa status',
  'travel.visa_type': 'Visa type',
  'travel.visa_number': 'Visa number',
  'travel.passport_nationality': 'Passport nationality',
  'travel.is_unaccompanied_minor': 'Unaccompanied minor',
  'travel.train_departure_station': 'Train from',
  'travel.train_arrival_station': 'Train to',
  'travel.departure_station': 'Departure station',
  'travel.arrival_station': 'Arrival station',
  'travel.bus_departure_location': 'Bus from',
  'travel.bus_arrival_location': 'Bus to',
  'travel.origin_address': 'Origin address',
  'travel.other_details': 'Other details',
  'travel.pickup_dismissed_at': 'Pickup dismissed',
  'legs[].flight_code': 'Flight',
  'legs[].departure_airport': 'From',
  'legs[].arrival_airport': 'To',
  'legs[].departure_time': 'Departs',
  'legs[].departure_local': 'Departs, local time',
  'legs[].arrival_time': 'Arrives',
  'legs[].arrival_local': 'Arrives, local time',
  'legs[].live_status': 'Live status',
  'legs[].travel_picked_up_at': 'Picked up',
  'emergency_contacts[].name': 'Name',
  'emergency_contacts[].relationship': 'Relationship',
  'emergency_contacts[].phone': 'Phone',
  'emergency_contacts[].priority': 'Priority',
  'guardians[].name': 'Name',
  'guardians[].relationship': 'Relationship',
  'guardians[].email': 'Email',
  'guardians[].phone': 'Phone',
  'guardians[].is_primary': 'Primary',
  'guardians[].status': 'Status',
  'guardians[].completed_at': 'Completed',
  'guardians[].media_permission': 'Media',
  'guardians[].photo_permission': 'Photos',
  'guardians[].travel_permission': 'Travel',
  'guardians[].emergency_medical_consent': 'Emergency medical',
  'guardians[].otc_medication_consent': 'Over-the-counter medication',
  'personal.age': 'Age at the event',
  'personal.engagement_preference': 'Engagement preference',
  'personal.engagement_notes': 'Engagement notes',
  'accommodation.assigned_room': 'Assigned room',
  'accommodation.venue_name': 'Venue',
  'accommodation.rooming_exempt': 'Exempt from rooming',
  'accommodation.gender_identity_other': 'Gender identity (other)',
  'accommodation.preferred_roommate_genders': 'Preferred roommate genders',
  'summary.email': 'Email',
  'summary.phone': 'Phone',
  'summary.pronouns': 'Pronouns',
  'summary.checked_in_at': 'Checked in',
  'summary.waiver_signed': 'Waiver signed',
  'summary.has_anaphylaxis_risk': 'Anaphylaxis risk',
  'summary.requires_refrigeration': 'Medication needs a fridge',
  'summary.cross_contamination_risk': 'Cross-contamination risk',
  'summary.high_support_flag': 'High support',
  'summary.can_leave_unaccompanied': 'May leave unaccompanied',
  'summary.updated_at': 'Registration updated',
  // Audit metadata keys and values.
  fields: 'Fields',
  sections: 'Sections',
  registration_id: 'Registration',
  participant_event_id: 'Registration',
  consent_type: 'Consent',
  note_type: 'Note type',
  sensitivity: 'Who can read it',
  deleted_scans: 'Scans undone',
  scan_context_id: 'Scan context',
  staff_edit: 'staff',
  in_progress: 'In progress',
  awaiting_guardian: 'Awaiting guardian',
};

const OPTIONAL = / \(optional\)$/;
/** The registration form's field labels by PATCH path (`personal.date_of_birth` → Date of birth). */
const FORM_LABELS: Record<string, string> = Object.fromEntries(
  SECTIONS.flatMap((s) => s.groups.flatMap((g) => g.fields)).map((f) => [
    f.name,
    f.label.replace(OPTIONAL, ''),
  ]),
);

/** A staff form's label for field `name`: the table's, else the registration form's `formLabel`. */
export const staffFieldLabel = (name: string, formLabel: string): string => LABELS[name] ?? formLabel;

/** Is `name` in the table (a listed name or a form field)? */
export const hasLabel = (name: string): boolean => name in LABELS || name in FORM_LABELS;

/**
 * How wire name `name` reads: `Send time`, `Date of birth`. A path inside a list
 * (`emergency_contacts[0].phone`) reads as its list; an unlisted name with its separators as spaces.
 */
export function fieldLabel(name: string): string {
  const plain = name.replace(/\[\d+\]/g, '');
  const known = LABELS[plain] ?? FORM_LABELS[plain];
  if (known) return known;
  const section = plain.split('.')[0]!;
  if (name.includes('[') && LABELS[section]) return LABELS[section]!;
  const words = plain.replace(/[._]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A wire name mid-sentence: the label with a lower-case first letter unless it is an acronym. */
const midSentence = (label: string) =>
  /^[A-Z]{2}/.test(label) ? label : label[0]!.toLowerCase() + label.slice(1);

/** A snake_case name, optionally a dotted path, not part of an address (`ann_lee@…`) or a zone (`New_York`). */
const WIRE_NAME =
  /(?<![\w@.\-/])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\[\d+\])?(?:\.[a-z][a-z0-9_]*(?:\[\d+\])?)*(?![\w@\-/])/g;
/** A message that starts with a one-word wire name (`timezone must be …`). */
const LEADING_NAME = /^([a-z][a-z0-9]*)(?= )/;

/**
 * A service's message as a page shows it: each wire name replaced by its label, the first letter
 * upper-case (`ends_at must not be before starts_at` → `End must not be before start`;
 * `send_at must be in the future` → `Send time must be in the future`). Messages without wire
 * names come back unchanged.
 */
export function plainMessage(message: string): string {
  let first = true;
  const lead = LEADING_NAME.exec(message)?.[1];
  const text = lead && LABELS[lead] ? `${LABELS[lead]}${message.slice(lead.length)}` : message;
  const out = text.replace(WIRE_NAME, (match, offset: number) => {
    const label = fieldLabel(match);
    const start = offset === 0 && first;
    first = false;
    return start ? label : midSentence(label);
  });
  return out === message ? message : out.charAt(0).toUpperCase() + out.slice(1);
}

interface PageError {
  field?: string;
  message: string;
}

/**
 * A staff page's data with its error messages in plain words (plainMessage): `errors[].message`
 * (the error summary), `fieldErrors` (the messages next to fields) and an error page's `message`.
 * Applied by the page renderer to every staff page (web.plugin.ts), so no page shows a wire name
 * in an error, whichever service wrote it.
 */
export function plainPageData(data: Record<string, unknown>, template: string): Record<string, unknown> {
  const out = { ...data };
  if (Array.isArray(out.errors))
    out.errors = (out.errors as PageError[]).map((e) => ({ ...e, message: plainMessage(e.message) }));
  if (out.fieldErrors && typeof out.fieldErrors === 'object')
    out.fieldErrors = Object.fromEntries(
      Object.entries(out.fieldErrors as Record<string, string>).map(([k, v]) => [k, plainMessage(v)]),
    );
  if (template === 'message' && typeof out.message === 'string') out.message = plainMessage(out.message);
  return out;
}
