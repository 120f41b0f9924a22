/** Wire shapes of GET /me and GET /events (spec "Account and credentials"); the session response reuses them. */
import { Type } from 'typebox';
import { Nullable, NullableDateTime } from '../../http/schema-helpers.js';

const NStr = Nullable(Type.String());

export const Me = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  global_admin: Type.Boolean(),
  is_organizer: Type.Boolean({ description: 'Global admin or any event/series role' }),
  is_participant: Type.Boolean({ description: 'Has at least one registration' }),
});

export const AccessibleEvent = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  starts_at: NullableDateTime,
  ends_at: NullableDateTime,
  timezone: Type.String(),
  location_city: NStr,
  logo_url: NStr,
  banner_url: NStr,
  role: Nullable(
    Type.String({
      description:
        '`global_admin`; else the widest event role (event_admin, safeguarding_lead, ops, limited, read_only); else `series_member` when the event is reached only through a series role (the value the mobile app labels)',
    }),
  ),
  series_role: Nullable(
    Type.String({ description: 'The widest series role on the event’s series: owner, organizer, or null' }),
  ),
  can_view_participants: Type.Boolean(),
  can_view_participant_pii: Type.Boolean(),
  can_view_sensitive_data: Type.Boolean(),
  travel_enabled: Type.Boolean(),
});
