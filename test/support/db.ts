/**
 * One fresh database per test file. With `DATABASE_URL` set, a throw-away database
 * `muster_t_<random>` is created on that server (connecting to the URL's own database to do so) and
 * dropped afterwards; otherwise the embedded PGlite runs in memory (`memory://`).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  /** Environment for loadConfig(): DATABASE_URL or MUSTER_DATA_DIR=memory://. */
  env: Record<string, string>;
  /** The created database's URL (PostgreSQL mode only). */
  url?: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) return { env: { MUSTER_DATA_DIR: 'memory://' }, drop: async () => {} };

  const name = `muster_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
