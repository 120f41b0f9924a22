/** Travel calendar route (docs/decisions.md "Travel calendar"). */

import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { TravelCalendar } from './travel.schemas.js';
import { travelCalendar } from './travel.service.js';

const DESCRIPTION = [
  'The event’s travel records (inbound and outbound) of registrations whose status is `complete`, in the camelCase shape the mobile app reads. One entry per travel record; `id` is the travel id.',
  '**primaryTimeAt** (ISO 8601 UTC): inbound → the final leg’s `arrival_time`, else the travel’s `arrival_time`, else its `expected_arrival_time`; outbound → the first leg’s `departure_time`, else the travel’s `departure_time`; none → null (an *unscheduled* entry). **agendaDate**: primaryTimeAt’s calendar date in the event’s time zone (`eventTimezone`), null when unscheduled. **dates**: the distinct agendaDates, ascending. Entries are ordered by primaryTimeAt (unscheduled last), then participant name, then id.',
  '**route**: plane → the legs’ airports in order (`BOS → DUB → LHR`); train → departure → arrival station; bus → departure → arrival location; car → `origin_address`; other → departure → arrival station; a mode without its own fields falls back to departure → arrival city; nothing known → null. Callers without PII rights — users whose only roles on the event are `limited`/`read_only`, and every API key (keys are not people with PII rights) — read `Address hidden` as the route of every car journey. **reference**: plane → the legs’ flight codes (`TA100, TA200`), else `flight_number`; other modes → `flight_number` (the service number). **details**: `other_details`.',
  '**pickupState** (the values the mobile app’s pickup pills and “Awaiting pickup” filter read): outbound → `null`; inbound → `collected` when the final leg has `travel_picked_up_at`, else `checked_in` when the registration has a scan in a check-in context, else `pickup_not_needed` when `pickup_dismissed_at` is set, else `awaiting_pickup`. **groups**: the registration’s groups `[{id, name, color}]` ordered by name (`color` may be null); `[]` when the event’s `groups_enabled` module is off. **counts**: `total` = number of entries; `inbound`/`outbound` by direction; `scheduled`/`unscheduled` by primaryTimeAt; `awaitingPickup`, `collected`, `checkedIn`, `pickupNotNeeded` by pickupState.',
  'Callers: users with event access (global admin, any event role, a series role on the event’s series), an event API key of the event (or its legacy key), a series API key of its series; other keys 403. `{event_id}`: numeric id or event UUID (a slug is 404).',
].join('\n\n');

export function travelRoutes(app: Api, deps: Deps): void {
  app.get(
    '/events/:event_id/travel',
    {
      config: { action: 'travel.read' },
      schema: {
        tags: ['travel'],
        summary: 'Travel calendar of an event',
        description: DESCRIPTION,
        params: Type.Object({ event_id: EventIdParam }),
        response: { 200: TravelCalendar, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const body = await travelCalendar(routeCtx(deps, request));
      return reply.send(body);
    },
  );
}
