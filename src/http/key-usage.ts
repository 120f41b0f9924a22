/**
 * Records when an API key or global token was last used, without a write per request: after a
 * successful response (off the request's path), at most one UPDATE per credential per minute per
 * process, and that UPDATE only writes when the stored value is over a minute old (so several
 * processes still write at most about once a minute). Refused requests record nothing.
 */

import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../access/principal.js';
import type { Deps } from '../deps.js';

const MINUTE_MS = 60_000;
const TABLE = {
  series_key: 'series_api_keys',
  event_key: 'event_api_keys',
  global: 'global_api_tokens',
} as const;

export function registerKeyUsage(app: FastifyInstance, deps: Deps): void {
  const lastWrite = new Map<string, number>();
  app.addHook('onResponse', async (request, reply) => {
    const principal: Principal | undefined = request.access?.principal;
    if (!principal || reply.statusCode >= 400) return;
    if (principal.kind === 'mobile' || principal.kind === 'guardian_link') return;
    if (principal.kind === 'event_key' && principal.legacy) return;
    const key = `${principal.kind}:${principal.credentialId}`;
    const now = Date.now();
    if ((lastWrite.get(key) ?? 0) > now - MINUTE_MS) return;
    lastWrite.set(key, now);
    const table = sql.identifier(TABLE[principal.kind]);
    try {
      await deps.db.execute(
        sql`UPDATE ${table} SET last_used_at = now()
             WHERE id = ${Number(principal.credentialId)}
               AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      );
    } catch (error) {
      request.log.warn({ err: error }, 'could not record last_used_at');
    }
  });
}
