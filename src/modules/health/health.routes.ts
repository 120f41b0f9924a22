/**
 * Liveness (GET /healthz: the process answers) and readiness (GET /readyz: the job queue is started
 * and the database answers; a load balancer sends traffic only to ready instances). Public.
 */
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import type { Api } from '../../http/typed.js';

const Health = Type.Object({ status: Type.String() });

export function healthRoutes(app: Api, deps: Deps): void {
  app.get(
    '/healthz',
    { config: { public: 'none' }, schema: { tags: ['health'], security: [], response: { 200: Health } } },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      config: { public: 'none' },
      schema: {
        tags: ['health'],
        security: [],
        response: { 200: Health, 503: Type.Object({ error: Type.String() }) },
      },
    },
    async (_request, reply) => {
      if (!deps.jobs.running) return reply.status(503).send({ error: 'Starting' });
      try {
        await deps.db.execute(sql`select 1`);
        return { status: 'ready' };
      } catch {
        return reply.status(503).send({ error: 'Database unavailable' });
      }
    },
  );
}
