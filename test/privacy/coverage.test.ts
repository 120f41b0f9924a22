/**
 * The data map covers the schema (docs/privacy.md "The data map"): every column that names a person
 * (a person, registration or user key, or an email address) in the migrated database is accounted
 * for by an entry of src/modules/privacy/data-map.ts, or listed as not personal with a reason. A new
 * table or column that names a person fails here until subject access and erasure know about it.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_MAP, NOT_PERSONAL } from '../../src/modules/privacy/data-map.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => t?.close());

describe('the privacy data map', () => {
  it('names every column that keys a person, a registration, a user or an email address', async () => {
    const res = await t.deps.db.execute<{ key: string }>(sql`
      SELECT c.table_name || '.' || c.column_name AS key
        FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
         AND (c.column_name IN ('person_id', 'registration_id', 'user_id', 'email')
              OR c.column_name LIKE '%\\_user\\_id' OR c.column_name LIKE '%\\_email')
       ORDER BY 1`);
    const inSchema = res.rows.map((r) => r.key);
    expect(inSchema.length).toBeGreaterThan(40);
    const accounted = new Set([...DATA_MAP.flatMap((e) => e.keys), ...Object.keys(NOT_PERSONAL)]);
    expect(inSchema.filter((k) => !accounted.has(k))).toEqual([]);
    // …and names nothing that is not there.
    expect([...accounted].filter((k) => !inSchema.includes(k))).toEqual([]);
  });

  it('names only tables that exist, and states a reason for every table it keeps as is', async () => {
    const res = await t.deps.db.execute<{ n: string }>(
      sql`SELECT table_name AS n FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    const tables = new Set(res.rows.map((r) => r.n));
    for (const entry of DATA_MAP) {
      expect(tables.has(entry.table), entry.table).toBe(true);
      if ('keep' in entry.erase) expect(entry.erase.keep.length, entry.table).toBeGreaterThan(10);
    }
  });
});
