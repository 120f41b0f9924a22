/** Wire shapes of the airport and flight lookups (docs/travel.md "Airport search", "Flight check"). */
import { type Static, Type } from 'typebox';
import { DateOnly, DateTime, Nullable } from '../../http/schema-helpers.js';

export const AirportSearchQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ maxLength: 100, description: 'Code, or the start of words of the name or city' }),
    ),
  },
  { additionalProperties: false },
);

export const AirportJson = Type.Object({
  iata: Type.String({ description: 'IATA airport code, e.g. `LHR`' }),
  icao: Nullable(Type.String({ description: 'ICAO airport code, e.g. `EGLL`' })),
  name: Type.String(),
  city: Nullable(Type.String()),
  country: Nullable(Type.String({ description: 'Country name in English' })),
  time_zone: Nullable(Type.String({ description: 'IANA time zone, e.g. `Europe/London`' })),
});

export const AirportSearchResult = Type.Object({ airports: Type.Array(AirportJson, { maxItems: 20 }) });

export const ValidateFlightBody = Type.Object(
  {
    flight_code: Type.String({ minLength: 1, maxLength: 20, description: 'e.g. `BA117` or `BA 0117`' }),
    date: Type.String({
      ...DateOnly,
      description: 'Departure date, local to the departure airport (`YYYY-MM-DD`)',
    }),
  },
  { additionalProperties: false },
);
export type ValidateFlightBodyJson = Static<typeof ValidateFlightBody>;

export const FlightValid = Type.Object({
  valid: Type.Literal(true),
  flight_code: Type.String({ description: 'Normalised, e.g. `BA117`' }),
  carrier: Nullable(Type.String({ description: 'Airline name' })),
  departure_airport: Nullable(Type.String({ description: 'IATA code' })),
  arrival_airport: Nullable(Type.String({ description: 'IATA code' })),
  departure_time: Nullable(DateTime),
  arrival_time: Nullable(DateTime),
  source: Type.String({ description: 'The flight-data provider (`aerodatabox`, `demo`), or `format_only`' }),
});
export const FlightInvalid = Type.Object({
  valid: Type.Literal(false),
  error: Type.String({ description: 'Plain words for the person filling in the form' }),
});
export const ValidateFlightResult = Type.Union([FlightValid, FlightInvalid]);
export type ValidateFlightResultJson = Static<typeof ValidateFlightResult>;
