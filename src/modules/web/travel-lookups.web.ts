/**
 * Airport and flight lookups (docs/travel.md "Airport search", "Flight check"), for the travel forms
 * of the participant and staff pages. They authenticate with the web session cookie, never a bearer
 * token, so they live in the web pages' scope (cookies, CSRF) at their API paths:
 * - GET  /api/v1/travel/search_airports?q=
 * - POST /api/v1/travel/validate_flight {flight_code, date} with the page's CSRF token in `x-csrf-token`.
 * No session (a bearer-only request included) → 401 `{"error":"Unauthorized"}`, checked before the
 * CSRF token; errors are the API's JSON envelope, not HTML pages.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { jsonErrorHandler } from '../../http/errors.js';
import { errorResponses } from '../../http/schema-helpers.js';
import { SignInRequired, sessionToken } from '../../http/session-cookie.js';
import { type Api, typed } from '../../http/typed.js';
import { unauthorized } from '../../lib/errors.js';
import { searchAirports } from '../travel/airports.service.js';
import {
  AirportSearchQuery,
  AirportSearchResult,
  ValidateFlightBody,
  ValidateFlightResult,
} from '../travel/lookups.schemas.js';
import { validateFlight } from '../travel/validate.service.js';

const session = { action: 'travel.lookup', credential: 'session_cookie' } as const;
/** Flight checks cost provider calls: 30 a minute per client address. */
export const VALIDATE_RATE_LIMIT = { max: 30, timeWindow: '1 minute' } as const;

const COOKIE_ONLY =
  'Authenticates with the web session cookie (the signed-in pages), not a bearer token: a request without a session, a bearer-only one included, is 401.';

export function travelLookupRoutes(web: Api, deps: Deps): void {
  web.register(async (scope) => {
    const api = typed(scope);
    api.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
      error instanceof SignInRequired
        ? reply.status(401).send({ error: 'Unauthorized' })
        : jsonErrorHandler(error, request, reply),
    );
    // Before the pages' CSRF check (preValidation): no session is 401, whatever else is wrong.
    api.addHook('onRequest', async (request) => {
      if (!sessionToken(deps.sealer, request)) throw unauthorized();
    });

    api.get(
      '/api/v1/travel/search_airports',
      {
        config: session,
        schema: {
          tags: ['travel'],
          summary: 'Search airports',
          description: `Airports by code, name or city, for the travel forms: the exact IATA or ICAO code first, then airports whose name or city has a word starting with each word of \`q\` (case and accents ignored), bigger airports first; at most 20; a blank \`q\` → \`{airports: []}\`. \`time_zone\` is the airport's IANA time zone (leg times are shown in it). Data: Open Travel Data and OurAirports (docs/decisions.md "Airport data"). ${COOKIE_ONLY}`,
          querystring: AirportSearchQuery,
          response: { 200: AirportSearchResult, ...errorResponses(401, 422) },
        },
      },
      async (request) => ({ airports: await searchAirports(request.query.q ?? '') }),
    );

    api.post(
      '/api/v1/travel/validate_flight',
      {
        config: { ...session, rateLimit: { ...VALIDATE_RATE_LIMIT } },
        schema: {
          tags: ['travel'],
          summary: 'Check a flight number and date',
          description: `Normalises the flight number (\`BA 0117\` → \`BA117\`: IATA airline designator and 1–4 digits) and checks the date; with a flight-data provider configured, returns its schedule (carrier, airports by IATA code, scheduled times in UTC) for the form to fill in, and \`source\` names the provider; without one \`source\` is \`format_only\` and only the form is checked. A malformed number or date is 422. A flight the provider does not know on that date, or a provider that cannot answer, is 200 \`{valid: false, error}\` with a plain message. Posts carry the page's CSRF token in the \`x-csrf-token\` header (403 without it). 30 checks a minute per client (429). ${COOKIE_ONLY}`,
          body: ValidateFlightBody,
          response: { 200: ValidateFlightResult, ...errorResponses(400, 401, 403, 422, 429) },
        },
      },
      async (request) => validateFlight(deps, request.body),
    );
  });
}
