/** Series records, Event summary and Event (full) on the wire (spec "Event summary", "Event (full)"). */
import type { EventModules } from '../../db/schema/index.js';
import { isoTimestamp } from '../../lib/time.js';
import type { EventRow, SeriesRow } from './records.service.js';

export function serializeSeries(s: SeriesRow) {
  return {
    id: s.id,
    slug: s.slug,
    name: s.name,
    description: s.description,
    created_at: isoTimestamp(s.createdAt)!,
    updated_at: isoTimestamp(s.updatedAt)!,
  };
}

export function serializeEventSummary(e: EventRow, s: Pick<SeriesRow, 'id' | 'slug' | 'name'>) {
  return {
    id: e.uuid,
    slug: e.slug,
    name: e.name,
    series: { id: s.id, slug: s.slug, name: s.name },
    support_email: e.supportEmail,
    timezone: e.timezone,
    starts_at: isoTimestamp(e.startsAt),
    ends_at: isoTimestamp(e.endsAt),
    registration_open_at: isoTimestamp(e.registrationOpenAt),
    registration_close_at: isoTimestamp(e.registrationCloseAt),
    venue_name: e.venueName,
    location_city: e.locationCity,
    location_country: e.locationCountry,
    location_address: e.locationAddress,
    location_latitude: e.locationLatitude,
    location_longitude: e.locationLongitude,
    setup_complete: e.setupComplete,
    created_at: isoTimestamp(e.createdAt)!,
    updated_at: isoTimestamp(e.updatedAt)!,
  };
}

export function serializeModules(m: EventModules): EventModules {
  return {
    freedom_waivers_enabled: m.freedom_waivers_enabled,
    travel_enabled: m.travel_enabled,
    visa_options_enabled: m.visa_options_enabled,
    accommodation_enabled: m.accommodation_enabled,
    roommate_preferences_enabled: m.roommate_preferences_enabled,
    guardian_invites_locked: m.guardian_invites_locked,
    nfc_badges_enabled: m.nfc_badges_enabled,
    nfc_badge_write_on_checkin_enabled: m.nfc_badge_write_on_checkin_enabled,
    groups_enabled: m.groups_enabled,
    visa_application_url: m.visa_application_url ?? null,
  };
}

/** spec "Event (full)": summary + modules + hotel_scan_context_id + participant_count. */
export function serializeEventFull(
  e: EventRow,
  s: Pick<SeriesRow, 'id' | 'slug' | 'name'>,
  participantCount: number,
) {
  return {
    ...serializeEventSummary(e, s),
    modules: serializeModules(e.modules),
    hotel_scan_context_id: e.hotelScanContextId,
    email_reminders_enabled: e.emailRemindersEnabled,
    default_language: e.defaultLanguage,
    languages: [e.defaultLanguage, ...e.languages.filter((l) => l !== e.defaultLanguage)],
    participant_count: participantCount,
  };
}
