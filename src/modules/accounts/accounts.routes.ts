/** GET /me, GET /events (spec "Account and credentials"). Users only; API keys get 403. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { ctxOf } from '../../http/authorize.js';
import { errorResponses, Nullable, NullableDateTime } from '../../http/schema-helpers.js';
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
        '`global_admin`; else the widest event role (event_admin, safeguarding_lead, ops, limited, read_only); else `series_member` when the event is reached only through a series role (the value the mobile app labels)',
    }),
  ),
  series_role: Nullable(
    Type.String({ description: 'The widest series role on the event’s series: owner, organizer, or null' }),
  ),
  can_view_participants: Type.Boolean(),
  can_view_participant_pii: Type.Boolean(),
  can_view_sensitive_data: Type.Boolean(),
  travel_enabled: Type.Boolean(),
});

export function accountRoutes(app: FastifyInstance, deps: Deps): void {
  app.get(
    '/me',
    {
      config: { action: 'account.me' },
      schema: { tags, summary: 'The signed-in user', response: { 200: Me, ...errorResponses(401, 403) } },
    },
    async (request) => service.getMe(ctxOf(deps, request)),
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
    async (request) => service.listAccessibleEvents(ctxOf(deps, request)),
  );
}
