/**
 * Webhooks pages (docs/staff-dashboard.md "Webhooks": endpoints managed from the dashboard), over the services of the
 * outbound webhook API (docs/webhooks.md "Outbound"), the same set under `/staff/events/{e}/webhooks`
 * (`webhooks.manage`) and `/staff/series/{s}/webhooks` (`series_webhooks.manage`; `{s}` UUID or slug):
 * - GET  …/webhooks: the endpoints (URL, description, types, on/off, failing since) and the create
 *   form `{url, description, event_types[]}`; POST creates → 303 to the endpoint's page, which shows
 *   the `whsec_…` secret once (secret-once.ts).
 * - GET  …/webhooks/{id}: the endpoint, its buttons and its delivery log (the 50 newest deliveries:
 *   time, type, `webhook-id`, status, attempts; each attempt's time, HTTP status, duration and the
 *   start of the answer) with a Redeliver button per delivery.
 * - POST …/{id}/enabled `{enabled: true|false}`, …/{id}/rotate (new secret shown once, the old one
 *   signs beside it for 24 h), …/{id}/ping, …/{id}/delete, …/{id}/deliveries/{d}/redeliver → 303.
 * A refusal (a refused URL, an unknown type, a switched-off endpoint's ping) re-renders the page
 * with the message and the service's status; an unknown id is a 404 page. Forms carry the CSRF
 * token (staff plugin); every answer is no-store.
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { ctxOf } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { entryOf } from '../../lib/narrow.js';
import * as deliveries from '../outbound-webhooks/deliveries.service.js';
import * as hooks from '../outbound-webhooks/webhooks.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { EventParams } from './home.web.js';
import { titleOf } from './org-pages.js';
import { putSecretOnce, takeSecretOnce } from './secret-once.js';
import { eventHookScope, type HookScope, OFFERED_TYPES, onceOf, seriesHookScope } from './webhooks-scope.js';

const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 200 })) };
const CreateForm = Type.Object(
  {
    ...Csrf,
    url: Type.Optional(Type.String({ maxLength: 2000 })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    event_types: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 60 }),
        Type.Array(Type.String({ maxLength: 60 }), { maxItems: 20 }),
      ]),
    ),
  },
  { additionalProperties: false },
);
const EnabledForm = Type.Object(
  { ...Csrf, enabled: Type.Union([Type.Literal('true'), Type.Literal('false')]) },
  { additionalProperties: false },
);
const ButtonForm = Type.Object(Csrf, { additionalProperties: false });
const NOTICES = {
  deleted: staffText('webhooks.webhook_deleted_its_waiting_deliveries_were'),
  enabled: staffText('webhooks.webhook_switched_on_deliveries_that_were'),
  disabled: staffText('webhooks.webhook_switched_off_new_messages_wait'),
  rotated: staffText('webhooks.new_secret_created_the_previous_one'),
  ping: staffText('webhooks.ping_queued_it_appears_in_the'),
  redelivered: staffText('webhooks.delivery_queued_again_with_the_same'),
} as const;
const NoticeQuery = Type.Object(
  { notice: Type.Optional(Type.Union(Object.keys(NOTICES).map((n) => Type.Literal(n)))) },
  { additionalProperties: false },
);
const SeriesId = Type.String({ minLength: 1, maxLength: 200 });
const SCOPES = [
  { prefix: '/staff/events/:event_id', params: EventParams.properties, action: 'webhooks.manage' },
  { prefix: '/staff/series/:series_id', params: { series_id: SeriesId }, action: 'series_webhooks.manage' },
] as const;

type Failure = { status: number; message: string };
interface Form {
  url: string;
  description: string;
  event_types: string[];
}

/** A refusal the page shows (4xx but 404, which stays the error page); anything else is rethrown. */
function shown(error: unknown): Failure {
  if (error instanceof ApiError && error.statusCode < 500 && error.statusCode !== 404)
    return { status: error.statusCode, message: error.message };
  throw error;
}

async function renderList(
  scope: HookScope,
  reply: FastifyReply,
  form?: Form,
  error?: Failure,
  notice?: string,
) {
  const { webhooks } = await hooks.listWebhooks(scope.ctx, scope.owner);
  return reply.page(error?.status ?? 200, 'staff/webhooks', {
    ...scope.frame,
    base: scope.base,
    webhooks,
    types: OFFERED_TYPES,
    form: form ?? { url: '', description: '', event_types: [] },
    notice: notice ? entryOf(NOTICES, notice) : null,
    errors: error ? [{ field: 'hook-url', message: error.message }] : [],
  });
}

async function renderOne(
  scope: HookScope,
  reply: FastifyReply,
  id: number,
  shows: { secret?: string | null; notice?: string; error?: Failure },
) {
  const { webhook } = await hooks.getWebhook(scope.ctx, scope.owner, id);
  const log = await deliveries.listDeliveries(scope.ctx, scope.owner, id, { limit: 50 });
  return reply.page(shows.error?.status ?? 200, 'staff/webhook', {
    ...scope.frame,
    title: titleOf(
      staffText('webhooks.webhook_title', {
        name: webhook.description || URL.parse(webhook.url)?.host || webhook.id,
      }),
      String(scope.frame.title).split(' · ')[1] ?? '',
    ),
    base: scope.base,
    webhook,
    deliveries: log.deliveries,
    secret: shows.secret ?? null,
    notice: shows.notice ? entryOf(NOTICES, shows.notice) : null,
    errors: shows.error ? [{ field: 'actions', message: shows.error.message }] : [],
  });
}

async function create(deps: Deps, scope: HookScope, reply: FastifyReply, body: Static<typeof CreateForm>) {
  const raw = body.event_types ?? [];
  const form: Form = {
    url: body.url ?? '',
    description: body.description ?? '',
    event_types: typeof raw === 'string' ? [raw] : raw,
  };
  try {
    if (form.event_types.length === 0)
      throw new ApiError(422, staffText('webhooks.choose_at_least_one_event_type'));
    const { webhook } = await hooks.createWebhook(scope.ctx, scope.owner, form);
    putSecretOnce(deps, reply, onceOf(scope, webhook.id), webhook.secret);
    return reply.redirect(`${scope.base}/${webhook.id}`, 303);
  } catch (error) {
    return renderList(scope, reply, form, shown(error));
  }
}

/** Runs a button's action, then 303 to the endpoint's page with `notice` (or re-renders a refusal). */
async function button(
  scope: HookScope,
  reply: FastifyReply,
  id: number,
  notice: keyof typeof NOTICES,
  act: () => Promise<unknown>,
) {
  try {
    await act();
  } catch (error) {
    return renderOne(scope, reply, id, { error: shown(error) });
  }
  const target = notice === 'deleted' ? scope.base : `${scope.base}/${id}`;
  return reply.redirect(`${target}?notice=${notice}`, 303);
}

export function webhookPages(web: Api, deps: Deps): void {
  const page = { hide: true, response: pageResponses } as const;
  for (const s of SCOPES) {
    const config = { action: s.action, credential: 'session_cookie' } as const;
    const base = `${s.prefix}/webhooks`;
    const params = Type.Object(s.params, { additionalProperties: false });
    const one = Type.Object(
      { ...s.params, id: Type.String({ maxLength: 20 }) },
      { additionalProperties: false },
    );
    const scopeOf = (request: FastifyRequest): HookScope =>
      s.action === 'webhooks.manage'
        ? eventHookScope(ctxOf(deps, request, 'webhooks.manage'))
        : seriesHookScope(ctxOf(deps, request, 'series_webhooks.manage'));
    const idOf = (request: FastifyRequest) => hooks.webhookId((request.params as { id: string }).id);

    web.get(base, { config, schema: { ...page, params, querystring: NoticeQuery } }, async (request, reply) =>
      renderList(scopeOf(request), reply, undefined, undefined, request.query.notice),
    );
    web.post(base, { config, schema: { ...page, params, body: CreateForm } }, async (request, reply) =>
      create(deps, scopeOf(request), reply, request.body),
    );
    web.get(
      `${base}/:id`,
      { config, schema: { ...page, params: one, querystring: NoticeQuery } },
      async (request, reply) => {
        const scope = scopeOf(request);
        const id = idOf(request);
        const secret = takeSecretOnce(deps, request, reply, onceOf(scope, id));
        return renderOne(scope, reply, id, {
          secret,
          ...(request.query.notice ? { notice: request.query.notice } : {}),
        });
      },
    );
    web.post(
      `${base}/:id/enabled`,
      { config, schema: { ...page, params: one, body: EnabledForm } },
      async (request, reply) => {
        const scope = scopeOf(request);
        const enabled = request.body.enabled === 'true';
        return button(scope, reply, idOf(request), enabled ? 'enabled' : 'disabled', () =>
          hooks.updateWebhook(scope.ctx, scope.owner, idOf(request), { enabled }),
        );
      },
    );
    web.post(
      `${base}/:id/rotate`,
      { config, schema: { ...page, params: one, body: ButtonForm } },
      async (request, reply) => {
        const scope = scopeOf(request);
        const id = idOf(request);
        return button(scope, reply, id, 'rotated', async () => {
          const { webhook } = await hooks.rotateSecret(scope.ctx, scope.owner, id);
          putSecretOnce(deps, reply, onceOf(scope, id), webhook.secret);
        });
      },
    );
    web.post(
      `${base}/:id/ping`,
      { config, schema: { ...page, params: one, body: ButtonForm } },
      async (request, reply) => {
        const scope = scopeOf(request);
        return button(scope, reply, idOf(request), 'ping', () =>
          deliveries.ping(scope.ctx, scope.owner, idOf(request)),
        );
      },
    );
    web.post(
      `${base}/:id/delete`,
      { config, schema: { ...page, params: one, body: ButtonForm } },
      async (request, reply) => {
        const scope = scopeOf(request);
        return button(scope, reply, idOf(request), 'deleted', () =>
          hooks.deleteWebhook(scope.ctx, scope.owner, idOf(request)),
        );
      },
    );
    const redeliverParams = Type.Object(
      { ...s.params, id: Type.String({ maxLength: 20 }), delivery_id: Type.String({ maxLength: 20 }) },
      { additionalProperties: false },
    );
    web.post(
      `${base}/:id/deliveries/:delivery_id/redeliver`,
      { config, schema: { ...page, params: redeliverParams, body: ButtonForm } },
      async (request, reply) => {
        const scope = scopeOf(request);
        const id = idOf(request);
        const delivery = deliveries.deliveryId(request.params.delivery_id);
        return button(scope, reply, id, 'redelivered', () =>
          deliveries.redeliver(scope.ctx, scope.owner, id, delivery),
        );
      },
    );
  }
}
