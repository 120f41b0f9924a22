import { openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { sql } from 'drizzle-orm';
for (const cfg of [{ dataDir: '/tmp/smoke-data', dbPoolSize: 2, databaseUrl: undefined }, { dataDir: 'x', dbPoolSize: 2, databaseUrl: 'postgres://postgres@127.0.0.1:5432/smoke' }]) {
  const t0 = Date.now();
  const d = await openDatabase(cfg);
  const t1 = Date.now();
  await runMigrations(d.db);
  const t2 = Date.now();
  const r = await d.db.execute(sql`select now() as n, version() as v, (select count(*) from pg_stat_activity) as c, current_setting('TimeZone') tz`);
  console.log(d.kind, t1 - t0, 'ms open', t2 - t1, 'ms migrate', r.rows[0]);
  await d.close();
}
