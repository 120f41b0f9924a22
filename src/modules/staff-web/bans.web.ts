/**
 * The ban list page for global admins (docs/staff-dashboard.md
 * "Bans"), over the bans service behind /api/v1/bans:
 * - GET  /staff/bans (`bans.read`): bans newest first, `?email=` finds the ban holding an address,
 *   `?active=true|false`, 50 a page (`?offset=`); a form to add one.
 * - POST /staff/bans (`bans.create`): addresses (one per line or comma-separated), reason, optional
 *   last day (the ban ends at the end of that day, UTC); bad input or an address already banned
 *   re-renders the page (422/409) with the message.
 * - POST /staff/bans/{id}/revoke and /reinstate (`bans.manage`), then back to the list.
 */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { type RoutedRequest, routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import * as bans from '../bans/bans.service.js';
import { CsrfForm, FormBody, pageResponses } from '../web/web.schemas.js';
import { attempt, field, when } from './org-pages.js';

const ListQuery = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 320 })),
    active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('')])),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    done: Type.Optional(Type.String({ maxLength: 20 })),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) }, { additionalProperties: false });
const PAGE = 50;
const DONE: Record<string, string> = {
  added: staffText('bans.the_ban_was_added'),
  revoked: staffText('bans.the_ban_was_revoked_those_addresses'),
  reinstated: staffText('bans.the_ban_is_in_force_again'),
};

type Query = { email?: string; active?: string; offset?: number; done?: string };

export function banPages(web: Api, deps: Deps): void {
  async function render(
    request: RoutedRequest<'bans.read' | 'bans.create' | 'bans.manage'>,
    q: Query,
    extra: Record<string, unknown> = {},
  ) {
    // Also rendered by the form posts (their own action; the same global-admin requirement).
    const ctx = routeCtx(deps, request);
    const list = await bans.listBans(ctx, {
      limit: PAGE,
      offset: q.offset ?? 0,
      ...(q.email?.trim() ? { email: q.email } : {}),
      ...(q.active ? { active: q.active === 'true' } : {}),
    });
    const keep = (offset: number) => {
      const p = new URLSearchParams();
      if (q.email?.trim()) p.set('email', q.email.trim());
      if (q.active) p.set('active', q.active);
      p.set('offset', String(offset));
      return `/staff/bans?${p.toString()}`;
    };
    return {
      title: staffText('bans.bans'),
      bans: list.bans.map((b) => ({
        ...b,
        until: b.expires_at ? when(b.expires_at) : staffText('bans.no_end_date'),
        created: when(b.created_at),
      })),
      filters: { email: q.email ?? '', active: q.active ?? '' },
      newer: (q.offset ?? 0) > 0 ? keep(Math.max(0, (q.offset ?? 0) - PAGE)) : null,
      older: list.has_more ? keep((q.offset ?? 0) + PAGE) : null,
      notice: q.done ? (DONE[q.done] ?? null) : null,
      values: { emails: '', reason: '', last_day: '' },
      ...extra,
    };
  }

  web.get(
    '/staff/bans',
    {
      config: { action: 'bans.read', credential: 'session_cookie' },
      schema: { hide: true, querystring: ListQuery, response: pageResponses },
    },
    async (request, reply) => reply.page(200, 'staff/bans', await render(request, request.query)),
  );

  web.post(
    '/staff/bans',
    {
      config: { action: 'bans.create', credential: 'session_cookie' },
      schema: { hide: true, body: FormBody, response: pageResponses },
    },
    async (request, reply) => {
      const { body } = request;
      const values = {
        emails: field(body, 'emails'),
        reason: field(body, 'reason'),
        last_day: field(body, 'last_day'),
      };
      const emails = values.emails
        .split(/[\n,;]+/)
        .map((e) => e.trim())
        .filter(Boolean);
      let problem: string | null = null;
      let expiresAt: string | undefined;
      if (values.last_day) {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(values.last_day)) problem = staffText('bans.enter_the_last_day_as_a');
        else expiresAt = `${values.last_day}T23:59:59Z`;
      }
      if (!problem) {
        const res = await attempt(() =>
          bans.createBan(routeCtx(deps, request), {
            emails,
            reason: values.reason,
            ...(expiresAt ? { expires_at: expiresAt } : {}),
          }),
        );
        if ('ok' in res) return reply.redirect('/staff/bans?done=added', 303);
        problem = res.error;
      }
      const status = problem.startsWith('Already banned') ? 409 : 422;
      return reply.page(
        status,
        'staff/bans',
        await render(request, {}, { values, errors: [{ message: problem }] }),
      );
    },
  );

  for (const change of ['revoke', 'reinstate'] as const) {
    web.post(
      `/staff/bans/:id/${change}`,
      {
        config: { action: 'bans.manage', credential: 'session_cookie' },
        schema: { hide: true, params: IdParams, body: CsrfForm, response: pageResponses },
      },
      async (request, reply) => {
        const ctx = routeCtx(deps, request);
        const res = await attempt(() =>
          change === 'revoke'
            ? bans.revokeBan(ctx, request.params.id)
            : bans.reinstateBan(ctx, request.params.id),
        );
        if ('ok' in res)
          return reply.redirect(`/staff/bans?done=${change === 'revoke' ? 'revoked' : 'reinstated'}`, 303);
        return reply.page(409, 'staff/bans', await render(request, {}, { errors: [{ message: res.error }] }));
      },
    );
  }
}
