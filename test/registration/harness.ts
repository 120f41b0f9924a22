/** Shared setup for the registration tests: SMTP server, app with worker, the matrix world. */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { startWorker } from '../../src/jobs/runner.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { type ReceivedEmail, startSmtp, type TestSmtp } from '../support/smtp.js';
import { buildWorld, type World } from '../support/world.js';

export const P = '/api/v1';
export const BASE_URL = 'https://muster.test';

export interface RegHarness {
  t: TestApp;
  app: FastifyInstance;
  smtp: TestSmtp;
  world: World;
  close(): Promise<void>;
}

export async function startRegHarness(extraEnv: Record<string, string> = {}): Promise<RegHarness> {
  const smtp = await startSmtp();
  const t = await startTestApp({ SMTP_URL: smtp.url, MUSTER_BASE_URL: BASE_URL, ...extraEnv });
  await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
  const world = await buildWorld(t.deps);
  return {
    t,
    app: t.app,
    smtp,
    world,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

/** JSON request with an optional bearer secret. */
export function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  secret?: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: bearer(secret),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** The `token=` value of the first link in an email. */
export function tokenIn(mail: ReceivedEmail): string {
  const match = /token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`no token in email: ${mail.text}`);
  return match[1]!;
}

/** Waits until the worker has sent every queued email (so snapshots do not race the worker). */
export async function emailsSettled(h: Pick<RegHarness, 't'>, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const res = await h.t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM email_log WHERE status = 'queued'`,
    );
    if (res.rows[0]!.n === 0) return;
    if (Date.now() - started > timeoutMs) throw new Error('emails still queued');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The audit rows of `action`, oldest first (target, metadata, credential kind). */
export async function auditRows(h: Pick<RegHarness, 't'>, action: string) {
  const res = await h.t.deps.db.execute<{
    target_id: string;
    metadata: Record<string, unknown>;
    credential_kind: string;
  }>(sql`SELECT target_id, metadata, credential_kind FROM audit_log WHERE action = ${action} ORDER BY id`);
  return res.rows;
}

/** Sends a request expected to be refused with exactly `{error}` and asserts the database is unchanged. */
export async function expectRefusedUnchanged(
  h: Pick<RegHarness, 't' | 'app'>,
  method: 'GET' | 'POST',
  url: string,
  secret: string,
  status: number,
  error: string,
): Promise<void> {
  await emailsSettled(h);
  const before = await snapshotDb(h.t.deps);
  const res = await call(h.app, method, url, secret);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ error });
  expect(await snapshotDb(h.t.deps)).toEqual(before);
}
