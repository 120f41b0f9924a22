/**
 * Token checksum (quality.md "Property tests"; docs/decisions.md "Credentials and roles" "A token with a bad checksum is rejected
 * without a DB query"): every one-character mutation of an `mst_g_`/`mst_s_`/`mst_e_` secret —
 * substitution, deletion, insertion — is refused by classifySecret, and over HTTP a mutated key gets
 * 401 without the database being touched.
 *
 * Counting queries: every database access goes through the node-postgres pool of `deps.database`
 * (drizzle calls `pool.query` for single statements and `pool.connect` for transactions), so the
 * test wraps both methods on that pool instance and counts calls made while the request runs. A
 * control request with a well-formed, correctly checksummed but unknown key proves the counter sees
 * the lookup query.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifySecret, generateApiSecret } from '../../src/lib/secrets.js';
import { get, startTestApp, type TestApp } from '../support/app.js';

const KINDS = ['global', 'series_key', 'event_key'] as const;
const KIND_OF = { global: 'global', series_key: 'series_key', event_key: 'event_key' } as const;
/** Characters a mutation may use: the secret alphabet plus separators and look-alikes. */
const CHARS = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-.+/= éØ'];

type Mutation =
  | { op: 'substitute'; at: number; char: string }
  | { op: 'delete'; at: number }
  | { op: 'insert'; at: number; char: string };

function mutate(secret: string, m: Mutation): string {
  const at = m.at % (m.op === 'insert' ? secret.length + 1 : secret.length);
  switch (m.op) {
    case 'substitute':
      return secret.slice(0, at) + m.char + secret.slice(at + 1);
    case 'delete':
      return secret.slice(0, at) + secret.slice(at + 1);
    case 'insert':
      return secret.slice(0, at) + m.char + secret.slice(at);
  }
}

const secretArb = fc.constantFrom(...KINDS).map((kind) => ({ kind, secret: generateApiSecret(kind) }));
const charArb = fc.constantFrom(...CHARS);
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('substitute' as const), at: fc.nat(), char: charArb }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), char: charArb }),
);

describe('classifySecret', () => {
  it('accepts a freshly generated secret of each kind', () => {
    for (const kind of KINDS) {
      const secret = generateApiSecret(kind);
      expect(secret.startsWith({ global: 'mst_g_', series_key: 'mst_s_', event_key: 'mst_e_' }[kind])).toBe(
        true,
      );
      expect(classifySecret(secret)?.kind).toBe(KIND_OF[kind]);
    }
  });

  it('rejects every one-character mutation (substitution, deletion, insertion)', () => {
    fc.assert(
      fc.property(secretArb, mutationArb, ({ secret }, m) => {
        const mutated = mutate(secret, m);
        fc.pre(mutated !== secret);
        expect(classifySecret(mutated), `${m.op} → ${mutated}`).toBeNull();
      }),
      { numRuns: 5000 },
    );
  });

  it('rejects every single deletion of a given secret, exhaustively', () => {
    for (const kind of KINDS) {
      const secret = generateApiSecret(kind);
      const accepted = [];
      for (let at = 0; at < secret.length; at++) {
        const mutated = mutate(secret, { op: 'delete', at });
        const c = classifySecret(mutated);
        if (c !== null) accepted.push(`${mutated} as ${c.kind}`);
      }
      expect(accepted, `${kind}: deletions accepted by classifySecret`).toEqual([]);
    }
  });
});

describe('a mutated key over HTTP', () => {
  let t: TestApp;
  let queries = 0;

  beforeAll(async () => {
    t = await startTestApp();
    const pool = t.deps.database.pool;
    const query = pool.query.bind(pool);
    const connect = pool.connect.bind(pool);
    // Counting wrappers (see the file comment); arguments pass through untouched.
    pool.query = ((...args: Parameters<typeof query>) => {
      queries++;
      return (query as (...a: unknown[]) => unknown)(...args);
    }) as typeof pool.query;
    pool.connect = ((...args: Parameters<typeof connect>) => {
      queries++;
      return (connect as (...a: unknown[]) => unknown)(...args);
    }) as typeof pool.connect;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  async function queriesFor(secret: string) {
    queries = 0;
    const res = await get(t.app, '/api/v1/me', secret);
    return { status: res.statusCode, body: res.json() as unknown, queries };
  }

  it('control: a well-formed unknown key is looked up (the counter sees queries) and refused', async () => {
    const r = await queriesFor(generateApiSecret('event_key'));
    expect(r.status).toBe(401);
    expect(r.queries).toBeGreaterThan(0);
  });

  it('gets 401 {"error":"Unauthorized"} with zero database queries', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, mutationArb, async ({ secret }, m) => {
        const mutated = mutate(secret, m);
        // Whitespace added at either end is no mutation over HTTP: `Bearer` and its credential are
        // separated by one or more spaces (RFC 9110 §11.4) and a header value's edges are trimmed, so
        // ` mst_…` is the same, well-formed credential and is rightly looked up.
        fc.pre(mutated.trim() !== secret);
        const r = await queriesFor(mutated);
        expect(r.status, mutated).toBe(401);
        expect(r.body).toEqual({ error: 'Unauthorized' });
        expect(r.queries, `${m.op} → ${mutated} reached the database`).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
