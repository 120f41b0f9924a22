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
  scheduled: 'Scheduled',
  delayed: 'Delayed',
  departed: 'Departed',
  en_route: 'In the air',
  landed: 'Landed',
  arrived: 'At the gate',
  cancelled: 'Cancelled',
  diverted: 'Diverted',
};
export const PICKUP_TEXT: Record<string, string> = {
  awaiting_pickup: 'Awaiting pickup',
  collected: 'Collected',
  checked_in: 'Checked in',
  pickup_not_needed: 'No pickup needed',
};

function trackingNote(board: Board): string | null {
  const t = board.tracking;
  if (t.provider === 'none') return 'Live flight tracking is off: no flight-data provider is configured.';
  if (t.pausedUntil)
    return `Live flight updates are paused after provider errors until ${when(t.pausedUntil)}.`;
  if (t.exhausted === 'day')
    return `Live flight updates are paused: today’s call budget (${t.budgetPerDay}) is used up until midnight UTC.`;
  if (t.exhausted === 'hour')
    return `Live flight updates are paused: this hour’s call budget (${t.budgetPerHour}) is used up until the next hour (UTC).`;
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
        ...eventFrame(ctx.access, '/arrivals', 'Arrivals'),
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
