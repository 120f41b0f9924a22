/**
 * The registration form's sections as data: which fields each page shows, in which fieldsets, under
 * which names. A field's `name` is its path in the record PATCH body (docs/decisions.md "Registration side",
 * modules/participants/record/sections.schemas.ts), e.g. `personal.date_of_birth` or
 * `emergency_contacts[1].phone`, so the page turns a form post into the same PATCH the API takes
 * (forms.ts) and maps the service's 422 messages (which name those paths) back onto the fields.
 */
import { TRAVEL_MODES, TSHIRT_SIZES } from '../participants/record/sections.schemas.js';

export type FieldType = 'text' | 'email' | 'tel' | 'date' | 'datetime' | 'textarea' | 'select' | 'checkbox';

export interface Field {
  name: string;
  label: string;
  type: FieldType;
  required?: boolean;
  options?: readonly string[];
  hint?: string;
  autocomplete?: string;
}

export interface Group {
  legend: string;
  hint?: string;
  fields: Field[];
  /** A repeated group (`emergency_contacts[i]`): blank slots are left out of the PATCH. */
  list?: { key: 'emergency_contacts' | 'guardians'; index: number };
}

export interface Section {
  key: string;
  title: string;
  intro: string;
  groups: Group[];
}

const f = (name: string, label: string, type: FieldType = 'text', extra: Partial<Field> = {}): Field => ({
  name,
  label,
  type,
  ...extra,
});
const area = (name: string, label: string, hint?: string) => f(name, label, 'textarea', hint ? { hint } : {});
const check = (name: string, label: string) => f(name, label, 'checkbox');

function travelGroup(key: 'travel_inbound' | 'travel_outbound', legend: string): Group {
  return {
    legend,
    hint: 'Leave the mode empty if you are not travelling this way or do not know yet. Times are in UTC.',
    fields: [
      f(`${key}.mode`, 'How are you travelling?', 'select', { options: TRAVEL_MODES }),
      f(`${key}.carrier`, 'Airline, train or bus company'),
      f(`${key}.flight_number`, 'Flight or train number'),
      f(`${key}.departure_city`, 'Departing from (city)'),
      f(`${key}.arrival_city`, 'Arriving at (city)'),
      f(`${key}.departure_time`, 'Departure date and time (UTC)', 'datetime'),
      f(`${key}.arrival_time`, 'Arrival date and time (UTC)', 'datetime'),
      area(`${key}.notes`, 'Anything else about this journey'),
    ],
  };
}

export function contactGroup(i: number): Group {
  const p = `emergency_contacts[${i}]`;
  return {
    legend: `Emergency contact ${i + 1}`,
    ...(i > 0 ? { hint: 'Optional.' } : {}),
    list: { key: 'emergency_contacts', index: i },
    fields: [
      f(`${p}.name`, 'Full name', 'text', { autocomplete: 'off' }),
      f(`${p}.relationship`, 'Relationship to you'),
      f(`${p}.phone`, 'Phone number', 'tel', { hint: 'International format, e.g. +447700900123' }),
      f(`${p}.email`, 'Email address (optional)', 'email'),
    ],
  };
}

function guardianGroup(i: number): Group {
  const p = `guardians[${i}]`;
  return {
    legend: i === 0 ? 'Parent or guardian (primary)' : 'Second parent or guardian',
    ...(i > 0 ? { hint: 'Optional.' } : {}),
    list: { key: 'guardians', index: i },
    fields: [
      f(`${p}.name`, 'Full name', 'text', { autocomplete: 'off' }),
      f(`${p}.email`, 'Email address', 'email', {
        hint: 'We email them a link to approve your registration.',
      }),
      f(`${p}.phone`, 'Phone number', 'tel', { hint: 'International format, e.g. +447700900123' }),
      f(`${p}.relationship`, 'Relationship to you'),
    ],
  };
}

export const SECTIONS: readonly Section[] = [
  {
    key: 'personal',
    title: 'About you',
    intro: 'Your name as on your passport or ID, and how to reach you.',
    groups: [
      {
        legend: 'Your name',
        fields: [
          f('personal.legal_first_name', 'Legal first name', 'text', {
            required: true,
            autocomplete: 'given-name',
          }),
          f('personal.legal_last_name', 'Legal last name', 'text', {
            required: true,
            autocomplete: 'family-name',
          }),
          f('personal.preferred_name', 'Preferred name (optional)', 'text', { autocomplete: 'nickname' }),
          f('pronouns', 'Pronouns (optional)'),
        ],
      },
      {
        legend: 'Details',
        fields: [
          f('personal.date_of_birth', 'Date of birth', 'date', { required: true, autocomplete: 'bday' }),
          f('phone', 'Mobile phone', 'tel', {
            autocomplete: 'tel',
            hint: 'International format, e.g. +447700900123',
          }),
          f('personal.tshirt_size', 'T-shirt size', 'select', { options: TSHIRT_SIZES }),
        ],
      },
      {
        legend: 'Home address',
        fields: [
          f('personal.address.line_1', 'Address line 1', 'text', { autocomplete: 'address-line1' }),
          f('personal.address.line_2', 'Address line 2 (optional)', 'text', {
            autocomplete: 'address-line2',
          }),
          f('personal.address.city', 'Town or city', 'text', { autocomplete: 'address-level2' }),
          f('personal.address.postal_code', 'Postcode', 'text', { autocomplete: 'postal-code' }),
          f('personal.address.country', 'Country', 'text', { autocomplete: 'country-name' }),
        ],
      },
    ],
  },
  {
    key: 'accommodation',
    title: 'Accommodation',
    intro: 'When you need a room and what would make your stay comfortable.',
    groups: [
      {
        legend: 'Dates',
        fields: [
          f('accommodation.check_in_date', 'Check-in date', 'date'),
          f('accommodation.check_out_date', 'Check-out date', 'date'),
        ],
      },
      {
        legend: 'Rooming',
        fields: [
          f('accommodation.gender_identity', 'Gender identity (optional)'),
          area('accommodation.roommate_preferences', 'Who would you like to share with?'),
          area('accommodation.roommate_exclusions', 'Anyone you should not share with?'),
          f('accommodation.room_type_preference', 'Room type preference'),
          f('accommodation.quiet_room_preference', 'Quiet room preference'),
          area('accommodation.accessibility_needs', 'Room accessibility needs'),
          area('accommodation.notes', 'Anything else'),
        ],
      },
    ],
  },
  {
    key: 'medical',
    title: 'Medical',
    intro: 'Only the safeguarding lead and administrators can read this.',
    groups: [
      {
        legend: 'Allergies',
        fields: [
          area('allergies', 'Allergies'),
          area('life_threatening_allergies', 'Life-threatening allergies'),
          check('has_anaphylaxis_risk', 'I am at risk of anaphylaxis'),
          f('medical_detail.allergy_severity', 'How severe are your allergies?'),
          area('medical_detail.emergency_action_plan', 'Emergency action plan'),
        ],
      },
      {
        legend: 'Conditions and medication',
        fields: [
          area('medical_conditions', 'Medical conditions'),
          area('medications', 'Medications'),
          check('requires_refrigeration', 'My medication needs a fridge'),
          area('medical_detail.additional_notes', 'Anything else we should know'),
        ],
      },
    ],
  },
  {
    key: 'dietary',
    title: 'Dietary',
    intro: 'What you eat and what you cannot.',
    groups: [
      {
        legend: 'Diet',
        fields: [
          f('diet_type', 'Diet', 'text', { hint: 'For example: no restrictions, vegetarian, vegan, halal' }),
          area('dietary_detail.intolerances', 'Intolerances'),
          check('cross_contamination_risk', 'Even traces make me ill (cross-contamination risk)'),
          area('dietary_detail.notes', 'Anything else'),
        ],
      },
    ],
  },
  {
    key: 'accessibility',
    title: 'Accessibility',
    intro: 'Anything that would help you take part fully.',
    groups: [
      {
        legend: 'Access needs',
        fields: [
          check('accessibility.wheelchair', 'I use a wheelchair'),
          check('accessibility.step_free_access', 'I need step-free access'),
          area('accessibility.notes', 'Tell us about any other needs'),
        ],
      },
    ],
  },
  {
    key: 'travel',
    title: 'Travel',
    intro: 'How you get to the event and home again.',
    groups: [travelGroup('travel_inbound', 'Getting there'), travelGroup('travel_outbound', 'Going home')],
  },
  {
    key: 'emergency-contacts',
    title: 'Emergency contacts',
    intro: 'Who we call if something happens to you. At least one, please.',
    groups: [contactGroup(0), contactGroup(1)],
  },
  {
    key: 'guardians',
    title: 'Parents or guardians',
    intro:
      'Under 18 on the first day of the event? Name a parent or guardian: when you submit, we email them a link to approve your registration. Adults can skip this section.',
    groups: [guardianGroup(0), guardianGroup(1)],
  },
];

export function sectionByKey(key: string): Section | undefined {
  return SECTIONS.find((s) => s.key === key);
}

/** The id of a field's input: `f-` plus its path with punctuation as dashes. */
export function fieldId(name: string): string {
  return `f-${name.replace(/[^A-Za-z0-9_]+/g, '-').replace(/-$/, '')}`;
}
