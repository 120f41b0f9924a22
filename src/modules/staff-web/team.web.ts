/**
 * Team pages (docs/staff-dashboard.md "Team"), over the team
 * service of `GET|POST|DELETE /events/{e}/roles` and `/series/{s}/roles`:
 * - /staff/events/{e}/team (`event_roles.manage`: event admins, series roles, global admins),
 * - /staff/series/{s}/team (`series_roles.manage`: series owners, global admins; `{s}` UUID or slug).
 * GET lists the grants with a Remove button each and a grant form `{email, role}`; POST grants
 * (an unknown email gets an account and a sign-in invitation); POST …/{id}/remove removes. A
 * refusal (bad email, a duplicate grant, the series' last owner) re-renders the page with the
 * message and the service's status; success → 303 back with a notice.
 */

import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { EventRole, SeriesRole } from '../../access/policy.js';
import {
  describeEventRole,
  describeSeriesRole,
  ROLE_NAMES,
  type RoleDescription,
} from '../../access/role-descriptions.js';
import type { Deps, UserEventCtx, UserSeriesCtx } from '../../deps.js';
import { type RoutedRequest, routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError, unprocessable } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import type { RoleEntryJson } from '../team/team.schemas.js';
import * as team from '../team/team.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { EventParams } from './home.web.js';
import { eventNav, may } from './nav.js';
import { titleOf } from './org-pages.js';

export const EVENT_ROLES: EventRole[] = ['event_admin', 'ops', 'safeguarding_lead', 'limited', 'read_only'];
export const SERIES_ROLES: SeriesRole[] = ['owner', 'organizer'];

const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 200 })) };
const GrantForm = Type.Object(
  {
    ...Csrf,
    email: Type.Optional(Type.String({ maxLength: 1000 })),
    role: Type.Optional(Type.String({ maxLength: 50 })),
  },
  { additionalProperties: false },
);
const ButtonForm = Type.Object(Csrf, { additionalProperties: false });
const NoticeQuery = Type.Object(
  { notice: Type.Optional(Type.Union(['granted', 'invited', 'removed'].map((n) => Type.Literal(n)))) },
  { additionalProperties: false },
);
const SeriesId = Type.String({ minLength: 1, maxLength: 200 });
const SeriesParams = Type.Object({ series_id: SeriesId }, { additionalProperties: false });
const RoleParams = (scope: 'event' | 'series') =>
  Type.Object(
    {
      ...(scope === 'event'
        ? { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }) }
        : { series_id: SeriesId }),
      id: Type.String({ maxLength: 20 }),
    },
    { additionalProperties: false },
  );

const NOTICES: Record<string, string> = {
  granted: staffText('team.role_granted_it_applies_from_their'),
  invited: staffText('team.role_granted_they_had_no_account'),
  removed: staffText('team.role_removed_it_stops_working_on'),
};

interface Form {
  email: string;
  role: string;
  error?: { status: number; message: string };
}

/** The two scopes behind one page: how to list, grant, remove, and what frames the page. */
interface Scope {
  base: string;
  roles: string[];
  /** What each role of this scope sees and may do (from the policy data). */
  descriptions: RoleDescription[];
  list(): Promise<{ roles: RoleEntryJson[] }>;
  grant(input: { email: string; role: string }): Promise<{ user_created: boolean }>;
  remove(id: string): Promise<void>;
  frame: Record<string, unknown>;
}

function eventScope(ctx: UserEventCtx): Scope {
  const { event } = ctx.access;
  const seriesLinks = [
    ...(may(ctx.access, 'series_roles.manage')
      ? [{ href: `/staff/series/${event.seriesId}/team`, text: staffText('team.series_team') }]
      : []),
    ...(may(ctx.access, 'api_keys.manage')
      ? [{ href: `/staff/series/${event.seriesId}/api-keys`, text: staffText('team.api_keys') }]
      : []),
  ];
  return {
    base: `/staff/events/${event.id}/team`,
    roles: EVENT_ROLES,
    descriptions: EVENT_ROLES.map(describeEventRole),
    list: () => team.listEventRoles(ctx),
    grant: (input) => team.grantEventRoleByEmail(ctx, input),
    remove: (id) => team.removeEventRole(ctx, id),
    frame: {
      title: titleOf(staffText('nav.team'), event.name),
      heading: staffText('team.event_team'),
      event,
      nav: eventNav(ctx.access, event.id, '/team'),
      seriesLinks,
    },
  };
}

function seriesScope(ctx: UserSeriesCtx): Scope {
  const { series } = ctx.access;
  return {
    base: `/staff/series/${series.slug}/team`,
    roles: SERIES_ROLES,
    descriptions: SERIES_ROLES.map(describeSeriesRole),
    list: () => team.listSeriesRoles(ctx),
    grant: (input) => team.grantSeriesRoleByEmail(ctx, input),
    remove: (id) => team.removeSeriesRole(ctx, id),
    frame: {
      title: titleOf(staffText('nav.team'), series.name),
      heading: staffText('team.series_heading', { name: series.name }),
      seriesLinks: [{ href: `/staff/series/${series.slug}/api-keys`, text: staffText('team.api_keys') }],
    },
  };
}

async function render(scope: Scope, reply: FastifyReply, form?: Form, notice?: string) {
  const { roles } = await scope.list();
  return reply.page(form?.error?.status ?? 200, 'staff/team', {
    ...scope.frame,
    base: scope.base,
    entries: roles,
    roleOptions: scope.roles,
    roleNames: ROLE_NAMES,
    descriptions: scope.descriptions,
    form: form ?? { email: '', role: '' },
    notice: notice ? NOTICES[notice] : null,
    errors: form?.error ? [{ field: 'grant-email', message: form.error.message }] : [],
  });
}

async function grant(scope: Scope, reply: FastifyReply, body: { email?: string; role?: string }) {
  const form: Form = { email: body.email ?? '', role: body.role ?? '' };
  try {
    if (!scope.roles.includes(form.role)) throw unprocessable(staffText('team.choose_a_role'));
    const granted = await scope.grant({ email: form.email, role: form.role });
    return reply.redirect(`${scope.base}?notice=${granted.user_created ? 'invited' : 'granted'}`, 303);
  } catch (error) {
    if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
    return render(scope, reply, { ...form, error: { status: error.statusCode, message: error.message } });
  }
}

async function remove(scope: Scope, reply: FastifyReply, id: string) {
  try {
    await scope.remove(id);
  } catch (error) {
    if (!(error instanceof ApiError) || error.statusCode !== 409) throw error;
    return render(scope, reply, { email: '', role: '', error: { status: 409, message: error.message } });
  }
  return reply.redirect(`${scope.base}?notice=removed`, 303);
}

export function teamPages(web: Api, deps: Deps): void {
  const ev = { action: 'event_roles.manage', credential: 'session_cookie' } as const;
  const se = { action: 'series_roles.manage', credential: 'session_cookie' } as const;
  const evScope = (r: RoutedRequest<'event_roles.manage'>) => eventScope(routeCtx(deps, r));
  const seScope = (r: RoutedRequest<'series_roles.manage'>) => seriesScope(routeCtx(deps, r));
  const page = { hide: true, response: pageResponses } as const;

  web.get(
    '/staff/events/:event_id/team',
    { config: ev, schema: { ...page, params: EventParams, querystring: NoticeQuery } },
    async (request, reply) => render(evScope(request), reply, undefined, request.query.notice),
  );
  web.post(
    '/staff/events/:event_id/team',
    { config: ev, schema: { ...page, params: EventParams, body: GrantForm } },
    async (request, reply) => grant(evScope(request), reply, request.body),
  );
  web.post(
    '/staff/events/:event_id/team/:id/remove',
    { config: ev, schema: { ...page, params: RoleParams('event'), body: ButtonForm } },
    async (request, reply) => remove(evScope(request), reply, request.params.id),
  );

  web.get(
    '/staff/series/:series_id/team',
    { config: se, schema: { ...page, params: SeriesParams, querystring: NoticeQuery } },
    async (request, reply) => render(seScope(request), reply, undefined, request.query.notice),
  );
  web.post(
    '/staff/series/:series_id/team',
    { config: se, schema: { ...page, params: SeriesParams, body: GrantForm } },
    async (request, reply) => grant(seScope(request), reply, request.body),
  );
  web.post(
    '/staff/series/:series_id/team/:id/remove',
    { config: se, schema: { ...page, params: RoleParams('series'), body: ButtonForm } },
    async (request, reply) => remove(seScope(request), reply, request.params.id),
  );
}
