/**
 * What the Exports page says about each preset (docs/exports.md "Who gets what"): a label, what the
 * file holds for the caller's visibility, and who may download it. The words match presets.ts and
 * the column classes; test/web/exports-page.test.ts reads them back.
 */
import type { Visibility } from '../../access/policy.js';
import type { PresetName } from '../exports/presets.js';

interface PresetText {
  about: (v: Visibility) => string;
  who: string;
}

const ALL =
  'Everyone with participant access: event admins, ops, limited staff, safeguarding leads, series owners and organisers, global admins (not read-only staff).';
const SENSITIVE = 'Safeguarding leads and global admins only.';
const pii = (v: Visibility, yes: string, no: string) => (v.pii ? yes : no);

export const PRESET_TEXT: Record<PresetName, PresetText> = {
  roster: { about: () => 'Names, email, registration status and when they checked in.', who: ALL },
  medical: {
    about: () =>
      'Complete registrations by last name: allergies, conditions, medications, action plans, emergency contacts and the first guardian.',
    who: SENSITIVE,
  },
  dietary: {
    about: () => 'Complete registrations by last name, with diet, intolerances, allergies and risk flags.',
    who: SENSITIVE,
  },
  catering: {
    about: () =>
      'Counts for the kitchen, no names: diets, intolerances and allergy-risk flags, in total and per day of the event.',
    who: ALL,
  },
  rooming: { about: () => 'Accommodation needs, roommate preferences and assigned rooms.', who: ALL },
  travel: {
    about: (v) =>
      `One row per journey leg, with pickup state${pii(v, ' and the address they travel from', '')}.`,
    who: `${ALL} Limited staff get no origin address.`,
  },
  emergency_contacts: {
    about: () => 'Complete registrations by last name: phone, emergency contacts and the first guardian.',
    who: SENSITIVE,
  },
  badges: {
    about: () =>
      'Name badges for complete registrations: name, pronouns, group colour and the ticket QR code, on A4 label sheets (8 per page).',
    who: ALL,
  },
  door_list: {
    about: () =>
      'The paper backup of the door: name, status, under 18 and alerts in words with a tick box, by last name. Pick a scan context for its door.',
    who: ALL,
  },
  medical_cards: {
    about: () =>
      'One card per participant for the first-aid bag: allergies, conditions, medications, action plan, contacts, guardians and pickup adults.',
    who: SENSITIVE,
  },
  emergency_sheet: {
    about: () =>
      'Who to call for everyone on a trip: pick a group or scan context. Phones, emergency contacts, guardians, pickup adults.',
    who: SENSITIVE,
  },
  full: {
    about: (v) =>
      v.sensitive
        ? 'Every field of the record, including medical, dietary and safeguarding details.'
        : `Every field you may see: ${pii(v, 'personal details with phone, date of birth and address', 'no phone, date of birth or address')}, no medical, dietary or safeguarding details (only their yes/no risk flags).`,
    who: `${ALL} Limited staff get no phone, date of birth or address; only safeguarding leads and global admins get medical, dietary and safeguarding details.`,
  },
};
