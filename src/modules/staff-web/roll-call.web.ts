/**
 * The roll call, `GET /staff/events/{event_id}/roll-call[?context=<id>]` (docs/checkin.md "Roll
 * call"): for a scan context that tracks presence, who is inside now, who left (when, and who
 * collected them for callers who may read personal data) and who was expected and never arrived.
 * Action `participants.list` (it lists the event's people by name: event access except
 * `read_only`). Its script (web/public/js/live-lists.js, shared with the run sheet) listens to
 * the desk's scan stream (…/checkin/stream, Server-Sent Events) and reloads the lists when any
 * device scans, so two phones at two doors see one roll. Without JavaScript it is the same lists, reloaded by hand.
 */
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { listScanContexts } from '../checkin/contexts.js';
import { rollCall } from '../checkin/roll-call.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { DeskParams, DeskQuery } from './checkin.schemas.js';
import { eventNav } from './nav.js';

const PAGE = { action: 'participants.list', credential: 'session_cookie' } as const;

export function rollCallPage(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/roll-call',
    {
      config: PAGE,
      schema: { hide: true, params: DeskParams, querystring: DeskQuery, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { event } = ctx.access;
      const contexts = (await listScanContexts(ctx)).scan_contexts.filter((c) => c.tracks_presence);
      const wanted = Number(request.query.context);
      const selected = contexts.find((c) => c.id === wanted) ?? contexts[0] ?? null;
      const roll = selected ? await rollCall(ctx, selected.id) : null;
      const clock = new Intl.DateTimeFormat('en-GB', {
        timeZone: event.timezone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
      return reply.page(200, 'staff/roll-call', {
        title: staffText('roll_call.title', { name: event.name }),
        event,
        nav: eventNav(ctx.access, event.id, '/roll-call'),
        compactNav: true,
        contexts,
        selected,
        roll,
        time: (iso: string | null) => (iso ? clock.format(new Date(iso)) : ''),
      });
    },
  );
}
