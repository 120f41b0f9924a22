/**
 * The participant page's editable sections: the registration form's sections
 * (web/sections.ts, whose field names are RecordPatch paths) plus safeguarding, which only staff
 * fill in. For one caller, `sectionsFor` keeps only the fields they may write (access/record-write.ts
 * "write follows read"), so a form never shows — nor sends — a field the caller may not see; a
 * section left without fields is not editable. Staff wording replaces the participant's
 * first-person labels where it matters (`I am at risk of anaphylaxis` → `Risk of anaphylaxis`).
 */

import type { Visibility } from '../../../access/policy.js';
import { forbiddenWrites } from '../../../access/record-write.js';
import { staffText } from '../../../lib/i18n/staff.js';
import { type Field, type Group, SECTIONS, type Section } from '../../web/sections.js';
import { staffFieldLabel } from '../field-labels.js';

const SAFEGUARDING: Section = {
  key: 'safeguarding',
  title: staffText('record_sections.safeguarding'),
  intro: staffText('record_sections.only_the_safeguarding_lead_and_administrators'),
  groups: [
    {
      legend: staffText('record_sections.support_and_collection'),
      fields: [
        {
          name: 'safeguarding_detail.high_support_notes',
          label: staffText('record_sections.high_support_notes'),
          type: 'textarea',
        },
        {
          name: 'safeguarding_detail.authorized_pickup_adults',
          label: staffText('record_sections.adults_authorised_to_collect'),
          type: 'textarea',
        },
        {
          name: 'safeguarding_detail.other_instructions',
          label: staffText('record_sections.other_instructions'),
          type: 'textarea',
        },
        {
          name: 'safeguarding_detail.curfew_acknowledged',
          label: staffText('record_sections.curfew_acknowledged'),
          type: 'checkbox',
        },
        {
          name: 'safeguarding_detail.overnight_rules_acknowledged',
          label: staffText('record_sections.overnight_rules_acknowledged'),
          type: 'checkbox',
        },
      ],
    },
  ],
};

/** Staff wording from the one label table (field-labels.ts) where the form's label speaks as the participant. */
const relabel = (field: Field): Field => ({ ...field, label: staffFieldLabel(field.name, field.label) });

/** Staff titles for sections whose form title speaks to the participant. */
const STAFF_TITLES: Record<string, string> = { personal: staffText('record_sections.personal_details') };

/** Every editable section, in page order. */
export const STAFF_SECTIONS: readonly Section[] = [...SECTIONS, SAFEGUARDING].map((s) => ({
  ...s,
  title: STAFF_TITLES[s.key] ?? s.title,
  groups: s.groups.map((g) => ({ ...g, fields: g.fields.map(relabel) })),
}));

/** A PATCH body naming only `path` (`personal.address.city`, `guardians[0].name`). */
function bodyNaming(path: string): Record<string, unknown> {
  const [head, ...rest] = path.split(/\[\d+\]\.?|\./).filter(Boolean);
  if (!head) return {};
  return { [head]: rest.length > 0 ? { [rest[0]!]: '' } : '' };
}

/** May a caller with visibility `v` write the field at `path`? */
export function mayWriteField(path: string, v: Visibility): boolean {
  return forbiddenWrites(bodyNaming(path), v).length === 0;
}

/** The section `key` reduced to the fields `v` may write (groups without fields dropped), or null. */
export function sectionFor(key: string, v: Visibility): Section | null {
  const section = STAFF_SECTIONS.find((s) => s.key === key);
  if (!section) return null;
  const groups: Group[] = section.groups
    .map((g) => ({ ...g, fields: g.fields.filter((f) => mayWriteField(f.name, v)) }))
    .filter((g) => g.fields.length > 0);
  return groups.length > 0 ? { ...section, groups } : null;
}
