/**
 * Staff pages' words (docs/languages.md "Staff pages"): every string a staff page shows, in its
 * templates and in the TypeScript of src/modules/staff-web, is a `staff.*` message of the one
 * catalog (locales/staff/<code>.json, ICU arguments like every other message). Staff pages are in
 * STAFF_LANGUAGE; a staff language is a `locales/staff/<code>.json` plus this one constant.
 */
import { BASE_LANGUAGE, rawGroup, translator, type Vars } from './catalog.js';

/** The language of every staff page: the one place a staff language is chosen. */
export const STAFF_LANGUAGE: string = BASE_LANGUAGE;

const t = translator(STAFF_LANGUAGE);

/** The staff message `staff.<key>` with its ICU arguments: `staffText('bans.by', { name })`. */
export function staffText(key: string, vars?: Vars): string {
  return t(`staff.${key}`, vars);
}

/**
 * A table of staff words read as text, not as ICU (a label per wire name: `field_labels`): the
 * messages directly under `staff.<group>` by their own key (which may hold dots: `personal.address`),
 * in STAFF_LANGUAGE, a key it lacks in English.
 */
export function staffTable(group: string): Record<string, string> {
  return { ...rawGroup(BASE_LANGUAGE, `staff.${group}`), ...rawGroup(STAFF_LANGUAGE, `staff.${group}`) };
}
