/** GET /series, GET /series/{series_id}, GET /series/{series_id}/events (docs/decisions.md "Series, events and bans"). */

import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { EventSummary, Series, SeriesParams } from './events.schemas.js';
import * as service from './series.service.js';

const tags = ['series'];

export function seriesRoutes(app: Api, deps: Deps): void {
  app.get(
    '/series',
    {
      config: { action: 'series.list' },
      schema: {
        tags,
        summary: 'Series the caller can see',
        description:
          'A series API key sees its own series; a global admin all; other users the series where they hold a series role (owner, organizer). Event API keys: 403.',
        response: { 200: Type.Object({ series: Type.Array(Series) }), ...errorResponses(401, 403) },
      },
    },
    async (request) => service.listSeries(routeCtx(deps, request)),
  );
  app.get(
    '/series/:series_id',
    {
      config: { action: 'series.read' },
      schema: {
        tags,
        summary: 'One series',
        params: SeriesParams,
        response: { 200: Type.Object({ series: Series }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.getSeries(routeCtx(deps, request)),
  );
  app.get(
    '/series/:series_id/events',
    {
      config: { action: 'series.events.list' },
      schema: {
        tags,
        summary: 'Events of a series (summaries)',
        description: 'Earliest start first; events with no start date last.',
        params: SeriesParams,
        response: {
          200: Type.Object({ events: Type.Array(EventSummary) }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => service.listSeriesEvents(routeCtx(deps, request)),
  );
}
