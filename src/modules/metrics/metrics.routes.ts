/**
 * `GET /metrics` (Prometheus text format) and the HTTP latency histogram's hook
 * (docs/operations.md "Metrics"). The route sits at the site root, outside `/api/v1`, where
 * Prometheus looks by default. It authenticates itself: `Authorization: Bearer <MUSTER_METRICS_TOKEN>`
 * (what Prometheus sends with `authorization: {credentials: …}`), compared in constant time; no
 * token configured, none sent or a wrong one → 401 `{"error":"Unauthorized"}`. The token-less
 * alternative is the separate listener of `MUSTER_METRICS_LISTEN` (server.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { bearerToken } from '../../access/authenticate.js';
import type { Deps } from '../../deps.js';
import type { Api } from '../../http/typed.js';
import { safeEqual } from '../../lib/secrets.js';
import { metricsOf } from './metrics.registry.js';

/** Observes every response's duration under its route template (unmatched URLs as `unmatched`). */
export function registerHttpMetrics(app: FastifyInstance, deps: Deps): void {
  const { http } = metricsOf(deps);
  app.addHook('onResponse', async (request, reply) => {
    http.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}

export function metricsRoutes(app: Api, deps: Deps): void {
  app.get(
    '/metrics',
    {
      config: { public: 'signature' },
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'Prometheus text exposition format 0.0.4 (docs/operations.md "Metrics" lists every series). Needs `Authorization: Bearer <MUSTER_METRICS_TOKEN>`; without the variable set, or with another token, 401 `{"error":"Unauthorized"}`. Process metrics are this instance’s; `muster_job_queue_*`, `muster_emails`, `muster_chat_deliveries`, `muster_push_deliveries` and `muster_scans` are read from the database and the same on every instance.',
        security: [{ metrics_token: [] }],
        response: { 200: Type.String(), 401: Type.Object({ error: Type.String() }) },
      },
    },
    async (request, reply) => {
      const expected = deps.config.metrics.token;
      const presented = bearerToken(request.headers.authorization);
      if (!expected || !presented || !safeEqual(presented, expected)) {
        return reply.status(401).send({ error: 'Unauthorized' });
      }
      const { registry } = metricsOf(deps);
      const body = await registry.metrics();
      return reply
        .header('content-type', registry.contentType)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
}
