/**
 * OpenAPI 3.1 generated from the route schemas (one source for validation, serialisation and
 * docs), served at /api/v1/openapi.json with a docs page at /api/v1/docs. The committed copy
 * `openapi/openapi.json` is checked for freshness in CI (`npm run openapi:check`).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const API_DESCRIPTION = `Muster: event registration and check-in.

Authentication: \`Authorization: Bearer <token>\` with one of four credential kinds — mobile token,
global API token (\`mst_g_…\`), series API key (\`mst_s_…\`), event API key (\`mst_e_…\` or a legacy
per-event key). Missing or invalid credentials → 401 \`{"error":"Unauthorized"}\`.

Check order for every request: 401 → 403 (credential kind or scope) → 404 (event/series/record) →
403 (outside the credential's reach or the user's roles) → 422 (invalid input) → action.
Errors are always \`{"error": "<message>"}\`. Malformed JSON 400, validation 422, too large 413.

Timestamps are ISO 8601 UTC with microseconds (\`2026-11-22T04:13:41.908781Z\`). Sensitive
participant fields are present only for global admins and safeguarding leads of the event; PII
(phone, date of birth, address, guardian email/phone, travel origin address) is omitted for callers
whose only role is \`limited\`. Omitted means the key is absent, not null.

\`{event_id}\`: numeric id or event UUID; the participants endpoints also accept the event slug.`;

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Muster API', version: '1.0.0', description: API_DESCRIPTION },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'Mobile token, global API token, series or event API key',
          },
          metrics_token: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The operator’s MUSTER_METRICS_TOKEN (GET /metrics only; docs/operations.md "Metrics")',
          },
        },
      },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/v1/docs', staticCSP: true });
  app.get('/api/v1/openapi.json', { config: { public: 'none' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
