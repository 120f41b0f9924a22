/**
 * Groups page (docs/staff-dashboard.md "Groups"), over the groups
 * service behind /api/v1/events/{e}/groups (action `groups.manage`: event admins, series roles,
 * global admins):
 * - GET  /staff/events/{e}/groups: the groups (name, colour, members), a form to create one, and the
 *   registrations (200 at a time, `?q=` finds by name or email) with their groups and checkboxes.
 * - POST /staff/events/{e}/groups: create `{name, color}` (422/409 re-render the page).
 * - POST /staff/events/{e}/groups/assign: add the ticked registrations to a group, or take them
 *   out (`intent=add|remove`); each registration's groups are replaced through the service (audited
 *   `groups.assign` per registration, as the API does).
 */
import { Type } from 'typebox';
import type { CtxFor, Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { createGroup, listGroups, setRegistrationGroups } from '../groups/groups.service.js';
import { listMembers } from '../groups/members.service.js';
import { FormBody, pageResponses } from '../web/web.schemas.js';
import { attempt, eventFrame, field, fields } from './org-pages.js';

const action = 'groups.manage' as const;
const session = { action, credential: 'session_cookie' } as const;
const EventParams = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }) },
  { additionalProperties: false },
);
const Query = Type.Object(
  { q: Type.Optional(Type.String({ maxLength: 200 })), done: Type.Optional(Type.String({ maxLength: 20 })) },
  { additionalProperties: false },
);
const SHOWN = 200;
const DONE: Record<string, string> = {
  created: staffText('groups.the_group_was_created'),
  added: staffText('groups.the_participants_were_added_to_the'),
  removed: staffText('groups.the_participants_were_taken_out_of'),
};

type Ctx = CtxFor<typeof action>;

export function groupPages(web: Api, deps: Deps): void {
  async function data(ctx: Ctx, q: { q?: string; done?: string }, extra: Record<string, unknown> = {}) {
    const [{ groups }, { members, has_more }] = await Promise.all([
      listGroups(ctx),
      listMembers(ctx, { q: q.q, limit: SHOWN }),
    ]);
    const names = new Map(groups.map((g) => [g.id, g.name]));
    return {
      ...eventFrame(ctx.access, '/groups', staffText('groups.groups')),
      groups,
      members: members.map((m) => ({
        ...m,
        groups: m.group_ids.map((id) => names.get(id) ?? '').join(', '),
      })),
      has_more,
      q: q.q ?? '',
      notice: q.done ? (DONE[q.done] ?? null) : null,
      values: { name: '', color: '#3366CC' },
      ...extra,
    };
  }

  web.get(
    '/staff/events/:event_id/groups',
    {
      config: session,
      schema: { hide: true, params: EventParams, querystring: Query, response: pageResponses },
    },
    async (request, reply) =>
      reply.page(200, 'staff/groups', await data(routeCtx(deps, request), request.query)),
  );

  web.post(
    '/staff/events/:event_id/groups',
    { config: session, schema: { hide: true, params: EventParams, body: FormBody, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { body } = request;
      const values = { name: field(body, 'name'), color: field(body, 'color') };
      const res = await attempt(() => createGroup(ctx, { name: values.name, color: values.color || null }));
      if ('ok' in res) return reply.redirect(`/staff/events/${ctx.access.event.id}/groups?done=created`, 303);
      const status = res.error.includes('already exists') ? 409 : 422;
      return reply.page(
        status,
        'staff/groups',
        await data(ctx, {}, { values, errors: [{ message: res.error, field: 'group-name' }] }),
      );
    },
  );

  web.post(
    '/staff/events/:event_id/groups/assign',
    { config: session, schema: { hide: true, params: EventParams, body: FormBody, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { body } = request;
      const groupId = Number(field(body, 'group_id'));
      const ids = fields(body, 'registration_ids')
        .filter((x) => /^[0-9]{1,9}$/.test(x))
        .map(Number);
      const remove = field(body, 'intent') === 'remove';
      const { groups } = await listGroups(ctx);
      let problem: string | null = null;
      if (!groups.some((g) => g.id === groupId)) problem = staffText('groups.choose_a_group');
      else if (ids.length === 0) problem = staffText('groups.tick_at_least_one_participant');
      if (problem)
        return reply.page(422, 'staff/groups', await data(ctx, {}, { errors: [{ message: problem }] }));
      const { members } = await listMembers(ctx, { ids, limit: ids.length });
      for (const m of members) {
        const next = remove
          ? m.group_ids.filter((g) => g !== groupId)
          : [...new Set([...m.group_ids, groupId])];
        if (next.length === m.group_ids.length && next.every((g, i) => g === m.group_ids[i])) continue;
        await setRegistrationGroups(ctx, String(m.id), { group_ids: next });
      }
      return reply.redirect(
        `/staff/events/${ctx.access.event.id}/groups?done=${remove ? 'removed' : 'added'}`,
        303,
      );
    },
  );
}
