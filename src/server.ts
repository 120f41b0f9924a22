/**
 * Composition root: config → deps (database opened, migrations applied) → app → listen.
 * `muster serve` (what `npm start` runs) calls startServer; tests call createDeps + buildApp.
 */
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import type { Deps } from './deps.js';
import { createMailer } from './integrations/mailer.js';
import { type Jobs, startJobs } from './jobs/queue.js';
import { startWorker } from './jobs/runner.js';
import { createSealer } from './lib/sealed.js';
import { createLogger } from './logger.js';
import type { DemoResult } from './modules/demo/seed.js';
import { ensureDefaultClients } from './modules/signin/clients.service.js';

export interface OwnedDeps extends Deps {
  close(): Promise<void>;
}

/**
 * Opens the configured database (or takes `database`, already open, and owns it from then on),
 * applies migrations, starts the job queue (and, with `worker`, the job handlers). Throws
 * DataDirLockedError if the embedded folder is in use.
 */
export async function createDeps(
  config: Config,
  opts: { logger?: Logger; worker?: boolean; database?: Database } = {},
): Promise<OwnedDeps> {
  const log = opts.logger ?? createLogger(config.logLevel);
  const database = opts.database ?? (await openDatabase(config));
  let jobs: Jobs;
  try {
    await runMigrations(database.db);
    await ensureDefaultClients(database.db);
    jobs = await startJobs(database, log, { supervise: opts.worker ?? false });
  } catch (error) {
    await database.close();
    throw error;
  }
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, log });
  const sealer = createSealer({
    secretKey: config.secretKey,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
  });
  if (sealer.source === 'ephemeral' && config.databaseUrl) {
    log.warn('MUSTER_SECRET_KEY is not set: queued emails carrying sign-in codes will not survive a restart');
  }
  const deps: OwnedDeps = {
    config,
    database,
    db: database.db,
    log,
    jobs,
    mailer,
    sealer,
    async close() {
      await jobs.stop();
      mailer.close();
      await database.close();
    },
  };
  if (opts.worker) await startWorker(deps);
  return deps;
}

export interface RunningServer {
  url: string;
  docsUrl: string;
  demo: DemoResult | null;
  close(): Promise<void>;
}

/** migrate → (seed the demo when the database is empty) → serve the API. */
export async function startServer(opts: {
  config: Config;
  seedDemoIfEmpty: boolean;
  log?: boolean;
}): Promise<RunningServer> {
  const { config } = opts;
  const deps = await createDeps(config, {
    logger: createLogger(opts.log === false ? 'silent' : config.logLevel),
    worker: config.runWorker,
  });
  try {
    let demo: DemoResult | null = null;
    if (opts.seedDemoIfEmpty) {
      // Loaded lazily: the demo generator (faker) is only needed on a first start.
      const { isDatabaseEmpty, seedDemo } = await import('./modules/demo/seed.js');
      demo = await deps.db.transaction(async (tx) => ((await isDatabaseEmpty(tx)) ? seedDemo(tx, {}) : null));
    }
    const app = await buildApp(deps);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const base = config.port === 0 ? config.baseUrl.replace(/:0$/, `:${port}`) : config.baseUrl;
    return {
      url: `${base}/api/v1`,
      docsUrl: `${base}/api/v1/docs`,
      demo,
      async close() {
        await app.close();
        await deps.close();
      },
    };
  } catch (error) {
    await deps.close();
    throw error;
  }
}
