/**
 * Composition root: config → deps (database opened, migrations applied) → app → listen.
 * `muster serve` (what `npm start` runs) calls startServer; tests call createDeps + buildApp.
 */
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import type { Deps } from './deps.js';
import { createLogger } from './logger.js';
import type { DemoResult } from './modules/demo/seed.js';

export interface OwnedDeps extends Deps {
  close(): Promise<void>;
}

/** Opens the configured database and applies migrations. Throws DataDirLockedError if the folder is in use. */
export async function createDeps(config: Config, opts: { logger?: Logger } = {}): Promise<OwnedDeps> {
  const log = opts.logger ?? createLogger(config.logLevel);
  const database = await openDatabase(config);
  try {
    await runMigrations(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return { config, database, db: database.db, log, close: () => database.close() };
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
