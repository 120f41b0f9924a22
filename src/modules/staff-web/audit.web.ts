/**
 * Audit trail pages (docs/staff-dashboard.md "Audit trail"), over the
 * audit service behind GET /api/v1/events/{e}/audit_log and GET /api/v1/audit_log:
 * - GET /staff/events/{e}/audit (`audit_log.event`: event admins, series roles, global admins),
 * - GET /staff/audit (`audit_log.read`: global admins).
 * Filters `action` (exact, or a prefix ending in "."), `actor` (email, UUID or id), `since` (a
 * date and time, read in the event's zone on event pages and in UTC on the global page); newest
 * first, 50 a page, "Older entries" follows the service's `next_before` cursor. The service leaves
 * sensitive metadata (free text, addresses) out; the page shows what it returns.
 */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { zonedToInstant } from '../../lib/zoned-time.js';
import type { AuditPageJson } from '../audit/audit-log.schemas.js';
import { auditPage } from '../audit/audit-log.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { fieldLabel } from './field-labels.js';
import { attempt, eventFrame, when } from './org-pages.js';

const Filters = Type.Object(
  {
    action: Type.Optional(Type.String({ maxLength: 100 })),
    actor: Type.Optional(Type.String({ maxLength: 320 })),
    since: Type.Optional(Type.String({ maxLength: 64 })),
    before: Type.Optional(Type.String({ pattern: '^[0-9]{0,15}$' })),
  },
  { additionalProperties: false },
);
type FilterValues = { action?: string; actor?: string; since?: string; before?: string };
const EventParams = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }) },
  { additionalProperties: false },
);

/** The service's input from the page's filters; a `since` that is no date → an error message. */
function inputOf(q: FilterValues, zone: string) {
  const input: { action?: string; actor?: string; since?: string; before?: string; limit: number } = {
    limit: 50,
  };
  const action = q.action?.trim();
  const actor = q.actor?.trim();
  if (action) input.action = action;
  if (actor) input.actor = actor;
  if (q.before) input.before = q.before;
  if (q.since?.trim()) {
    const since = zonedToInstant(q.since.trim(), zone);
    if (!since) return { error: staffText('audit.enter_the_since_date_as_a') };
    input.since = since;
  }
  return { input };
}

/** Rows for the template: readable time, actor and details; the link to the next (older) page. */
/** A metadata value in words: wire names (fields, statuses) by their labels (field-labels.ts). */
function detailText(v: unknown): string {
  const one = (x: unknown) =>
    typeof x === 'string' && /^[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+$/.test(x) ? fieldLabel(x) : String(x);
  if (Array.isArray(v)) return v.map(one).join(', ');
  if (v && typeof v === 'object')
    return Object.entries(v)
      .map(([k, x]) => `${fieldLabel(k)}: ${one(x)}`)
      .join('; ');
  return v === null ? '—' : one(v);
}

function view(page: AuditPageJson, q: FilterValues, zone: string, path: string) {
  const keep = new URLSearchParams();
  for (const k of ['action', 'actor', 'since'] as const) if (q[k]?.trim()) keep.set(k, q[k]!.trim());
  if (page.next_before) keep.set('before', page.next_before);
  return {
    entries: page.entries.map((e) => ({
      ...e,
      at: when(e.created_at, zone),
      who: e.actor
        ? `${e.actor.name || e.actor.email} (${e.actor.email})`
        : (e.credential_name ?? e.credential_kind ?? 'Muster'),
      details: Object.entries(e.metadata).map(([k, v]) => `${fieldLabel(k)}: ${detailText(v)}`),
    })),
    older: page.next_before ? `${path}?${keep.toString()}` : null,
    filters: { action: q.action ?? '', actor: q.actor ?? '', since: q.since ?? '' },
  };
}

export function auditPages(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/audit',
    {
      config: { action: 'audit_log.event', credential: 'session_cookie' },
      schema: { hide: true, params: EventParams, querystring: Filters, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const zone = ctx.access.event.timezone;
      const path = `/staff/events/${ctx.access.event.id}/audit`;
      const parsed = inputOf(request.query, zone);
      const res =
        'error' in parsed ? parsed : await attempt(() => auditPage(ctx, parsed.input, ctx.access.event.id));
      const page = 'ok' in res ? res.ok : { entries: [], next_before: null };
      return reply.page('ok' in res ? 200 : 422, 'staff/audit', {
        ...eventFrame(ctx.access, '/audit', staffText('audit.audit_trail')),
        ...view(page, request.query, zone, path),
        path,
        zone,
        errors: 'error' in res ? [{ message: res.error, field: 'since' }] : [],
      });
    },
  );

  web.get(
    '/staff/audit',
    {
      config: { action: 'audit_log.read', credential: 'session_cookie' },
      schema: { hide: true, querystring: Filters, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const parsed = inputOf(request.query, 'UTC');
      const res = 'error' in parsed ? parsed : await attempt(() => auditPage(ctx, parsed.input));
      const page = 'ok' in res ? res.ok : { entries: [], next_before: null };
      return reply.page('ok' in res ? 200 : 422, 'staff/audit', {
        title: staffText('audit.audit_trail'),
        ...view(page, request.query, 'UTC', '/staff/audit'),
        path: '/staff/audit',
        zone: 'UTC',
        global: true,
        errors: 'error' in res ? [{ message: res.error, field: 'since' }] : [],
      });
    },
  );
}
