/** Wire shapes: Series record (Muster's decision: id, slug, name, description, timestamps), Event summary. */
import { Type } from 'typebox';
import { DateTime, EventPlaceFields, Nullable, NullableDateTime } from '../../http/schema-helpers.js';

const NStr = Nullable(Type.String());

export const Series = Type.Object({
  id: Type.String({ format: 'uuid' }),
  slug: Type.String(),
  name: Type.String(),
  description: NStr,
  created_at: DateTime,
  updated_at: DateTime,
});

export const EventSummary = Type.Object({
  id: Type.String({ format: 'uuid' }),
  slug: Type.String(),
  name: Type.String(),
  series: Type.Object({ id: Type.String({ format: 'uuid' }), slug: Type.String(), name: Type.String() }),
  support_email: Nullable(Type.String({ format: 'email' })),
  timezone: Type.String({ description: 'IANA zone name' }),
  starts_at: NullableDateTime,
  ends_at: NullableDateTime,
  registration_open_at: NullableDateTime,
  registration_close_at: NullableDateTime,
  ...EventPlaceFields,
  setup_complete: Type.Boolean(),
  created_at: DateTime,
  updated_at: DateTime,
});

/** spec Event.modules: nine flags plus `visa_application_url` (null when unset, docs/decisions.md "Timestamps and nulls"). */
export const EventModulesSchema = Type.Object({
  freedom_waivers_enabled: Type.Boolean(),
  travel_enabled: Type.Boolean(),
  visa_options_enabled: Type.Boolean(),
  accommodation_enabled: Type.Boolean(),
  roommate_preferences_enabled: Type.Boolean(),
  guardian_invites_locked: Type.Boolean(),
  nfc_badges_enabled: Type.Boolean(),
  nfc_badge_write_on_checkin_enabled: Type.Boolean(),
  groups_enabled: Type.Boolean(),
  visa_application_url: Nullable(Type.String({ maxLength: 2000, description: 'http(s) URL' })),
});

/** spec "Event (full)": the summary plus modules, hotel_scan_context_id and participant_count. */
export const EventFull = Type.Object({
  ...EventSummary.properties,
  modules: EventModulesSchema,
  hotel_scan_context_id: Nullable(Type.String({ format: 'uuid' })),
  email_reminders_enabled: Type.Boolean({
    description: 'Reminder emails on (default) or off for this event (docs/email.md "Reminders")',
  }),
  participant_count: Type.Integer({
    description: 'Registrations of the event that are not withdrawn or rejected',
  }),
});
export const EventFullBody = Type.Object({ event: EventFull });

/** Path parameter of the series routes. */
export const SeriesParams = Type.Object({
  series_id: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Series UUID, slug, or `current` (series API key only; other credentials get 400)',
  }),
});
