/**
 * POST /travel/validate_flight (docs/travel.md "Flight check"): the flight number's form and the
 * date; then, when a provider is configured, its schedule for that flight on that date. Only a
 * malformed number or date is an error (422); an unknown flight, a wrong date or a provider that
 * cannot answer is `{valid: false, error}` in plain words, never a 5xx.
 */
import type { Deps } from '../../deps.js';
import { flightProvider } from '../../integrations/flights/index.js';
import { type FlightInfo, FlightProviderError, pickSector } from '../../integrations/flights/provider.js';
import { unprocessable } from '../../lib/errors.js';
import { isCalendarDate, parseFlightCode } from './flight-code.js';
import type { ValidateFlightBodyJson, ValidateFlightResultJson } from './lookups.schemas.js';

const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

export async function validateFlight(
  deps: Pick<Deps, 'config' | 'log'>,
  body: ValidateFlightBodyJson,
): Promise<ValidateFlightResultJson> {
  const flight = parseFlightCode(body.flight_code);
  if (!flight) throw unprocessable('flight_code must be an airline code and a flight number, e.g. BA117');
  if (!isCalendarDate(body.date)) throw unprocessable('date must be a calendar date like 2026-07-14');
  const provider = flightProvider(deps.config.flights);
  if (!provider) {
    return {
      valid: true,
      flight_code: flight.code,
      carrier: null,
      departure_airport: null,
      arrival_airport: null,
      departure_time: null,
      arrival_time: null,
      source: 'format_only',
    };
  }
  let sector: FlightInfo | undefined;
  try {
    sector = pickSector(await provider.lookup({ flight, date: body.date }));
  } catch (error) {
    if (!(error instanceof FlightProviderError)) throw error;
    deps.log.warn(
      { provider: provider.name, kind: error.kind, err: error.message },
      'flight check: provider did not answer',
    );
    return {
      valid: false,
      error:
        'We cannot check flights right now. Please check the flight number and date on your booking and fill in the details yourself.',
    };
  }
  if (!sector) {
    const day = DAY_FORMAT.format(new Date(`${body.date}T00:00:00Z`));
    return {
      valid: false,
      error: `We could not find flight ${flight.code} departing on ${day}. Check the flight number and the date on your booking.`,
    };
  }
  return {
    valid: true,
    flight_code: flight.code,
    carrier: sector.carrier,
    departure_airport: sector.departureAirport,
    arrival_airport: sector.arrivalAirport,
    departure_time: sector.departureTime,
    arrival_time: sector.arrivalTime,
    source: provider.name,
  };
}
