/**
 * The travel section's extras (docs/travel.md "Travel form"): the words its script shows
 * (web/public/js/travel-form.js: the airport type-ahead and "Check this flight"), and the check of
 * the airport fields on submit, so the form works without JavaScript: a typed airport must be a
 * known IATA code; anything else is a field error that names the closest airports by code. And
 * each leg time's reading on its airport's clock, shown under the (UTC) input.
 */
import { type Translate, translator } from '../../lib/i18n/index.js';
import { airportByIata } from '../travel/airports.data.js';
import { searchAirports } from '../travel/airports.service.js';
import { airportZone, localDateTime } from '../travel/local-time.js';
import type { PageErrorItem, Values } from './forms.js';
import { fieldId, type Section } from './sections.js';

/** The script of the pages whose form has airport fields. */
export const TRAVEL_FORM_SCRIPT = '/assets/js/travel-form.js';

/** Does the section have airport fields (so its page loads the travel form's script)? */
export const hasAirportFields = (section: Section): boolean =>
  section.groups.some((g) => g.fields.some((f) => f.type === 'airport'));

/** The script's words in the page's language (`{code}`, `{count}`… are filled in by the script). */
export function flightTexts(lang: string): Record<string, string> {
  const t = translator(lang);
  const keys = [
    'check',
    'check_date',
    'checking',
    'found',
    'format_only',
    'need_code',
    'bad_code',
    'unavailable',
    'airports_found',
    'no_airports',
    'local_time',
  ];
  return Object.fromEntries(keys.map((k) => [k, raw(t, `form.flight.${k}`)]));
}

/** A catalog message with its `{placeholders}` left for the script. */
const raw = (t: Translate, key: string) =>
  t(key, {
    code: '{code}',
    carrier: '{carrier}',
    from: '{from}',
    to: '{to}',
    count: '{count}',
    time: '{time}',
  });

/**
 * The airport fields of `section` whose value is not a known IATA airport code, as field errors:
 * `From airport: type the airport's 3-letter code. Did you mean LHR (London Heathrow)…?` when the
 * text finds airports, else `… we do not know an airport "XYZ"`. Blank fields are fine.
 */
export async function airportErrors(
  section: Section,
  values: Values,
  lang: string,
): Promise<PageErrorItem[]> {
  const t = translator(lang);
  const errors: PageErrorItem[] = [];
  for (const field of section.groups.flatMap((g) => g.fields)) {
    if (field.type !== 'airport') continue;
    const value = String(values[field.name] ?? '').trim();
    if (value === '' || (/^[A-Za-z]{3}$/.test(value) && (await airportByIata(value)))) continue;
    const found = (await searchAirports(value)).slice(0, 3);
    const message =
      found.length > 0
        ? t('form.flight.did_you_mean', {
            label: field.label,
            options: found.map((a) => `${a.iata} (${a.name})`).join(', '),
          })
        : t('form.flight.unknown_airport', { label: field.label, value });
    errors.push({ field: fieldId(field.name), message });
  }
  return errors;
}

/**
 * For each leg time field of `section` (`localOf`), its value on the airport's clock:
 * `{field name: "Local time at LHR: Thu 9 Jul, 14:05 BST"}`; '' when the time is not a full
 * `YYYY-MM-DDTHH:MM` (read as UTC, as the form enters it) or the airport is unknown.
 */
export async function localTimes(
  section: Section,
  values: Values,
  lang: string,
): Promise<Record<string, string>> {
  const t = translator(lang);
  const out: Record<string, string> = {};
  for (const field of section.groups.flatMap((g) => g.fields)) {
    if (!field.localOf) continue;
    const time = String(values[field.name] ?? '').trim();
    const code = String(values[field.localOf] ?? '')
      .trim()
      .toUpperCase();
    const zone = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(time) ? await airportZone(code, '') : '';
    out[field.name] = zone
      ? t('form.flight.local_time', { code, time: localDateTime(`${time.slice(0, 16)}:00Z`, zone) })
      : '';
  }
  return out;
}
