/**
 * Outbound webhook routes (docs/webhooks.md "Outbound"): the same set under `/events/{event_id}/`
 * (action `webhooks.manage`: event admins, series owners/organizers, global admins) and under
 * `/series/{series_id}/` (action `series_webhooks.manage`: series owners, global admins).
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { ctxOf } from '../../http/authorize.js';
import { EventIdParam, errorResponses, numericIdParam } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import * as deliveries from './deliveries.service.js';
import type { Owner } from './owner.js';
import {
  CreateWebhookRequest,
  DeliveryBody,
  DeliveryList,
  DeliveryListQuery,
  UpdateWebhookRequest,
  WebhookBody,
  WebhookList,
  WebhookSecretBody,
} from './webhooks.schemas.js';
import * as service from './webhooks.service.js';

const tags = ['outbound webhooks'];
const IdParam = numericIdParam('Webhook id (integer)');
const DeliveryIdParam = numericIdParam('Delivery id (integer)');
const SeriesIdParam = Type.String({ minLength: 1, maxLength: 200, description: 'Series UUID or slug' });

const SCOPES = [
  {
    prefix: '/events/:event_id',
    action: 'webhooks.manage',
    param: { event_id: EventIdParam },
    who: 'Event admins, series owners/organizers of the event’s series and global admins; other event roles 403; API keys 403. `{event_id}`: numeric id or event UUID. Receives the event’s messages.',
  },
  {
    prefix: '/series/:series_id',
    action: 'series_webhooks.manage',
    param: { series_id: SeriesIdParam },
    who: 'Series owners and global admins; organizers and event roles 403; API keys 403. `{series_id}`: series UUID or slug. Receives the messages of every event of the series.',
  },
] as const;

const SHAPE =
  'Body fields: `url` (https; http only to localhost with MUSTER_WEBHOOKS_ALLOW_PRIVATE=true; a host resolving to a private, loopback or link-local address → 422), `description`, `event_types` (see the `webhooks` section: 422 `Unknown event type: …`). Deliveries follow Standard Webhooks 1.0 (docs/webhooks.md "Outbound").';

function ownerOf(deps: Deps, request: FastifyRequest, action: (typeof SCOPES)[number]['action']) {
  if (action === 'webhooks.manage') {
    const ctx = ctxOf(deps, request, 'webhooks.manage');
    const owner: Owner = { kind: 'event', eventId: ctx.access.event.id, seriesId: ctx.access.event.seriesId };
    return { ctx, owner };
  }
  const ctx = ctxOf(deps, request, 'series_webhooks.manage');
  const owner: Owner = { kind: 'series', seriesId: ctx.access.series.id };
  return { ctx, owner };
}

export function outboundWebhookRoutes(app: Api, deps: Deps): void {
  for (const scope of SCOPES) {
    const config = { action: scope.action };
    const base = `${scope.prefix}/webhooks`;
    const params = Type.Object(scope.param);
    const oneParams = Type.Object({ ...scope.param, id: IdParam });
    const use = (request: FastifyRequest) => ownerOf(deps, request, scope.action);
    const idOf = (request: FastifyRequest) => service.webhookId((request.params as { id: string }).id);

    app.get(
      base,
      {
        config,
        schema: {
          tags,
          summary: `Webhooks of the ${scope.action === 'webhooks.manage' ? 'event' : 'series'}`,
          description: `Oldest first; secrets are never shown here. ${scope.who}`,
          params,
          response: { 200: WebhookList, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { ctx, owner } = use(request);
        return service.listWebhooks(ctx, owner);
      },
    );
    app.post(
      base,
      {
        config,
        schema: {
          tags,
          summary: 'Create a webhook',
          description: `201 \`{webhook}\` with \`secret\` (\`whsec_…\`): the only time it is shown (stored sealed). At most 20 per event or series. Audited (\`webhooks.create\`). ${SHAPE} ${scope.who}`,
          params,
          body: CreateWebhookRequest,
          response: { 201: WebhookSecretBody, ...errorResponses(400, 401, 403, 404, 413, 422) },
        },
      },
      async (request, reply) => {
        const { ctx, owner } = use(request);
        return reply.status(201).send(await service.createWebhook(ctx, owner, request.body));
      },
    );
    app.get(
      `${base}/:id`,
      {
        config,
        schema: {
          tags,
          summary: 'One webhook',
          description: `404 \`Webhook not found\` for an unknown id or another event’s or series’. ${scope.who}`,
          params: oneParams,
          response: { 200: WebhookBody, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { ctx, owner } = use(request);
        return service.getWebhook(ctx, owner, idOf(request));
      },
    );
    app.patch(
      `${base}/:id`,
      {
        config,
        // An unknown webhook is 404 before an invalid body is 422 (docs/decisions.md check order).
        preValidation: async (request) => {
          const { ctx, owner } = use(request);
          await service.getWebhook(ctx, owner, idOf(request));
        },
        schema: {
          tags,
          summary: 'Change a webhook (URL, description, types, on/off)',
          description: `Any of \`url\`, \`description\`, \`event_types\`, \`enabled\`. Switching it on again clears \`disabled_reason\` and the failure run; its waiting deliveries resume. Audited (\`webhooks.update\`, field names). ${SHAPE} ${scope.who}`,
          params: oneParams,
          body: UpdateWebhookRequest,
          response: { 200: WebhookBody, ...errorResponses(400, 401, 403, 404, 413, 422) },
        },
      },
      async (request) => {
        const { ctx, owner } = use(request);
        return service.updateWebhook(ctx, owner, idOf(request), request.body);
      },
    );
    app.delete(
      `${base}/:id`,
      {
        config,
        schema: {
          tags,
          summary: 'Delete a webhook',
          description: `204; its pending deliveries are dropped. Audited (\`webhooks.delete\`). ${scope.who}`,
          params: oneParams,
          response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { ctx, owner } = use(request);
        await service.deleteWebhook(ctx, owner, idOf(request));
        return reply.status(204).send(null);
      },
    );
    app.post(
      `${base}/:id/rotate_secret`,
      {
        config,
        schema: {
          tags,
          summary: 'Rotate the signing secret',
          description: `200 \`{webhook}\` with the new \`secret\` (shown once). For 24 hours (\`previous_secret_expires_at\`) every delivery carries two signatures, new and old, so receivers can switch without losing messages. Audited (\`webhooks.rotate_secret\`). ${scope.who}`,
          params: oneParams,
          response: { 200: WebhookSecretBody, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { ctx, owner } = use(request);
        return service.rotateSecret(ctx, owner, idOf(request));
      },
    );
    app.post(
      `${base}/:id/ping`,
      {
        config,
        schema: {
          tags,
          summary: 'Send a test delivery',
          description: `202 \`{delivery}\`: one \`ping\` message to this webhook alone (whatever its types). 409 when it is switched off. Audited (\`webhooks.ping\`). ${scope.who}`,
          params: oneParams,
          response: { 202: DeliveryBody, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { ctx, owner } = use(request);
        return reply.status(202).send(await deliveries.ping(ctx, owner, idOf(request)));
      },
    );
    app.get(
      `${base}/:id/deliveries`,
      {
        config,
        schema: {
          tags,
          summary: 'Delivery log of a webhook',
          description: `Newest first; each delivery with its \`webhook_id\` (the header, stable across retries) and its last 10 attempts (time, HTTP status, duration, attempt number, response excerpt). \`limit\` 1..200 (default 50); page with \`before_id\` = the last id. ${scope.who}`,
          params: oneParams,
          querystring: DeliveryListQuery,
          response: { 200: DeliveryList, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { ctx, owner } = use(request);
        return deliveries.listDeliveries(ctx, owner, idOf(request), request.query);
      },
    );
    app.post(
      `${base}/:id/deliveries/:delivery_id/redeliver`,
      {
        config,
        schema: {
          tags,
          summary: 'Deliver a message again',
          description: `202 \`{delivery}\`: back to \`pending\` with a fresh retry schedule and the same \`webhook_id\`. 404 \`Delivery not found\`; 409 when the webhook is switched off. Audited (\`webhooks.redeliver\`). ${scope.who}`,
          params: Type.Object({ ...scope.param, id: IdParam, delivery_id: DeliveryIdParam }),
          response: { 202: DeliveryBody, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { ctx, owner } = use(request);
        const raw = request.params.delivery_id;
        return reply
          .status(202)
          .send(await deliveries.redeliver(ctx, owner, idOf(request), deliveries.deliveryId(raw)));
      },
    );
  }
}
