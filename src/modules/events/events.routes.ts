/**
 * POST /series/{s}/events, GET|PATCH /series/{s}/events/{e}, POST /events/{e}/setup/complete
 * (spec "Series and events"; docs/decisions.md "Series, events and bans").
 */

import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { EventRequest } from './event-input.schemas.js';
import { EventFullBody, SeriesParams } from './events.schemas.js';
import * as service from './events.service.js';

const tags = ['series'];
const SeriesEventParams = Type.Object({
  ...SeriesParams.properties,
  event_id: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Numeric event id, event UUID or slug of an event of this series (else 404)',
  }),
});
const RULES =
  '`name` and `support_email` required on create (422 `Missing required fields: …` naming each missing one); `support_email`’s domain must be one of the operator domains (`MUSTER_OPERATOR_DOMAINS`, exact, case-insensitive; stored lower-cased); `slug` `^[a-z0-9-]+$`, not only digits, not reserved (`current`, `new`, `series`, …), unique (taken → 409); generated from `name` when omitted (`-2`, `-3`… when taken); `timezone` an IANA name (default `UTC`); date-times without `Z`/offset are wall-clock times in the event’s timezone; `ends_at` ≥ `starts_at`, `registration_close_at` ≥ `registration_open_at`. Unknown fields (also `logo_url`, `banner_url`, `series`, `setup_complete`) → 422. `event_series_id` naming another series → 403; the own series’ UUID or slug is accepted.';
const READERS =
  'Series API key of the event’s series (another series → 403); users with event access (global admin, a series role on the series, any event role on the event); event API keys 403. `{series_id}` = UUID, slug or `current` (series keys only; users 400).';
const MANAGERS =
  'Series API key of the event’s series; users who manage the event (global admin, series owner/organizer, `event_admin`); event API keys 403.';

export function eventRoutes(app: Api, deps: Deps): void {
  app.post(
    '/series/:series_id/events',
    {
      config: { action: 'events.create' },
      schema: {
        tags,
        summary: 'Create an event (series API key only)',
        description: `Creates a draft (\`setup_complete\` false) in the key’s series with the default \`Event check-in\` scan context and the modules travel, visa, accommodation, roommate preferences and freedom waivers on (others off unless given). The key’s owner gets \`event_admin\` (unless a global admin). Audited \`events.create\` (actor: the key’s owner; metadata: \`series_api_key_name\`, \`series_api_key_id\`). ${RULES} Any other credential → 403 \`Creating an event requires a series API key\` (also with \`current\`). Another series than the key’s → 403; unknown series → 404.`,
        params: SeriesParams,
        body: EventRequest,
        response: { 201: EventFullBody, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = await service.createSeriesEvent(routeCtx(deps, request), request.body);
      return reply.status(201).send(body);
    },
  );

  app.get(
    '/series/:series_id/events/:event_id',
    {
      config: { action: 'series.events.read' },
      schema: {
        tags,
        summary: 'One event of a series (Event full)',
        description: READERS,
        params: SeriesEventParams,
        response: { 200: EventFullBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.getSeriesEvent(routeCtx(deps, request)),
  );

  app.patch(
    '/series/:series_id/events/:event_id',
    {
      config: { action: 'series.events.update' },
      schema: {
        tags,
        summary: 'Update an event of a series',
        description: `Any subset of the create fields, with the same rules for those given. ${RULES} \`modules\` merge into the current flags; \`hotel_scan_context_id\` must name one of the event’s scan contexts (or be null). Audited \`events.update\`; bumps \`updated_at\`; \`{event:{}}\` changes nothing. ${MANAGERS}`,
        params: SeriesEventParams,
        body: EventRequest,
        response: { 200: EventFullBody, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request) => service.updateSeriesEvent(routeCtx(deps, request), request.body),
  );

  app.post(
    '/events/:event_id/setup/complete',
    {
      config: { action: 'events.setup_complete' },
      schema: {
        tags,
        summary: 'Complete an event’s setup (leave draft)',
        description: `Sets \`setup_complete\` true. 422 \`${service.SUPPORT_EMAIL_NEEDED}\` when the event has no support email. Idempotent (an event already set up is returned unchanged). Audited \`events.setup_complete\`. Callers: event managers (global admin, series owner/organizer, \`event_admin\`), the series API key of its series and the event’s own event API key (docs/decisions.md "Credentials and roles"). \`{event_id}\`: numeric id or UUID.`,
        params: Type.Object({ event_id: EventIdParam }),
        response: { 200: EventFullBody, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => service.completeSetup(routeCtx(deps, request)),
  );
}
