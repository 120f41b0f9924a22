/**
 * The one renderer of an announcement's placeholders (docs/organiser-api.md "Announcements"): the
 * subject and the message are filled by the same function with the same values, per recipient.
 * `{{name}}`: a participant's preferred or first name, a guardian's or staff member's name, `there`
 * when unknown; `{{participant_names}}`: a guardian's children ("Max and Ada"; a participant's own
 * name for a participant, empty for staff); `{{event_name}}`: the event's name. Spaces inside the
 * braces are allowed (`{{ name }}`). Any other placeholder is refused when the message is written
 * (422 naming it), so none can reach an email unfilled.
 */
import type { EventRow } from '../../access/resolve.js';
import { unprocessable } from '../../lib/errors.js';
import { languageInfo, translator } from '../../lib/i18n/index.js';
import { entryOf, isOneOf } from '../../lib/narrow.js';
import type { AudienceMember } from './audience.repo.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z_]+)\s*\}\}/g;
export const PLACEHOLDERS = ['name', 'participant_names', 'event_name'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Record<Placeholder, string>;

/** 422 naming the first placeholder Muster cannot fill; `where` is the field as the form labels it. */
export function checkPlaceholders(text: string, where = 'Message'): void {
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (!isOneOf(PLACEHOLDERS, m[1]))
      throw unprocessable(
        `${where}: unknown placeholder {{${m[1]}}}; use ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`,
      );
  }
}

/** "Max", "Max and Ada", "Max, Ada and Sam" (in `lang`'s words through Intl: "Max y Ada"). */
export function joinNames(names: readonly string[], lang = 'en'): string {
  if (names.length <= 1) return names[0] ?? '';
  return new Intl.ListFormat(languageInfo(lang).intl, { type: 'conjunction' }).format(names);
}

/** The values of every placeholder for one recipient reading `lang` (`there` for a nameless one). */
export function placeholderValues(
  event: Pick<EventRow, 'name'>,
  member: AudienceMember,
  lang = 'en',
): PlaceholderValues {
  return {
    name: member.name || translator(lang)('email.announcement.there'),
    participant_names: joinNames(member.participant_names, lang),
    event_name: event.name,
  };
}

/** `text` with every known placeholder replaced by its value (unknown ones were refused earlier). */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(PLACEHOLDER, (whole, key: string) => entryOf(values, key) ?? whole);
}
