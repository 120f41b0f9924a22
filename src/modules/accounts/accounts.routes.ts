/** GET /me, GET /events (spec "Account and credentials"). Users only; API keys get 403. */

import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { ctxOf } from '../../http/authorize.js';
import { errorResponses, Nullable, NullableDateTime } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import * as service from './accounts.service.js';

const tags = ['account'];
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
        'Widest role: global_admin, owner, organizer, event_admin, safeguarding_lead, ops, limited, read_only',
    }),
  ),
  can_view_participants: Type.Boolean(),
  can_view_participant_pii: Type.Boolean(),
  can_view_sensitive_data: Type.Boolean(),
  travel_enabled: Type.Boolean(),
});

export function accountRoutes(app: Api, deps: Deps): void {
  app.get(
    '/me',
    {
      config: { action: 'account.me' },
      schema: { tags, summary: 'The signed-in user', response: { 200: Me, ...errorResponses(401, 403) } },
    },
    async (request) => service.getMe(ctxOf(deps, request, 'account.me')),
  );
  app.get(
    '/events',
    {
      config: { action: 'account.events' },
      schema: {
        tags,
        summary: 'Events the user can access',
        description:
          'All events for a global admin; otherwise events where the user holds an event or series role. Ordered by start date (no date last). `role` and the `can_*`/`travel_enabled` flags are extensions the mobile app reads.',
        response: { 200: Type.Object({ events: Type.Array(AccessibleEvent) }), ...errorResponses(401, 403) },
      },
    },
    async (request) => service.listAccessibleEvents(ctxOf(deps, request, 'account.events')),
  );
}
