/**
 * The registration form's sections as data: which fields each page shows, in which fieldsets, under
 * which names. A field's `name` is its path in the record PATCH body (docs/decisions.md "Registration side",
 * modules/participants/record/sections.schemas.ts), e.g. `personal.date_of_birth` or
 * `emergency_contacts[1].phone`, so the page turns a form post into the same PATCH the API takes
 * (forms.ts) and maps the service's 422 messages (which name those paths) back onto the fields.
 * Every text comes from the catalog (`form.*`, docs/languages.md); `sectionsIn(lang)` builds them.
 */
import { type Translate, translator } from '../../lib/i18n/index.js';
import { TRAVEL_MODES, TSHIRT_SIZES } from '../participants/record/sections.schemas.js';

export type FieldType =
  | 'text'
  | 'email'
  | 'tel'
  | 'date'
  | 'datetime'
  | 'textarea'
  | 'select'
  | 'checkbox'
  /** A text input for an IATA airport code; the travel form's script adds the type-ahead (travel-form.ts). */
  | 'airport';

export interface Field {
  name: string;
  label: string;
  type: FieldType;
  required?: boolean;
  options?: readonly string[];
  hint?: string;
  autocomplete?: string;
  /** Shown instead of each option's value (travel modes). */
  optionLabels?: Record<string, string>;
  /** The message when a required field is left blank (`Enter your legal first name`). */
  requiredMessage?: string;
  /**
   * A leg's time (entered in UTC): the airport field whose zone it is also shown in, as
   * "Local time at LHR: Thu 9 Jul, 14:05 BST" under the input (docs/travel.md "Times").
   */
  localOf?: string;
}

export interface Group {
  legend: string;
  hint?: string;
  fields: Field[];
  /** A repeated group (`emergency_contacts[i]`): blank slots are left out of the PATCH. */
  list?: { key: 'emergency_contacts' | 'guardians'; index: number };
  /** The first flight of a journey (`travel_inbound.legs[0].*`): the form edits it, later legs are kept. */
  leg?: 'travel_inbound' | 'travel_outbound';
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

/** The sections' text in one language (labels, legends, hints from the catalog's `form.*`). */
function buildSections(t: Translate): Section[] {
  const area = (name: string, label: string, hint?: string) =>
    f(name, label, 'textarea', hint ? { hint } : {});
  const check = (name: string, label: string) => f(name, label, 'checkbox');
  const phoneHint = t('form.phone_hint');
  const modes = Object.fromEntries(TRAVEL_MODES.map((m) => [m, t(`form.travel_modes.${m}`)]));
  const travelGroup = (key: 'travel_inbound' | 'travel_outbound', legend: string): Group => ({
    legend,
    hint: t('form.travel_hint'),
    fields: [
      f(`${key}.mode`, t('form.travel_mode'), 'select', { options: TRAVEL_MODES, optionLabels: modes }),
      f(`${key}.carrier`, t('form.travel_carrier')),
      f(`${key}.flight_number`, t('form.travel_number')),
      f(`${key}.departure_city`, t('form.travel_from')),
      f(`${key}.arrival_city`, t('form.travel_to')),
      f(`${key}.departure_time`, t('form.travel_departure'), 'datetime'),
      f(`${key}.arrival_time`, t('form.travel_arrival'), 'datetime'),
      area(`${key}.notes`, t('form.travel_notes')),
    ],
  });
  /** The journey's first flight (a TravelLeg): what live tracking follows (docs/travel.md "Travel form"). */
  const flightGroup = (key: 'travel_inbound' | 'travel_outbound', legend: string): Group => {
    const leg = `${key}.legs[0]`;
    return {
      legend,
      hint: t('form.flight.hint'),
      leg: key,
      fields: [
        f(`${leg}.flight_code`, t('form.flight.code'), 'text', { hint: t('form.flight.code_hint') }),
        f(`${leg}.departure_airport`, t('form.flight.from'), 'airport', {
          hint: t('form.flight.airport_hint'),
        }),
        f(`${leg}.arrival_airport`, t('form.flight.to'), 'airport', { hint: t('form.flight.airport_hint') }),
        f(`${leg}.departure_time`, t('form.flight.departure'), 'datetime', {
          localOf: `${leg}.departure_airport`,
        }),
        f(`${leg}.arrival_time`, t('form.flight.arrival'), 'datetime', { localOf: `${leg}.arrival_airport` }),
      ],
    };
  };
  const guardianGroup = (i: number): Group => {
    const p = `guardians[${i}]`;
    return {
      legend: i === 0 ? t('form.guardian_primary') : t('form.guardian_second'),
      ...(i > 0 ? { hint: t('form.optional') } : {}),
      list: { key: 'guardians', index: i },
      fields: [
        f(`${p}.name`, t('form.full_name'), 'text', { autocomplete: 'off' }),
        f(`${p}.email`, t('form.email'), 'email', { hint: t('form.guardian_email_hint') }),
        f(`${p}.phone`, t('form.phone'), 'tel', { hint: phoneHint }),
        f(`${p}.relationship`, t('form.relationship')),
      ],
    };
  };
  const P = (k: string) => t(`form.personal.${k}`);
  const A = (k: string) => t(`form.accommodation.${k}`);
  const M = (k: string) => t(`form.medical.${k}`);
  const D = (k: string) => t(`form.dietary.${k}`);
  const X = (k: string) => t(`form.accessibility.${k}`);
  const required = (k: string) => ({ required: true, requiredMessage: P(`${k}_required`) });
  return [
    {
      key: 'personal',
      title: P('title'),
      intro: P('intro'),
      groups: [
        {
          legend: P('name'),
          fields: [
            f('personal.legal_first_name', P('legal_first_name'), 'text', {
              ...required('legal_first_name'),
              autocomplete: 'given-name',
            }),
            f('personal.legal_last_name', P('legal_last_name'), 'text', {
              ...required('legal_last_name'),
              autocomplete: 'family-name',
            }),
            f('personal.preferred_name', P('preferred_name'), 'text', { autocomplete: 'nickname' }),
            f('pronouns', P('pronouns')),
          ],
        },
        {
          legend: P('details'),
          fields: [
            f('personal.date_of_birth', P('date_of_birth'), 'date', {
              ...required('date_of_birth'),
              autocomplete: 'bday',
            }),
            f('phone', P('phone'), 'tel', { autocomplete: 'tel', hint: phoneHint }),
            f('personal.tshirt_size', P('tshirt_size'), 'select', { options: TSHIRT_SIZES }),
          ],
        },
        {
          legend: P('address'),
          fields: [
            f('personal.address.line_1', P('line_1'), 'text', { autocomplete: 'address-line1' }),
            f('personal.address.line_2', P('line_2'), 'text', { autocomplete: 'address-line2' }),
            f('personal.address.city', P('city'), 'text', { autocomplete: 'address-level2' }),
            f('personal.address.postal_code', P('postal_code'), 'text', { autocomplete: 'postal-code' }),
            f('personal.address.country', P('country'), 'text', { autocomplete: 'country-name' }),
          ],
        },
      ],
    },
    {
      key: 'accommodation',
      title: A('title'),
      intro: A('intro'),
      groups: [
        {
          legend: A('dates'),
          fields: [
            f('accommodation.check_in_date', A('check_in_date'), 'date'),
            f('accommodation.check_out_date', A('check_out_date'), 'date'),
          ],
        },
        {
          legend: A('rooming'),
          fields: [
            f('accommodation.gender_identity', A('gender_identity')),
            area('accommodation.roommate_preferences', A('roommate_preferences')),
            area('accommodation.roommate_exclusions', A('roommate_exclusions')),
            f('accommodation.room_type_preference', A('room_type_preference')),
            f('accommodation.quiet_room_preference', A('quiet_room_preference')),
            area('accommodation.accessibility_needs', A('accessibility_needs')),
            area('accommodation.notes', A('notes')),
          ],
        },
      ],
    },
    {
      key: 'medical',
      title: M('title'),
      intro: M('intro'),
      groups: [
        {
          legend: M('allergies_legend'),
          fields: [
            area('allergies', M('allergies')),
            area('life_threatening_allergies', M('life_threatening_allergies')),
            check('has_anaphylaxis_risk', M('has_anaphylaxis_risk')),
            f('medical_detail.allergy_severity', M('allergy_severity')),
            area('medical_detail.emergency_action_plan', M('emergency_action_plan')),
          ],
        },
        {
          legend: M('conditions'),
          fields: [
            area('medical_conditions', M('medical_conditions')),
            area('medications', M('medications')),
            check('requires_refrigeration', M('requires_refrigeration')),
            area('medical_detail.additional_notes', M('additional_notes')),
          ],
        },
      ],
    },
    {
      key: 'dietary',
      title: D('title'),
      intro: D('intro'),
      groups: [
        {
          legend: D('diet'),
          fields: [
            f('diet_type', D('diet'), 'text', { hint: D('diet_hint') }),
            area('dietary_detail.intolerances', D('intolerances')),
            check('cross_contamination_risk', D('cross_contamination_risk')),
            area('dietary_detail.notes', D('notes')),
          ],
        },
      ],
    },
    {
      key: 'accessibility',
      title: X('title'),
      intro: X('intro'),
      groups: [
        {
          legend: X('needs'),
          fields: [
            check('accessibility.wheelchair', X('wheelchair')),
            check('accessibility.step_free_access', X('step_free_access')),
            area('accessibility.notes', X('notes')),
          ],
        },
      ],
    },
    {
      key: 'travel',
      title: t('form.travel.title'),
      intro: t('form.travel.intro'),
      groups: [
        travelGroup('travel_inbound', t('form.travel.inbound')),
        flightGroup('travel_inbound', t('form.flight.inbound')),
        travelGroup('travel_outbound', t('form.travel.outbound')),
        flightGroup('travel_outbound', t('form.flight.outbound')),
      ],
    },
    {
      key: 'emergency-contacts',
      title: t('form.emergency_contacts.title'),
      intro: t('form.emergency_contacts.intro'),
      groups: [contactGroup(0, t), contactGroup(1, t)],
    },
    {
      key: 'guardians',
      title: t('form.guardians.title'),
      intro: t('form.guardians.intro'),
      groups: [guardianGroup(0), guardianGroup(1)],
    },
  ];
}

/** Emergency contact slot `i` (0-based) in `t`'s language. */
export function contactGroup(i: number, t: Translate = translator('en')): Group {
  const p = `emergency_contacts[${i}]`;
  return {
    legend: t('form.contact_legend', { n: i + 1 }),
    ...(i > 0 ? { hint: t('form.optional') } : {}),
    list: { key: 'emergency_contacts', index: i },
    fields: [
      f(`${p}.name`, t('form.full_name'), 'text', { autocomplete: 'off' }),
      f(`${p}.relationship`, t('form.relationship')),
      f(`${p}.phone`, t('form.phone'), 'tel', { hint: t('form.phone_hint') }),
      f(`${p}.email`, t('form.email_optional'), 'email'),
    ],
  };
}

const byLanguage = new Map<string, readonly Section[]>();

/** The form's sections in `lang` (built once per language). */
export function sectionsIn(lang: string): readonly Section[] {
  let sections = byLanguage.get(lang);
  if (!sections) {
    sections = buildSections(translator(lang));
    byLanguage.set(lang, sections);
  }
  return sections;
}

/** The sections in English: what the staff pages build on. */
export const SECTIONS: readonly Section[] = sectionsIn('en');

export function sectionByKey(key: string, lang = 'en'): Section | undefined {
  return sectionsIn(lang).find((s) => s.key === key);
}

/** The id of a field's input: `f-` plus its path with punctuation as dashes. */
export function fieldId(name: string): string {
  return `f-${name.replace(/[^A-Za-z0-9_]+/g, '-').replace(/-$/, '')}`;
}
