/**
 * Request bodies of POST /series/{s}/events and PATCH /series/{s}/events/{e} (spec "Series and
 * events"; docs/decisions.md "Series, events and bans"): `{event: {...}}` with the writable fields of Event (full). Unknown fields
 * are a 422, never dropped. `name` and `support_email` are optional here so that the service can
 * name every missing one in one 422.
 */
import { type Static, Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.js';
import { EventModulesSchema } from './events.schemas.js';

const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });
const NText = (maxLength: number) => Nullable(Text(maxLength));
const When = Nullable(
  Type.String({
    maxLength: 64,
    description:
      'ISO 8601 date-time; without `Z` or an offset (or a bare date = midnight) it is wall-clock time in the event’s `timezone`',
  }),
);

/** Any subset of the module flags (merged into the defaults on create, the current flags on PATCH). */
export const EventModulesInput = Type.Partial(EventModulesSchema, { additionalProperties: false });

export const EventFieldsInput = Type.Object(
  {
    event_series_id: Type.Optional(
      Text(200, 'The series UUID or slug. Only the calling key’s own series is accepted (another → 403).'),
    ),
    name: Type.Optional(Text(200, 'Required on create; trimmed, not blank')),
    support_email: Type.Optional(
      Text(320, 'Required on create; its domain must be one of the operator domains'),
    ),
    slug: Type.Optional(Text(80, '`^[a-z0-9-]+$`, unique, not reserved; generated from name when omitted')),
    timezone: Type.Optional(Text(64, 'IANA zone name; default UTC')),
    starts_at: Type.Optional(When),
    ends_at: Type.Optional(When),
    registration_open_at: Type.Optional(When),
    registration_close_at: Type.Optional(When),
    venue_name: Type.Optional(NText(200)),
    location_city: Type.Optional(NText(200)),
    location_country: Type.Optional(NText(200)),
    location_address: Type.Optional(NText(500)),
    location_latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
    location_longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
    modules: Type.Optional(EventModulesInput),
    email_reminders_enabled: Type.Optional(
      Type.Boolean({
        description:
          'Reminder emails (docs/email.md "Reminders"): guardian invitations re-sent after 3 days, participants reminded 7 and 2 days before registration closes',
      }),
    ),
    hotel_scan_context_id: Type.Optional(
      Nullable(
        Type.String({
          format: 'uuid',
          description:
            'UUID of one of the event’s scan contexts (PATCH; a new event has none to name yet), or null',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type EventFields = Static<typeof EventFieldsInput>;

export const EventRequest = Type.Object({ event: EventFieldsInput }, { additionalProperties: false });
export type EventRequestBody = Static<typeof EventRequest>;
