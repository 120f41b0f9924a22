/**
 * The one label table of the staff pages (docs/staff-dashboard.md "Plain words"): how a wire field
 * name (`ends_at`, `dietary_detail.intolerances`, `send_at`) reads wherever a person meets it — a
 * page, a page's error message, the participant page's history, the audit trail. The API keeps the
 * wire names (its readers are programs; docs/decisions.md "Plain words on pages, wire names in the API").
 *
 * Record fields take the registration form's own labels (web/sections.ts, English catalog `form.*`),
 * so a field reads the same on the form, the participant page and its history; everything else is
 * listed in the catalog's `staff.field_labels` (locales/staff/en.json, read as LABELS), the
 * participant page's read-only rows and table columns under their table's prefix (`summary.`,
 * `travel.`, `legs[].`, `guardians[].`, `emergency_contacts[].`). A name in neither is shown with
 * its underscores and dots as spaces (never as a wire name), and a test pins that every field the
 * services name in a change or error is listed.
 */
import { staffTable } from '../../lib/i18n/staff.js';
import { isRecord } from '../../lib/narrow.js';
import { SECTIONS } from '../web/sections.js';

/**
 * Labels of wire names that are not fields of the registration form (or read better than its label):
 * event fields, announcement/ban/key fields, record sections, staff wording where the form speaks as
 * the participant, the participant page's rows and columns by table, audit metadata keys.
 */
const LABELS: Record<string, string> = staffTable('field_labels');

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

/**
 * A staff page's data with its error messages in plain words (plainMessage): `errors[].message`
 * (the error summary), `fieldErrors` (the messages next to fields) and an error page's `message`.
 * Applied by the page renderer to every staff page (web.plugin.ts), so no page shows a wire name
 * in an error, whichever service wrote it.
 */
export function plainPageData(data: Record<string, unknown>, template: string): Record<string, unknown> {
  const out = { ...data };
  if (Array.isArray(out.errors))
    out.errors = out.errors.map((e: unknown) =>
      isRecord(e) && typeof e.message === 'string' ? { ...e, message: plainMessage(e.message) } : e,
    );
  if (isRecord(out.fieldErrors))
    out.fieldErrors = Object.fromEntries(
      Object.entries(out.fieldErrors).map(([k, v]) => [k, typeof v === 'string' ? plainMessage(v) : v]),
    );
  if (template === 'message' && typeof out.message === 'string') out.message = plainMessage(out.message);
  return out;
}
