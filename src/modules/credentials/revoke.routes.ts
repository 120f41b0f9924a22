/**
 * POST /tokens/revoke (spec "POST /tokens/revoke", "Authentication" rule 3; docs/decisions.md "Account and sessions"): revoke
 * a key by presenting its own secret, no credentials needed. Rate limited per client IP.
 */

import type { Deps } from '../../deps.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { badRequest } from '../../lib/errors.js';
import { REVOKE_RATE_LIMIT, RevokeRequest, RevokeResult } from './revoke.schemas.js';
import { MAX_REVOKE_SECRET_LENGTH, revokeBySecret } from './revoke.service.js';

/** Far above `{"token": "<512 chars>"}`; larger bodies are 413 before any work. */
const REVOKE_BODY_LIMIT = 16 * 1024;

export function revokeRoutes(app: Api, deps: Deps): void {
  app.post(
    '/tokens/revoke',
    {
      config: { public: 'none', rateLimit: { ...REVOKE_RATE_LIMIT } },
      bodyLimit: REVOKE_BODY_LIMIT,
      // docs/decisions.md "Account and sessions": "answers 200 to every well-formed JSON request". The body schema documents the
      // request; it is not enforced (no 422 here), the service checks the shape itself.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['account'],
        summary: 'Revoke a key or token by its own secret (no credentials)',
        description: [
          'Send `{"token": "<secret>"}`. Revokes the **active** event API key, series API key, legacy per-event key or global API token with that secret; from then on it is 401 everywhere. No Authorization header is needed (one that is sent is ignored).',
          `Always 200 for any well-formed JSON body: \`{"success":true, "key_name", "owner_email"}\` when something was revoked, otherwise \`{"success":false}\` — for an unknown, mistyped, already revoked or expired secret, a mobile token (sign out with DELETE /session instead), and a body that is not an object with a string \`token\` of at most ${MAX_REVOKE_SECRET_LENGTH} characters. The answer never says which. \`owner_email\` is null when the owner's account is gone, and for legacy keys (which have no owner).`,
          "Notification: the key's owner is emailed (template `key_revoked`). When the owner's account is gone, the series owners are emailed instead (series key), or the event's event admins and its series owners (event key, legacy key) — each distinct address once. The email is queued in the revoking transaction. Audited as `credentials.revoke_by_secret` naming the key (kind, id, name); the secret is never stored or logged.",
          `Errors: malformed JSON or a non-JSON content type 400, body over ${REVOKE_BODY_LIMIT / 1024} KiB 413, more than ${REVOKE_RATE_LIMIT.max} requests per ${REVOKE_RATE_LIMIT.timeWindow} from one IP address 429 with \`Retry-After\` (seconds).`,
        ].join('\n\n'),
        security: [],
        body: RevokeRequest,
        response: { 200: RevokeResult, ...errorResponses(400, 413, 429) },
      },
    },
    async (request) => {
      // Fastify also parses text/plain; here that would turn a wrong content type into a 200.
      if (
        request.body !== undefined &&
        !/^application\/json\b/i.test(request.headers['content-type'] ?? '')
      ) {
        throw badRequest('Unsupported or malformed request body; send application/json');
      }
      return revokeBySecret(deps, request.body, { ip: request.ip });
    },
  );
}
