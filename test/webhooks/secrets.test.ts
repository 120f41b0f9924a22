/**
 * Provider secrets stay out of logs and the database (docs/decisions.md "Messaging" config "redacted in logs";
 * quality.md "Secrets never in logs"): one app with a debug logger writing to memory (the
 * production redaction paths) and the worker; every receiver gets valid, bad and replayed
 * deliveries; even the whole config object logged at debug level shows no secret. Then every log
 * line and every row of webhook_events and the job queue is searched for each secret.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startWorker } from '../../src/jobs/runner.js';
import { REDACT_PATHS } from '../../src/logger.js';
import { createDeps } from '../../src/server.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { drain, PROVIDERS, SECRETS, signedRequest } from './helpers.js';

const API_KEY = 'docuseal-api-key-0123456789';
let database: TestDatabase;
let deps: Awaited<ReturnType<typeof createDeps>>;
let app: FastifyInstance;
const logs: string[] = [];

/** The configuration's other secrets: they must not show in a logged config object either. */
const OTHER_SECRETS = {
  SMTP_URL: 'smtp://mailer:SMTPPASSWORD0secret@127.0.0.1:9',
  MUSTER_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  MUSTER_CHAT_BOT_TOKEN: 'xoxb-chat-bot-token-0secret',
};

beforeAll(async () => {
  database = await createTestDatabase();
  const logger = pino(
    { level: 'debug', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    { write: (line: string) => void logs.push(line) },
  );
  const config = loadConfig({
    ...database.env,
    ...SECRETS,
    MUSTER_ESIGN_URL: 'http://127.0.0.1:9/api',
    MUSTER_ESIGN_API_KEY: API_KEY,
    ...OTHER_SECRETS,
    LOG_LEVEL: 'debug',
  });
  deps = await createDeps(config, { logger, database: await database.open(config) });
  await startWorker(deps, { pollingIntervalSeconds: 0.5 });
  app = await buildApp(deps);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await deps?.close();
  await database?.drop();
});

const BODIES = {
  email: { RecordType: 'Bounce', ID: 1, Type: 'HardBounce', Email: 'x@example.org' },
  helpdesk: { id: 1, primaryCustomer: { email: 'x@example.org' } },
  esign: { event_type: 'form.viewed', timestamp: '2026-11-24T10:00:00Z', data: { id: 1, submission_id: 1 } },
  chat: {
    type: 'event_callback',
    event_id: 'Ev1',
    event: { type: 'team_join', user: { id: 'U1', profile: { email: 'x@example.org' } } },
  },
};

describe('provider secrets', () => {
  it('appear in no log line, no stored event and no job', async () => {
    deps.log.debug({ config: deps.config }, 'configuration (debug)');
    for (const provider of PROVIDERS) {
      const body = JSON.stringify(BODIES[provider]);
      for (const req of [
        signedRequest(provider, body),
        signedRequest(provider, body),
        signedRequest(provider, body, { secret: 'wrong-secret-value-000' }),
        signedRequest(provider, `${body} `, { sendBody: body }),
      ]) {
        expect((await app.inject(req)).statusCode).toBeLessThan(500);
      }
    }
    await drain({ deps } as never);
    const dump = await deps.db.execute<{ d: string }>(
      sql`SELECT coalesce(string_agg(x::text, E'\n'), '') AS d FROM (
            SELECT to_jsonb(w) AS x FROM webhook_events w
            UNION ALL SELECT to_jsonb(j) FROM pgboss.job j) s`,
    );
    const haystack = `${logs.join('\n')}\n${dump.rows[0]!.d}`;
    expect(logs.some((l) => l.includes('configuration (debug)'))).toBe(true);
    for (const secret of [
      ...Object.values(SECRETS),
      API_KEY,
      'SMTPPASSWORD0secret',
      ...Object.values(OTHER_SECRETS).slice(1),
    ]) {
      expect(haystack).not.toContain(secret);
      expect(haystack).not.toContain(Buffer.from(secret).toString('base64'));
    }
  }, 60_000);
});
