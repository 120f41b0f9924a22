/** Wire shapes: Series record (Muster's decision: id, slug, name, description, timestamps), Event summary. */
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime } from '../../http/schema-helpers.js';

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
  venue_name: NStr,
  location_city: NStr,
  location_country: NStr,
  location_address: NStr,
  location_latitude: Nullable(Type.Number()),
  location_longitude: Nullable(Type.Number()),
  setup_complete: Type.Boolean(),
  created_at: DateTime,
  updated_at: DateTime,
});
