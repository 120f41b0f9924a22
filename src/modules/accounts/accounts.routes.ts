/** GET /me, GET /events (spec "Account and credentials"). Users only; API keys get 403. */

import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { AccessibleEvent, Me } from './accounts.schemas.js';
import * as service from './accounts.service.js';

const tags = ['account'];

export function accountRoutes(app: Api, deps: Deps): void {
  app.get(
    '/me',
    {
      config: { action: 'account.me' },
      schema: { tags, summary: 'The signed-in user', response: { 200: Me, ...errorResponses(401, 403) } },
    },
    async (request) => service.getMe(routeCtx(deps, request)),
  );
  app.get(
    '/events',
    {
      config: { action: 'account.events' },
      schema: {
        tags,
        summary: 'Events the user can access',
        description:
          'All events for a global admin; otherwise events where the user holds an event or series role. Ordered by start date (no date last). `role`, `series_role` and the `can_*`/`travel_enabled` flags are extensions the mobile app reads: `role` is one of the values the app knows (`series_member` for an event reached only through a series role; `owner`/`organizer` are in `series_role`).',
        response: { 200: Type.Object({ events: Type.Array(AccessibleEvent) }), ...errorResponses(401, 403) },
      },
    },
    async (request) => service.listAccessibleEvents(routeCtx(deps, request)),
  );
}
