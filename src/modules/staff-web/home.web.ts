/**
 * Staff home and the event overview (docs/staff-dashboard.md "Staff home", "Event overview").
 * - GET /staff: the events the signed-in user can reach (the rules of GET /api/v1/events), with
 *   role, dates, registrations by status and check-in progress, drafts marked "Draft"; a "New
 *   event" link per series the user is a member of (global admins: every series). A user with no
 *   staff role sees a short "no events" page.
 * - GET /staff/events/{event_id}: the event's overview (event access: any role on the event or its
 *   series, global admins): funnel, guardians, consents, check-in per scan context, travel today,
 *   recent activity (callers who may read the event's audit trail); the navigation lists the pages
 *   the caller's roles open.
 */

import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { pendingInvitationCounts } from '../dashboard/dashboard.repo.js';
import { RESEND_LABEL, resendableGuardians } from '../dashboard/guardian-links.repo.js';
import { staffHome } from '../dashboard/home.service.js';
import { eventOverview } from '../dashboard/overview.service.js';
import { consentTitle } from '../events/consent-defaults.js';
import { eventConsentTitles } from '../events/consent-document-text.js';
import { listSeries } from '../events/series.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { localTime, STATUS_LABELS } from './format.js';
import { eventNav, may } from './nav.js';

export const EventParams = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }) },
  { additionalProperties: false },
);

const OverviewQuery = Type.Object(
  {
    done: Type.Optional(
      Type.Union([
        Type.Literal('guardian_link'),
        Type.Literal('event_created'),
        Type.Literal('event_copied'),
      ]),
    ),
  },
  { additionalProperties: false },
);
const DONE = {
  guardian_link: staffText('home.a_new_link_was_emailed_to'),
  event_created: staffText('home.the_event_was_created_as_a'),
  event_copied: staffText('home.the_event_was_copied_as_a'),
} as const;

/** How many guardians the overview lists with a resend button (the rest: the filtered table). */
export const GUARDIANS_LISTED = 50;

export function homePages(web: Api, deps: Deps): void {
  web.get(
    '/staff',
    {
      config: { action: 'account.events', credential: 'session_cookie' },
      schema: { hide: true, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { events } = await staffHome(ctx);
      // "New event" for each series the caller may create events in (series_events.create).
      const { series } = await listSeries(ctx);
      return reply.page(200, 'staff/home', {
        title: staffText('home.your_events'),
        events,
        series,
        labels: STATUS_LABELS,
      });
    },
  );
  web.get(
    '/staff/events/:event_id',
    {
      config: { action: 'events.overview', credential: 'session_cookie' },
      schema: { hide: true, params: EventParams, querystring: OverviewQuery, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { access } = ctx;
      const id = access.event.id;
      // Guardian names and invitations only for callers who may act on them (participants access).
      const guardians = may(access, 'guardians.resend')
        ? await resendableGuardians(ctx.db, id, { limit: GUARDIANS_LISTED + 1 })
        : null;
      const invitations = may(access, 'invitations.manage')
        ? await pendingInvitationCounts(ctx.db, id)
        : null;
      const titles = await eventConsentTitles(ctx.db, id);
      return reply.page(200, 'staff/overview', {
        title: access.event.name,
        event: access.event,
        nav: eventNav(access, access.event.id, ''),
        overview: await eventOverview(ctx),
        // Counts link to the participants table only for callers who may open it.
        tableLinks: may(access, 'participants.list'),
        labels: STATUS_LABELS,
        consentTitle: (type: string) => titles.get(type) ?? consentTitle(type),
        time: (iso: string | null) => localTime(iso, access.event.timezone),
        guardians: guardians?.slice(0, GUARDIANS_LISTED).map((g) => ({ ...g, label: RESEND_LABEL[g.state] })),
        moreGuardians: (guardians?.length ?? 0) > GUARDIANS_LISTED,
        invitations,
        // "Copy this event" for callers who may create events in its series.
        copyHref: may(access, 'series_events.create')
          ? `/staff/series/${access.event.seriesId}/events/new?from=${access.event.uuid}`
          : null,
        notice: request.query.done ? DONE[request.query.done] : null,
      });
    },
  );
}
