/**
 * The arrivals board (docs/travel.md "Arrivals board"), over the travel module's board service, for
 * users with event access (action `travel.read`, as the travel calendar):
 * - GET /staff/events/{e}/arrivals[?date=YYYY-MM-DD]: one day's plane arrivals and departures by
 *   airport (default: today in the event's time zone), and whether live tracking is running.
 * - GET /staff/events/{e}/arrivals/board[?date=]: the board alone (an HTML fragment), which the
 *   page's script (web/public/js/arrivals.js) fetches every 30 seconds (`?refresh=` seconds, 2–300)
 *   so delays and landings appear without a reload. Without JavaScript the page is the same board,
 *   reloaded by hand.
 */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { ctxOf } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { arrivalsBoard, type Board } from '../travel/board.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { may } from './nav.js';
import { eventFrame, when } from './org-pages.js';

const action = 'travel.read' as const;
const session = { action, credential: 'session_cookie' } as const;
const Params = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }) },
  { additionalProperties: false },
);
const Query = Type.Object(
  {
    date: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })),
    refresh: Type.Optional(Type.Integer({ minimum: 2, maximum: 300 })),
  },
  { additionalProperties: false },
);

export const STATUS_TEXT: Record<string, string> = {
  scheduled: staffText('arrivals.scheduled'),
  delayed: staffText('arrivals.delayed'),
  departed: staffText('arrivals.departed'),
  en_route: staffText('arrivals.in_the_air'),
  landed: staffText('arrivals.landed'),
  arrived: staffText('arrivals.at_the_gate'),
  cancelled: staffText('arrivals.cancelled'),
  diverted: staffText('arrivals.diverted'),
};
export const PICKUP_TEXT: Record<string, string> = {
  awaiting_pickup: staffText('arrivals.awaiting_pickup'),
  collected: staffText('arrivals.collected'),
  checked_in: staffText('arrivals.checked_in'),
  pickup_not_needed: staffText('arrivals.no_pickup_needed'),
};

function trackingNote(board: Board): string | null {
  const t = board.tracking;
  if (t.provider === 'none') return staffText('arrivals.live_flight_tracking_is_off_no');
  if (t.pausedUntil)
    return staffText('arrivals.live_flight_updates_are_paused_after', { when: when(t.pausedUntil) });
  if (t.exhausted === 'day')
    return staffText('arrivals.live_flight_updates_are_paused_today', { budget_per_day: t.budgetPerDay });
  if (t.exhausted === 'hour')
    return staffText('arrivals.live_flight_updates_are_paused_this', { budget_per_hour: t.budgetPerHour });
  return null;
}

function view(board: Board) {
  return { board, note: trackingNote(board), statusText: STATUS_TEXT, pickupText: PICKUP_TEXT };
}

export function arrivalsPages(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/arrivals',
    { config: session, schema: { hide: true, params: Params, querystring: Query, response: pageResponses } },
    async (request, reply) => {
      const ctx = ctxOf(deps, request, action);
      const board = await arrivalsBoard(ctx, request.query.date);
      return reply.page(200, 'staff/arrivals', {
        ...eventFrame(ctx.access, '/arrivals', staffText('arrivals.arrivals')),
        ...view(board),
        refresh: request.query.refresh ?? 30,
        scripts: ['/assets/js/arrivals.js'],
        runSheet: may(ctx.access, 'participants.list'),
      });
    },
  );
  web.get(
    '/staff/events/:event_id/arrivals/board',
    { config: session, schema: { hide: true, params: Params, querystring: Query, response: pageResponses } },
    async (request, reply) => {
      const board = await arrivalsBoard(ctxOf(deps, request, action), request.query.date);
      return reply.page(200, 'staff/arrivals-board', view(board));
    },
  );
}
