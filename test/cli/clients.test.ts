/**
 * `muster clients create|list|revoke` as operators run it (a subprocess on a fresh database): a
 * native app's custom-scheme redirect URI is registered, listed and revoked. Validation and the
 * errors (unsafe URIs, an unknown client): test/signin/clients.test.ts, in process, because each
 * subprocess here costs a start-up.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, runJson, type TestDatabase } from './harness.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase({ migrate: true });
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

describe('muster clients', { timeout: 300_000 }, () => {
  it('creates a client with a custom-scheme redirect URI, lists it, and revokes it', async () => {
    const created = await runJson(db, [
      'clients',
      'create',
      '--client-id',
      'attend-app',
      '--name',
      'Attend',
      '--redirect-uri',
      'attend://oauth/callback',
      '--redirect-uri',
      'http://127.0.0.1/callback',
    ]);
    expect(created.client).toMatchObject({
      client_id: 'attend-app',
      name: 'Attend',
      redirect_uris: ['attend://oauth/callback', 'http://127.0.0.1/callback'],
    });

    const listed = await runJson(db, ['clients', 'list']);
    const ids = (listed.clients as { client_id: string }[]).map((c) => c.client_id);
    expect(ids).toContain('attend-app');

    const revoked = await runJson(db, ['clients', 'revoke', 'attend-app']);
    expect(revoked).toMatchObject({ revoked: true, client: { client_id: 'attend-app' } });
    const rows = await db.query((d) =>
      d.execute(sql`SELECT client_id FROM oauth_clients WHERE client_id = 'attend-app'`),
    );
    expect(rows.rows).toEqual([]);
    const audits = await db.query((d) =>
      d.execute(sql`SELECT action FROM audit_log WHERE target_type = 'oauth_client' ORDER BY id`),
    );
    expect(audits.rows.map((r) => (r as { action: string }).action)).toEqual([
      'oauth_clients.create',
      'oauth_clients.revoke',
    ]);
  });
});
