/**
 * The pickup run sheet, `GET /staff/events/{event_id}/run-sheet[?context=<id>&date=YYYY-MM-DD]`
 * (docs/checkin.md "Pickup run sheet"): for a travel-pickup scan context, the day's expected
 * arrivals (default: today in the event's zone) in the arrival place's own time zone, with the
 * live flight status, unaccompanied minors first; who is still to collect, who was collected.
 * Action `participants.list` (a list of the event's people by name, as the roll call: every event
 * role but `read_only`); the traveller's phone only for callers who may read personal data. Its
 * script (web/public/js/live-lists.js, shared with the roll call) listens to the desk's scan
 * stream, unfiltered so the travel channel's `flight_landed` arrives too, and swaps in the fresh
 * lists on every scan, undo or landing, and every 60 seconds for delays.
 */
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { formatPhone } from '../../lib/phone.js';
import { listScanContexts } from '../checkin/contexts.js';
import { runSheet } from '../checkin/run-sheet.service.js';
import { eventToday } from '../travel/board.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { PICKUP_TEXT, STATUS_TEXT } from './arrivals.web.js';
import { DeskParams, RunSheetQuery } from './checkin.schemas.js';
import { eventNav } from './nav.js';

const PAGE = { action: 'participants.list', credential: 'session_cookie' } as const;

export function runSheetPage(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/run-sheet',
    {
      config: PAGE,
      schema: { hide: true, params: DeskParams, querystring: RunSheetQuery, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { event } = ctx.access;
      const contexts = (await listScanContexts(ctx)).scan_contexts.filter((c) => c.is_travel_pickup);
      const wanted = Number(request.query.context);
      const selected = contexts.find((c) => c.id === wanted) ?? contexts[0] ?? null;
      const date = request.query.date ?? eventToday(event.timezone);
      const sheet = selected ? await runSheet(ctx, selected.id, date) : null;
      return reply.page(200, 'staff/run-sheet', {
        title: staffText('run_sheet.title', { name: event.name }),
        event,
        nav: eventNav(ctx.access, event.id, '/run-sheet'),
        compactNav: true,
        contexts,
        selected,
        date,
        sheet,
        statusText: STATUS_TEXT,
        phone: formatPhone,
        pickupText: PICKUP_TEXT,
      });
    },
  );
}
