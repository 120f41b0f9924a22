/**
 * The participants table (docs/staff-dashboard.md "Participants table"):
 * GET /staff/events/{event_id}/participants?q&status&minor&checked_in&travel&pickup&flags&sort&dir&page.
 * Declares `participants.list` like the API's list: read_only (and anyone else without participants
 * access) gets the "No access to participants" page (403). A plain GET form works without
 * JavaScript; with htmx the form and the sort/paging links fetch only the results region
 * (`HX-Request: true` → the fragment, `Vary: HX-Request`). Columns follow the caller's visibility:
 * the service never selects a field the caller may not see, so it cannot reach the HTML.
 */

import type { FastifyError, FastifyReply } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { httpStatusOf } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { keysOf } from '../../lib/narrow.js';
import { formatPhone } from '../../lib/phone.js';
import { pendingInvitationCounts } from '../dashboard/dashboard.repo.js';
import { participantsTable, type TableQuery } from '../dashboard/table.service.js';
import { eventConsentTitles } from '../events/consent-document-text.js';
import { listGroups } from '../groups/groups.service.js';
import { listPendingInvitations } from '../registration/invitations/pending.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { localTime, STATUS_LABELS } from './format.js';
import { EventParams } from './home.web.js';
import { eventNav, may } from './nav.js';
import { titleOf } from './org-pages.js';

const choice = <T extends string>(...values: T[]) =>
  Type.Optional(Type.Union([Type.Literal(''), ...values.map((v) => Type.Literal(v))]));

export const TableQuerySchema = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 200 })),
    status: choice('invited', 'in_progress', 'awaiting_guardian', 'complete', 'withdrawn', 'rejected'),
    minor: choice('yes', 'no'),
    checked_in: choice('yes', 'no'),
    travel: choice('inbound', 'outbound'),
    pickup: choice('awaiting'),
    flags: choice('medical', 'dietary'),
    consent: Type.Optional(Type.String({ pattern: '^([a-z][a-z0-9_]{0,49})?$' })),
    sort: choice('relevance', 'name', 'status', 'checked_in', 'updated'),
    dir: choice('asc', 'desc'),
    page: Type.Optional(Type.String({ pattern: '^[0-9]{0,5}$' })),
  },
  { additionalProperties: false },
);
type RawQuery = Static<typeof TableQuerySchema>;

/** The query string without blank fields (a plain GET form sends every field). */
export function tableQuery(raw: RawQuery): TableQuery {
  const query: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && v !== '') query[k] = v;
  if (raw.page) query.page = Number(raw.page);
  return query;
}

const KEYS: (keyof TableQuery)[] = keysOf(TableQuerySchema.properties);

/** `base?query` with `changes` applied, keys in the form's order (page 1 is left out). */
export function tableHref(base: string, query: TableQuery, changes: Partial<TableQuery> = {}): string {
  const all: TableQuery = { ...query, ...changes };
  const params = new URLSearchParams();
  for (const k of KEYS) {
    const v = all[k];
    if (v === undefined || v === '' || (k === 'page' && v === 1)) continue;
    params.set(k, String(v));
  }
  const text = params.toString();
  return text ? `${base}?${text}` : base;
}

/** How many pending invitations the table shows above the registrations. */
const PENDING_SHOWN = 10;
const REGISTRATION_ONLY: (keyof TableQuery)[] = [
  'minor',
  'checked_in',
  'travel',
  'pickup',
  'flags',
  'consent',
];

/**
 * Invitations emailed and not yet accepted have no registration yet, so the registrations table
 * cannot hold them; on its first page, unless a filter only a registration can meet is set, the
 * table shows them above the rows (up to 10 matching the search, and how many there are in all),
 * for callers who may manage invitations (docs/staff-dashboard.md "One word for invited").
 */
async function pendingAbove(ctx: Parameters<typeof listPendingInvitations>[0], query: TableQuery) {
  if (!may(ctx.access, 'invitations.manage')) return null;
  if ((query.page ?? 1) > 1 || (query.status && query.status !== 'invited')) return null;
  if (REGISTRATION_ONLY.some((k) => query[k] !== undefined)) return null;
  const [page, counts] = await Promise.all([
    listPendingInvitations(ctx, { q: query.q, limit: PENDING_SHOWN }),
    pendingInvitationCounts(ctx.db, ctx.access.event.id),
  ]);
  return { rows: page.invitations, total: counts.pending, more: page.next_before !== null };
}

/**
 * What the caller may do with ticked rows (selection.web.ts): add to a group (groups.manage, when
 * the event has groups), invite again (participants.invite), export (exports.read); null when
 * nothing, and then the table has no checkboxes.
 */
async function selectionActions(ctx: Parameters<typeof listGroups>[0]) {
  const groups = may(ctx.access, 'groups.manage') ? (await listGroups(ctx)).groups : [];
  const actions = {
    groups: groups.map((g) => ({ id: g.id, name: g.name })),
    invite: may(ctx.access, 'participants.invite'),
    export: may(ctx.access, 'exports.read'),
  };
  return actions.groups.length > 0 || actions.invite || actions.export ? actions : null;
}

/** The 403 of this page, said plainly; other errors go to the pages' error handler. */
async function noAccessPage(
  this: unknown,
  error: FastifyError,
  request: { params: unknown },
  reply: Pick<FastifyReply, 'page'>,
) {
  if (httpStatusOf(error) !== 403) throw error;
  const eventId = (request.params as { event_id?: string }).event_id;
  return reply.page(403, 'staff/no-participants', {
    title: staffText('participants.no_access_to_participants'),
    eventId,
  });
}

export function participantsPages(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/participants',
    {
      config: { action: 'participants.list', credential: 'session_cookie' },
      schema: { hide: true, params: EventParams, querystring: TableQuerySchema, response: pageResponses },
      errorHandler: noAccessPage,
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const event = ctx.access.event;
      const query = tableQuery(request.query);
      const table = await participantsTable(ctx, query);
      const pending = await pendingAbove(ctx, query);
      const selection = await selectionActions(ctx);
      const base = `/staff/events/${event.id}/participants`;
      const partial = request.headers['hx-request'] === 'true' && request.headers['hx-boosted'] === undefined;
      reply.header('Vary', 'HX-Request');
      return reply.page(200, partial ? 'staff/participants-results' : 'staff/participants', {
        title: titleOf(staffText('nav.participants'), event.name),
        event,
        nav: eventNav(ctx.access, event.id, '/participants'),
        table,
        pending,
        selection,
        base,
        labels: STATUS_LABELS,
        consents: [...(await eventConsentTitles(ctx.db, event.id))],
        href: (changes: Partial<TableQuery>) => tableHref(base, table.query, changes),
        time: (iso: string | null) => localTime(iso, event.timezone),
        phone: formatPhone,
      });
    },
  );
}
