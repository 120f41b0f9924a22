/**
 * The setup wizard's steps and the conversion between its forms and the event API's fields
 * (`PATCH /series/{s}/events/{e}` body): date-times are shown and read as wall-clock times in the
 * event's time zone (`datetime-local`, no offset: the service reads them in the zone), blank
 * optional texts clear the field, unchecked module boxes switch the module off.
 */

import { languageInfo, SHIPPED_LANGUAGES } from '../../lib/i18n/catalog.js';
import { staffText } from '../../lib/i18n/staff.js';
import { zoneOffsetMs } from '../../lib/zoned-time.js';
import type { EventFields } from '../events/event-input.schemas.js';
import type { EventRow } from '../events/records.service.js';
import { fieldLabel } from './field-labels.js';

export interface SetupField {
  name: string;
  label: string;
  type: 'text' | 'email' | 'datetime' | 'checkbox' | 'select';
  hint?: string;
  /** A select's values, and what each shows. */
  options?: string[];
  optionLabels?: Record<string, string>;
  required?: boolean;
  autocomplete?: string;
}

export const STEPS = [
  { id: 'details', label: staffText('setup_steps.details_and_schedule') },
  { id: 'languages', label: staffText('setup_steps.languages') },
  { id: 'registration', label: staffText('setup_steps.registration_window') },
  { id: 'modules', label: staffText('setup_steps.modules') },
  { id: 'contact', label: staffText('setup_steps.support_email') },
  { id: 'consents', label: staffText('setup_steps.consent_documents') },
  { id: 'images', label: staffText('setup_steps.logo_and_banner') },
  { id: 'complete', label: staffText('setup_steps.complete_setup') },
] as const;
export type StepId = (typeof STEPS)[number]['id'];
/** Steps whose form saves event fields through the event update service. */
export const FIELD_STEPS = ['details', 'languages', 'registration', 'modules', 'contact'] as const;
export type FieldStepId = (typeof FIELD_STEPS)[number];

const ZONE_HINT = staffText('setup_steps.in_the_event_s_time_zone');
const MODULES: [string, string][] = [
  ['travel_enabled', staffText('setup_steps.travel_arrival_and_departure_legs_pickups')],
  ['visa_options_enabled', staffText('setup_steps.visa_support_letters')],
  ['accommodation_enabled', staffText('setup_steps.accommodation')],
  ['roommate_preferences_enabled', staffText('setup_steps.roommate_preferences')],
  ['freedom_waivers_enabled', staffText('setup_steps.freedom_waivers_free_time_without_supervision')],
  ['nfc_badges_enabled', staffText('setup_steps.nfc_badges')],
  ['nfc_badge_write_on_checkin_enabled', staffText('setup_steps.write_nfc_badges_at_check_in')],
  ['groups_enabled', staffText('setup_steps.groups')],
];

/** A shipped language as the wizard names it: `Español (es)`, with a note when its catalog is partial. */
function languageLabel(code: string): string {
  const info = languageInfo(code);
  return `${info.name} (${code})${info.complete ? '' : staffText('setup_steps.page_frame_only_the_rest_in')}`;
}
/** The checkbox of one shipped language in the languages step (`language_es`). */
const LANGUAGE_BOX = 'language_';

export const STEP_FIELDS: Record<FieldStepId, SetupField[]> = {
  details: [
    { name: 'name', label: staffText('setup_steps.event_name'), type: 'text', required: true },
    {
      name: 'timezone',
      label: fieldLabel('timezone'),
      type: 'text',
      required: true,
      hint: staffText('setup_steps.an_iana_name_such_as_europe'),
    },
    { name: 'starts_at', label: fieldLabel('starts_at'), type: 'datetime', hint: ZONE_HINT },
    { name: 'ends_at', label: fieldLabel('ends_at'), type: 'datetime', hint: ZONE_HINT },
    { name: 'venue_name', label: staffText('setup_steps.venue'), type: 'text' },
    {
      name: 'location_address',
      label: staffText('setup_steps.address'),
      type: 'text',
      autocomplete: 'street-address',
    },
    { name: 'location_city', label: fieldLabel('location_city'), type: 'text' },
    { name: 'location_country', label: fieldLabel('location_country'), type: 'text' },
  ],
  languages: [
    ...SHIPPED_LANGUAGES.map(
      (code): SetupField => ({
        name: `${LANGUAGE_BOX}${code}`,
        label: languageLabel(code),
        type: 'checkbox',
      }),
    ),
    {
      name: 'default_language',
      label: fieldLabel('default_language'),
      type: 'select',
      required: true,
      options: [...SHIPPED_LANGUAGES],
      optionLabels: Object.fromEntries(SHIPPED_LANGUAGES.map((c) => [c, languageLabel(c)])),
      hint: staffText('setup_steps.what_participants_and_guardians_get_unless'),
    },
  ],
  registration: [
    {
      name: 'registration_open_at',
      label: fieldLabel('registration_open_at'),
      type: 'datetime',
      hint: ZONE_HINT,
    },
    {
      name: 'registration_close_at',
      label: fieldLabel('registration_close_at'),
      type: 'datetime',
      hint: ZONE_HINT,
    },
  ],
  modules: [
    ...MODULES.map(([name, label]): SetupField => ({ name, label, type: 'checkbox' })),
    {
      name: 'visa_application_url',
      label: staffText('setup_steps.visa_application_link_optional'),
      type: 'text',
      hint: staffText('setup_steps.an_http_s_address_participants_who'),
    },
  ],
  contact: [
    {
      name: 'support_email',
      label: fieldLabel('support_email'),
      type: 'email',
      required: true,
      autocomplete: 'email',
      hint: staffText('setup_steps.shown_to_participants_and_guardians_must'),
    },
  ],
};

/** `YYYY-MM-DDTHH:MM` wall-clock time of an instant in `zone` (for a datetime-local input). */
export function localInput(instant: string | null, zone: string): string {
  if (!instant) return '';
  const ms = Date.parse(instant);
  return new Date(ms + zoneOffsetMs(ms, zone)).toISOString().slice(0, 16);
}

const CAMEL = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The form values of a step for `event` as stored. */
export function valuesOf(step: FieldStepId, event: EventRow): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  const modules: Record<string, unknown> = Object.fromEntries(Object.entries(event.modules));
  const columns: Record<string, unknown> = Object.fromEntries(Object.entries(event));
  for (const f of STEP_FIELDS[step]) {
    if (f.name.startsWith(LANGUAGE_BOX))
      values[f.name] = event.languages.includes(f.name.slice(LANGUAGE_BOX.length));
    else if (f.name === 'default_language') values[f.name] = event.defaultLanguage;
    else if (step === 'modules')
      values[f.name] = f.type === 'checkbox' ? modules[f.name] === true : String(modules[f.name] ?? '');
    else if (f.type === 'checkbox') values[f.name] = modules[f.name] === true;
    else {
      const stored = columns[CAMEL(f.name)];
      const raw = stored === null || stored === undefined ? null : String(stored);
      values[f.name] = f.type === 'datetime' ? localInput(raw, event.timezone) : (raw ?? '');
    }
  }
  return values;
}

type FormBody = Record<string, string | undefined>;

/** The form's values as typed (to show them again after an error). */
export function valuesFromForm(step: FieldStepId, body: FormBody): Record<string, string | boolean> {
  return Object.fromEntries(
    STEP_FIELDS[step].map((f) => [
      f.name,
      f.type === 'checkbox' ? body[f.name] === 'true' : (body[f.name] ?? ''),
    ]),
  );
}

/**
 * The event API's `event` fields for a step's form (blank optional fields → null; the modules
 * step's fields all go into `modules`).
 */
export function fieldsFromForm(step: FieldStepId, body: FormBody): EventFields {
  const out: Record<string, unknown> = {};
  const modules: Record<string, unknown> = {};
  for (const f of STEP_FIELDS[step]) {
    const value = (body[f.name] ?? '').trim();
    const target = step === 'modules' ? modules : out;
    if (f.type === 'checkbox') target[f.name] = value === 'true';
    else if (f.required) target[f.name] = value;
    else target[f.name] = value === '' ? null : value;
  }
  if (step === 'modules') out.modules = modules;
  if (step === 'languages') {
    out.languages = SHIPPED_LANGUAGES.filter((code) => out[`${LANGUAGE_BOX}${code}`] === true);
    for (const code of SHIPPED_LANGUAGES) delete out[`${LANGUAGE_BOX}${code}`];
  }
  return out;
}

/** The form field an event-service message is about (its wire name leads the message), if any. */
export function fieldOfMessage(step: FieldStepId, message: string): string | undefined {
  const names = STEP_FIELDS[step].map((f) => f.name).sort((a, b) => b.length - a.length);
  const text = message.replace(/^modules\./, '');
  if (step === 'languages' && text.startsWith('languages')) return `${LANGUAGE_BOX}${SHIPPED_LANGUAGES[0]}`;
  return names.find((n) => text.startsWith(n)) ?? names.find((n) => text.includes(` ${n}`));
}
