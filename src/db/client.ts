/**
 * Database access: one code path (node-postgres + Drizzle) for both PostgreSQL (`DATABASE_URL`)
 * and the embedded PGlite database (served from a worker thread over the wire protocol).
 * Every session runs in UTC so SQL-formatted timestamps match `lib/time.ts`.
 */
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Config } from '../config.js';
import { type EmbeddedMemory, startEmbedded } from './embedded/embedded.js';
import { useNamedStatements } from './prepared.js';
import * as schema from './schema/index.js';

export type Db = NodePgDatabase<typeof schema>;
/** A Drizzle handle usable both outside and inside a transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  readonly db: Db;
  readonly pool: pg.Pool;
  readonly kind: 'postgres' | 'embedded';
  /** Embedded only: writes the data folder as a tarball that `openDatabase`'s `snapshot` can start from. */
  readonly dump?: (file: string) => Promise<void>;
  /** Embedded only: PGlite's WebAssembly memory and its worker's heap, in bytes (bench/memory). */
  readonly memory?: () => Promise<EmbeddedMemory | undefined>;
  close(): Promise<void>;
}

/**
 * Opens the configured database. Throws DataDirLockedError if the embedded folder is in use.
 * `snapshot` (embedded only): a tarball from `Database.dump` to start a new database from.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize'>,
  opts: { snapshot?: string } = {},
): Promise<Database> {
  if (config.databaseUrl) {
    // jit=off: the participant JSON statements cross the JIT cost threshold and spent ~30% of their
    // time compiling (bench/, full sync at 2,000 and 20,000); nothing here benefits from JIT.
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.dbPoolSize,
      options: '-c TimeZone=UTC -c jit=off',
    });
    return wrap(pool, 'postgres', async () => {});
  }
  // PGlite is single-session: one pooled connection keeps transactions strictly serial. The server
  // accepts a few more sockets because pg destroys a client after a query error and reconnects
  // while the old socket is still closing (with a limit of 1 that reconnect was refused).
  const embedded = await startEmbedded(config.dataDir, 4, opts);
  const pool = new pg.Pool({
    host: embedded.host,
    port: embedded.port,
    user: 'postgres',
    database: 'postgres',
    options: '-c TimeZone=UTC',
    max: 1,
    idleTimeoutMillis: 0,
  });
  return {
    ...wrap(pool, 'embedded', () => embedded.stop()),
    dump: (file) => embedded.dump(file),
    memory: () => embedded.memory(),
  };
}

function wrap(pool: pg.Pool, kind: Database['kind'], stop: () => Promise<void>): Database {
  pool.on('error', () => {}); // idle-client errors surface on the next query instead of crashing
  const db = drizzle(pool, { schema });
  if (kind === 'postgres') useNamedStatements(db, pool);
  let closed = false;
  return {
    db,
    pool,
    kind,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
      await stop();
    },
  };
}
