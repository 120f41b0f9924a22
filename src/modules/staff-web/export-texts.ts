/**
 * What the Exports page says about each preset (docs/exports.md "Who gets what"): a label, what the
 * file holds for the caller's visibility, and who may download it. The words match presets.ts and
 * the column classes; test/web/exports-page.test.ts reads them back.
 */
import type { Visibility } from '../../access/policy.js';
import { staffText } from '../../lib/i18n/staff.js';
import type { PresetName } from '../exports/presets.js';

interface PresetText {
  about: (v: Visibility) => string;
  who: string;
}

const ALL = staffText('export_texts.everyone_with_participant_access_event_admins');
const SENSITIVE = staffText('export_texts.safeguarding_leads_and_global_admins_only');
const pii = (v: Visibility, yes: string, no: string) => (v.pii ? yes : no);

export const PRESET_TEXT: Record<PresetName, PresetText> = {
  roster: { about: () => staffText('export_texts.names_email_registration_status_and_when'), who: ALL },
  medical: {
    about: () => staffText('export_texts.complete_registrations_by_last_name_allergies'),
    who: SENSITIVE,
  },
  dietary: {
    about: () => staffText('export_texts.complete_registrations_by_last_name_with'),
    who: SENSITIVE,
  },
  catering: {
    about: () => staffText('export_texts.counts_for_the_kitchen_no_names'),
    who: ALL,
  },
  rooming: {
    about: () => staffText('export_texts.accommodation_needs_roommate_preferences_and_assigned'),
    who: ALL,
  },
  travel: {
    about: (v) =>
      staffText('export_texts.one_row_per_journey_leg_with', {
        pii: pii(v, staffText('export_texts.and_the_address_they_travel_from'), ''),
      }),
    who: staffText('export_texts.limited_staff_get_no_origin_address', { all: ALL }),
  },
  emergency_contacts: {
    about: () => staffText('export_texts.complete_registrations_by_last_name_phone'),
    who: SENSITIVE,
  },
  badges: {
    about: () => staffText('export_texts.name_badges_for_complete_registrations_name'),
    who: ALL,
  },
  door_list: {
    about: () => staffText('export_texts.the_paper_backup_of_the_door'),
    who: ALL,
  },
  medical_cards: {
    about: () => staffText('export_texts.one_card_per_participant_for_the'),
    who: SENSITIVE,
  },
  emergency_sheet: {
    about: () => staffText('export_texts.who_to_call_for_everyone_on'),
    who: SENSITIVE,
  },
  full: {
    about: (v) =>
      v.sensitive
        ? staffText('export_texts.every_field_of_the_record_including')
        : staffText('export_texts.every_field_you_may_see_no', {
            pii: pii(
              v,
              staffText('export_texts.personal_details_with_phone_date_of'),
              staffText('export_texts.no_phone_date_of_birth_or'),
            ),
          }),
    who: staffText('export_texts.limited_staff_get_no_phone_date', { all: ALL }),
  },
};
