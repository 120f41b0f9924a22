/**
 * The database layer under HTTP: a statement that fails in PostgreSQL (a constraint, a bad cast)
 * must not break the requests that follow. Found on the embedded database: pglite-socket answers
 * an errored extended-protocol message with an extra ReadyForQuery (electric-sql/pglite#958), after
 * which node-postgres drops the connection and the NEXT query on the pool fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { get, startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.deps.db.transaction(async (tx) => {
    const user = await createUser(tx, { email: 'db-check@muster.test', name: 'Db Check' });
    return (await issueMobileToken(tx, user.id)).secret;
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('after a failed SQL statement', () => {
  it.each([
    ['a division by zero', 'SELECT 1/0', []],
    ['a bad parameter cast', 'SELECT $1::int', ['zz']],
    ['an out-of-range timestamp', 'SELECT $1::timestamptz', ['2026-02-30T00:00:00Z']],
    [
      'a unique violation',
      'INSERT INTO users (email, name) VALUES ($1, $2)',
      ['db-check@muster.test', 'Dup'],
    ],
  ] as const)('%s, the next request still succeeds', async (_name, text, params) => {
    await expect(t.deps.database.pool.query(text, [...params])).rejects.toThrow();
    const res = await get(t.app, '/api/v1/me', token);
    expect(res.statusCode, res.body).toBe(200);
    const again = await get(t.app, '/api/v1/me', token);
    expect(again.statusCode, again.body).toBe(200);
  });

  it('a rolled-back transaction leaves the connection usable', async () => {
    await expect(
      t.deps.db.transaction(async (tx) => {
        await createUser(tx, { email: 'rolled-back@muster.test', name: 'Rolled Back' });
        await tx.execute('SELECT 1/0' as never);
      }),
    ).rejects.toThrow();
    const res = await get(t.app, '/api/v1/me', token);
    expect(res.statusCode, res.body).toBe(200);
  });
});
