/**
 * The setup wizard's steps and the conversion between its forms and the event API's fields
 * (`PATCH /series/{s}/events/{e}` body): date-times are shown and read as wall-clock times in the
 * event's time zone (`datetime-local`, no offset: the service reads them in the zone), blank
 * optional texts clear the field, unchecked module boxes switch the module off.
 */

import { languageInfo, SHIPPED_LANGUAGES } from '../../lib/i18n/catalog.js';
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
  { id: 'details', label: 'Details and schedule' },
  { id: 'languages', label: 'Languages' },
  { id: 'registration', label: 'Registration window' },
  { id: 'modules', label: 'Modules' },
  { id: 'contact', label: 'Support email' },
  { id: 'consents', label: 'Consent documents' },
  { id: 'images', label: 'Logo and banner' },
  { id: 'complete', label: 'Complete setup' },
] as const;
export type StepId = (typeof STEPS)[number]['id'];
/** Steps whose form saves event fields through the event update service. */
export const FIELD_STEPS = ['details', 'languages', 'registration', 'modules', 'contact'] as const;
export type FieldStepId = (typeof FIELD_STEPS)[number];

const ZONE_HINT = 'In the event’s time zone.';
const MODULES: [string, string][] = [
  ['travel_enabled', 'Travel (arrival and departure legs, pickups)'],
  ['visa_options_enabled', 'Visa support letters'],
  ['accommodation_enabled', 'Accommodation'],
  ['roommate_preferences_enabled', 'Roommate preferences'],
  ['freedom_waivers_enabled', 'Freedom waivers (free time without supervision)'],
  ['nfc_badges_enabled', 'NFC badges'],
  ['nfc_badge_write_on_checkin_enabled', 'Write NFC badges at check-in'],
  ['groups_enabled', 'Groups'],
];

/** A shipped language as the wizard names it: `Español (es)`, with a note when its catalog is partial. */
function languageLabel(code: string): string {
  const info = languageInfo(code);
  return `${info.name} (${code})${info.complete ? '' : ', page frame only: the rest in English'}`;
}
/** The checkbox of one shipped language in the languages step (`language_es`). */
const LANGUAGE_BOX = 'language_';

export const STEP_FIELDS: Record<FieldStepId, SetupField[]> = {
  details: [
    { name: 'name', label: 'Event name', type: 'text', required: true },
    {
      name: 'timezone',
      label: fieldLabel('timezone'),
      type: 'text',
      required: true,
      hint: 'An IANA name such as Europe/London.',
    },
    { name: 'starts_at', label: fieldLabel('starts_at'), type: 'datetime', hint: ZONE_HINT },
    { name: 'ends_at', label: fieldLabel('ends_at'), type: 'datetime', hint: ZONE_HINT },
    { name: 'venue_name', label: 'Venue', type: 'text' },
    { name: 'location_address', label: 'Address', type: 'text', autocomplete: 'street-address' },
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
      hint: 'What participants and guardians get unless they choose another offered language; it must be offered.',
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
      label: 'Visa application link (optional)',
      type: 'text',
      hint: 'An http(s) address participants who need a visa should open.',
    },
  ],
  contact: [
    {
      name: 'support_email',
      label: fieldLabel('support_email'),
      type: 'email',
      required: true,
      autocomplete: 'email',
      hint: 'Shown to participants and guardians; must be on one of the operator’s domains.',
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
  return out as EventFields;
}

/** The form field an event-service message is about (its wire name leads the message), if any. */
export function fieldOfMessage(step: FieldStepId, message: string): string | undefined {
  const names = STEP_FIELDS[step].map((f) => f.name).sort((a, b) => b.length - a.length);
  const text = message.replace(/^modules\./, '');
  if (step === 'languages' && text.startsWith('languages')) return `${LANGUAGE_BOX}${SHIPPED_LANGUAGES[0]}`;
  return names.find((n) => text.startsWith(n)) ?? names.find((n) => text.includes(` ${n}`));
}
