/**
 * One app and one matrix world per test file (test/support/world.ts), for the series event API
 * tests: `const env = withWorld()` at the top level, then `env.t` (app + deps) and `env.w` (world)
 * inside tests; `query(env, sql, params)` reads the database directly.
 */
import { afterAll, beforeAll } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

export interface WorldEnv {
  t: TestApp;
  w: World;
}

export function withWorld(): WorldEnv {
  const env = {} as WorldEnv;
  beforeAll(async () => {
    env.t = await startTestApp();
    env.w = await buildWorld(env.t.deps);
  }, 60_000);
  afterAll(async () => {
    await env.t?.close();
  });
  return env;
}

export function query<T extends Record<string, unknown>>(
  env: WorldEnv,
  text: string,
  params: unknown[] = [],
) {
  return env.t.deps.database.pool.query<T>(text, params).then((r) => r.rows);
}

/** POST /series/{series}/events `{event}` with a bearer secret (`series` defaults to `current`). */
export function createEvent(
  env: WorldEnv,
  secret: string | undefined,
  event: Record<string, unknown>,
  series = 'current',
) {
  return env.t.app.inject({
    method: 'POST',
    url: `/api/v1/series/${series}/events`,
    headers: bearer(secret),
    payload: { event },
  });
}
