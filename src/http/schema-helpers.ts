/** Small TypeBox helpers shared by module schemas. */
import { type TSchema, Type } from 'typebox';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601 UTC, microseconds' });
export const NullableDateTime = Nullable(DateTime);
export const DateOnly = Type.String({ format: 'date' });
export const ErrorBody = Type.Object({ error: Type.String() }, { description: 'Error envelope' });
/** A 422 of a record write: `error` (every problem's message, joined by "; ") plus each problem as data. */
export const ProblemsErrorBody = Type.Object(
  {
    error: Type.String(),
    problems: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({
            description: 'Field path, e.g. `personal.date_of_birth`, `guardians[0].phone`, `body`',
          }),
          message: Type.String({ description: 'The sentence, naming the field as `error` does' }),
        }),
        { description: 'One entry per invalid or unknown field' },
      ),
    ),
  },
  { description: 'Error envelope' },
);

/** Standard error responses for an authenticated route (docs/decisions.md "Status codes and check order"). */
export const errorResponses = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBody])) as Record<number, typeof ErrorBody>;

/** `{event_id}`: numeric id or event UUID (participants endpoints: or slug). */
export const EventIdParam = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Numeric event id, event UUID, or (participants endpoints) slug',
});

/**
 * A numeric id in a path (docs/decisions.md "Identifiers"): decimal digits only, so `0x10`, `1e3`,
 * `+16`, ` 16` or `16.0` fail validation, which for a path parameter answers 404 like an unknown
 * id (http/errors.ts), before the body is looked at.
 */
export const numericIdParam = (description: string) => Type.String({ pattern: '^[0-9]{1,18}$', description });

/**
 * Where an event takes place, as every event shape on the wire carries it (the event API and a
 * ticket's `event`): venue, city, country, address and coordinates, each null when unset.
 */
export const EventPlaceFields = {
  venue_name: Nullable(Type.String()),
  location_city: Nullable(Type.String()),
  location_country: Nullable(Type.String()),
  location_address: Nullable(Type.String()),
  location_latitude: Nullable(Type.Number()),
  location_longitude: Nullable(Type.Number()),
};
