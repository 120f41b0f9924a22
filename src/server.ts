/**
 * Composition root: config → deps (database opened, migrations applied) → app → listen.
 * `muster serve` (what `npm start` runs) calls startServer; tests call createDeps + buildApp.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { type Database, type Db, openDatabase } from './db/client.js';
import { migrateDatabase } from './db/migrate.js';
import type { DemoResult } from './demo/seed.js';
import type { Deps } from './deps.js';
import { createMailer } from './integrations/mailer.js';
import { createJobs } from './jobs/queue.js';
import { startWorker } from './jobs/runner.js';
import { createSealer } from './lib/sealed.js';
import { createLogger } from './logger.js';
import { startControlSocket } from './modules/backup/control.js';
import { startBackupSchedule, warnAboutBackupKey } from './modules/backup/schedule.js';
import { startMetricsListener } from './modules/metrics/metrics.listener.js';
import { normaliseStoredPhones } from './modules/participants/phone-backfill.js';
import { ensureDefaultClients } from './modules/signin/clients.service.js';

export interface OwnedDeps extends Deps {
  /** The process's pino logger (the backup tasks take it whole). */
  readonly log: Logger;
  /** Starts the job queue and, with `worker`, the job handlers (idempotent; createDeps awaits it unless `deferJobs`). */
  startJobs(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the configured database (or takes `database`, already open, and owns it from then on),
 * applies migrations (skipped when up to date; under the migration lock otherwise), starts the job
 * queue (and, with `worker`, the job handlers) unless `deferJobs`. Throws DataDirLockedError if the
 * embedded folder is in use.
 */
export async function createDeps(
  config: Config,
  opts: { logger?: Logger; worker?: boolean; deferJobs?: boolean; database?: Database } = {},
): Promise<OwnedDeps> {
  const log = opts.logger ?? createLogger(config.logLevel);
  const sealer = createSealer({
    secretKey: config.secretKey,
    previousSecretKey: config.previousSecretKey,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
  });
  const database = opts.database ?? (await openDatabase(config));
  try {
    await migrateDatabase(database);
    await ensureDefaultClients(database.db);
    await normaliseStoredPhones(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  const jobs = createJobs(database, log, { supervise: opts.worker ?? false });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, log });
  if (sealer.source === 'ephemeral' && config.databaseUrl) {
    log.warn('MUSTER_SECRET_KEY is not set: queued emails carrying sign-in codes will not survive a restart');
  }
  let jobsStarted: Promise<void> | undefined;
  const deps: OwnedDeps = {
    config,
    database,
    db: database.db,
    log,
    jobs,
    mailer,
    sealer,
    startJobs() {
      jobsStarted ??= jobs.start().then(() => (opts.worker ? startWorker(deps) : undefined));
      return jobsStarted;
    },
    async close() {
      await jobs.stop();
      mailer.close();
      await database.close();
    },
  };
  if (!opts.deferJobs) {
    try {
      await deps.startJobs();
    } catch (error) {
      await deps.close();
      throw error;
    }
  }
  return deps;
}

/** True when there are no users and no series yet (the demo is seeded only then). */
async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const result = await db.execute<{ empty: boolean }>(
    sql`SELECT NOT EXISTS (SELECT 1 FROM users) AND NOT EXISTS (SELECT 1 FROM series) AS empty`,
  );
  return result.rows[0]?.empty === true;
}

export interface RunningServer {
  url: string;
  docsUrl: string;
  demo: DemoResult | null;
  close(): Promise<void>;
}

/**
 * migrate → (seed the demo when asked and the database is empty) → serve the API → start the job
 * queue. The HTTP modules load while the database opens (the embedded one starts in a worker
 * thread), and the job queue starts after listening: requests that enqueue before it is up wait
 * for it (Jobs.start), and /readyz answers 503 until it is.
 */
export async function startServer(opts: {
  config: Config;
  seedDemoIfEmpty: boolean;
  log?: boolean;
}): Promise<RunningServer> {
  const { config } = opts;
  const [deps, { buildApp }] = await Promise.all([
    createDeps(config, {
      logger: createLogger(opts.log === false ? 'silent' : config.logLevel),
      worker: config.runWorker,
      deferJobs: true,
    }),
    import('./app.js'),
  ]);
  try {
    let demo: DemoResult | null = null;
    if (opts.seedDemoIfEmpty && (await isDatabaseEmpty(deps.db))) {
      // Loaded lazily: the demo generator (faker) is only needed on a first start.
      const { isDatabaseEmpty: stillEmpty, seedDemo } = await import('./demo/seed.js');
      demo = await deps.db.transaction(async (tx) => ((await stillEmpty(tx)) ? seedDemo(tx, {}) : null));
    }
    const app = await buildApp(deps);
    let stopMetrics = async () => {};
    let stopControl = async () => {};
    try {
      await app.listen({ port: config.port, host: config.host });
      stopMetrics = await startMetricsListener(deps);
      stopControl = await startControlSocket(deps);
      await deps.startJobs();
    } catch (error) {
      await stopControl();
      await stopMetrics();
      await app.close();
      throw error;
    }
    warnAboutBackupKey(deps);
    // The in-process worker shares the HTTP server's event loop: nicing this process would slow
    // check-in as much as the deliveries, so the value is for `muster worker` only.
    if (config.runWorker && config.workerNice > 0)
      deps.log.warn(
        'MUSTER_WORKER_NICE is ignored by `muster serve` (it would lower the API too): set MUSTER_WORKER=false and run `muster worker` with it',
      );
    const stopBackups = startBackupSchedule(deps);
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const base = config.port === 0 ? config.baseUrl.replace(/:0$/, `:${port}`) : config.baseUrl;
    return {
      url: `${base}/api/v1`,
      docsUrl: `${base}/api/v1/docs`,
      demo,
      async close() {
        stopBackups();
        await stopControl();
        await stopMetrics();
        await app.close();
        await deps.close();
      },
    };
  } catch (error) {
    await deps.close();
    throw error;
  }
}
