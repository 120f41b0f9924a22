/**
 * Staff home and the event overview's frame (issue "Staff dashboard" items 1–2).
 * - GET /staff: the events the signed-in user can reach (the service behind GET /api/v1/events),
 *   with their role and dates. A user with no staff role sees a short "no events" page.
 * - GET /staff/events/{event_id}: the event's overview (event access: any role on the event or its
 *   series, global admins); the navigation lists the pages the caller's roles open.
 */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { ctxOf } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { listAccessibleEvents } from '../accounts/accounts.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { eventNav } from './nav.js';

export const EventParams = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }) },
  { additionalProperties: false },
);

export function homePages(web: Api, deps: Deps): void {
  web.get(
    '/staff',
    {
      config: { action: 'account.events', credential: 'session_cookie' },
      schema: { hide: true, response: pageResponses },
    },
    async (request, reply) => {
      const { events } = await listAccessibleEvents(ctxOf(deps, request, 'account.events'));
      return reply.page(200, 'staff/home', { title: 'Your events', events });
    },
  );
  web.get(
    '/staff/events/:event_id',
    {
      config: { action: 'events.overview', credential: 'session_cookie' },
      schema: { hide: true, params: EventParams, response: pageResponses },
    },
    async (request, reply) => {
      const { access } = ctxOf(deps, request, 'events.overview');
      return reply.page(200, 'staff/overview', {
        title: access.event.name,
        event: access.event,
        nav: eventNav(access, access.event.id, ''),
      });
    },
  );
}
