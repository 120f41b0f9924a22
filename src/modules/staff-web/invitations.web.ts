/**
 * The invitations page (docs/staff-dashboard.md "Invitations"):
 * - GET  /staff/events/{e}/invitations: invite one person or paste a list, and the pending
 *   invitations (search, 50 a page) with Resend and Revoke buttons (`invitations.manage`).
 * - POST /staff/events/{e}/invitations: one invitation (`participants.invite`); a refusal
 *   re-renders the form with the message on the email field (its status).
 * - POST /staff/events/{e}/invitations/list: a pasted list, one per line; the page shows each
 *   line's outcome and keeps the refused lines in the box to fix (`participants.invite`).
 * - POST /staff/events/{e}/invitations/{id}/resend|revoke (`invitations.manage`) → 303 back.
 * Guardian links and an imported registrant's invitation are resent from where the problem is
 * (resend.web.ts).
 * Plain forms with the CSRF field; the services are those of the API routes.
 */

import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps, EventCtx } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError, unprocessable } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { statusCounts } from '../dashboard/dashboard.repo.js';
import { inviteParticipant } from '../registration/invitations/invitations.service.js';
import { inviteList, type LineOutcome } from '../registration/invitations/invite-list.service.js';
import {
  listPendingInvitations,
  resendInvitation,
  revokeInvitation,
} from '../registration/invitations/pending.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { EventParams } from './home.web.js';
import { eventNav } from './nav.js';
import { titleOf } from './org-pages.js';

const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 200 })) };
const Text = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const SingleForm = Type.Object(
  { ...Csrf, email: Text(1000), first_name: Text(200), last_name: Text(200) },
  { additionalProperties: false },
);
const ListForm = Type.Object({ ...Csrf, list: Text(40_000) }, { additionalProperties: false });
const ButtonForm = Type.Object(Csrf, { additionalProperties: false });
const ListQuery = Type.Object(
  {
    q: Text(200),
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })),
    notice: Type.Optional(
      Type.Union([Type.Literal('invited'), Type.Literal('resent'), Type.Literal('revoked')]),
    ),
  },
  { additionalProperties: false },
);
const ByIdParams = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }), id: Type.String({ maxLength: 20 }) },
  { additionalProperties: false },
);

const NOTICES = {
  invited: staffText('invitations.invitation_sent'),
  resent: staffText('invitations.invitation_sent_again_with_a_new'),
  revoked: staffText('invitations.invitation_revoked_its_link_no_longer'),
} as const;

interface PageState {
  status?: number;
  q?: string;
  before?: string;
  notice?: keyof typeof NOTICES;
  single?: { email: string; first_name: string; last_name: string; error?: string };
  list?: { text: string; outcomes: LineOutcome[]; error?: string };
}

const base = (ctx: EventCtx) => `/staff/events/${ctx.access.event.id}/invitations`;

async function render(ctx: EventCtx, reply: FastifyReply, state: PageState) {
  const page = await listPendingInvitations(ctx, { q: state.q, before: state.before, limit: 50 });
  const counts = await statusCounts(ctx.db, [ctx.access.event.id]);
  const notStarted = counts.find((c) => c.status === 'invited')?.n ?? 0;
  const { event } = ctx.access;
  const errors = [
    ...(state.single?.error ? [{ field: 'invite-email', message: state.single.error }] : []),
    ...(state.list?.error ? [{ field: 'invite-list', message: state.list.error }] : []),
  ];
  return reply.page(state.status ?? 200, 'staff/invitations', {
    title: titleOf(staffText('nav.invitations'), event.name),
    event,
    nav: eventNav(ctx.access, event.id, '/invitations'),
    base: base(ctx),
    pending: page.invitations,
    next: page.next_before
      ? `${base(ctx)}?${new URLSearchParams({ ...(state.q ? { q: state.q } : {}), before: page.next_before })}`
      : null,
    q: state.q ?? '',
    notice: state.notice ? NOTICES[state.notice] : null,
    single: state.single ?? { email: '', first_name: '', last_name: '' },
    list: state.list ?? null,
    errors,
    notStarted,
  });
}

export function invitationPages(web: Api, deps: Deps): void {
  const manage = { action: 'invitations.manage', credential: 'session_cookie' } as const;
  const invite = { action: 'participants.invite', credential: 'session_cookie' } as const;

  web.get(
    '/staff/events/:event_id/invitations',
    {
      config: manage,
      schema: { hide: true, params: EventParams, querystring: ListQuery, response: pageResponses },
    },
    async (request, reply) => render(routeCtx(deps, request), reply, { ...request.query }),
  );

  web.post(
    '/staff/events/:event_id/invitations',
    {
      config: invite,
      schema: { hide: true, params: EventParams, body: SingleForm, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const single = {
        email: request.body.email ?? '',
        first_name: request.body.first_name ?? '',
        last_name: request.body.last_name ?? '',
      };
      try {
        await inviteParticipant(ctx, single);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
        return render(ctx, reply, { status: error.statusCode, single: { ...single, error: error.message } });
      }
      return reply.redirect(`${base(ctx)}?notice=invited`, 303);
    },
  );

  web.post(
    '/staff/events/:event_id/invitations/list',
    { config: invite, schema: { hide: true, params: EventParams, body: ListForm, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const text = request.body.list ?? '';
      let outcomes: LineOutcome[];
      try {
        outcomes = await inviteList(ctx, text);
        if (outcomes.length === 0)
          throw unprocessable(staffText('invitations.paste_at_least_one_email_address'));
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
        return render(ctx, reply, { status: 422, list: { text, outcomes: [], error: error.message } });
      }
      const lines = text.split(/\r?\n/);
      const failed = outcomes.filter((o) => o.error !== null).map((o) => lines[o.line - 1]!.trim());
      return render(ctx, reply, { list: { text: failed.join('\n'), outcomes } });
    },
  );

  for (const [verb, run] of [
    ['resend', resendInvitation],
    ['revoke', revokeInvitation],
  ] as const) {
    web.post(
      `/staff/events/:event_id/invitations/:id/${verb}`,
      {
        config: manage,
        schema: { hide: true, params: ByIdParams, body: ButtonForm, response: pageResponses },
      },
      async (request, reply) => {
        const ctx = routeCtx(deps, request);
        await run(ctx, request.params.id);
        return reply.redirect(`${base(ctx)}?notice=${verb === 'resend' ? 'resent' : 'revoked'}`, 303);
      },
    );
  }
}
