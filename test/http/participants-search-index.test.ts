/**
 * Participant search through the trigram index (migration 0009_search_trgm) returns exactly what
 * the contract's rules select and rank (docs/decisions.md "Participants API"): for generated terms — fragments of
 * names and emails, digits, LIKE wildcards, case changes, non-ASCII — the endpoint's ids equal those
 * of the plain predicate with no index condition, in the same order. On both databases (the
 * embedded one loads pg_trgm from PGlite's contrib).
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeLike } from '../../src/modules/participants/participants.repo.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let w: World;
let words: string[];

const NAMES: [first: string, last: string, preferred: string | null][] = [
  ['Anna', 'Hannah-Lee', null],
  ['Joanne', 'Mann', 'Jo'],
  ['Ann', 'Annandale', 'Annie'],
  ['Zoë', 'Ærø', null],
  ['Per', 'Cent%', null],
  ['Under', 'Sc_ore', 'U_'],
  ['Back', 'Sla\\sh', null],
  ['Ben', 'Anna', 'Benny'],
];

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  w = await buildWorld(t.deps);
  await t.deps.db.transaction(async (tx) => {
    for (const [i, [first, last, preferred]] of NAMES.entries()) {
      for (let k = 0; k < 3; k++) {
        await addRegistration(tx, {
          eventId: w.events.A.id,
          email: `${first.toLowerCase()}.${k}${i}@Example.ORG`,
          firstName: first,
          lastName: last,
          preferredName: preferred,
          dateOfBirth: null,
          status: 'complete',
        });
      }
    }
  });
  const res = await t.deps.db.execute<{ w: string }>(
    sql`SELECT p.legal_first_name || ' ' || p.legal_last_name || ' ' || COALESCE(p.preferred_name, '') || ' ' || p.email AS w
          FROM people p JOIN registrations r ON r.person_id = p.id WHERE r.event_id = ${w.events.A.id}`,
  );
  words = res.rows.map((r) => r.w);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** The contract's search, transcribed as a plain predicate (no index condition): ids, ranked. */
async function reference(q: string): Promise<number[]> {
  const needle = q.toLowerCase();
  const contains = `%${escapeLike(needle)}%`;
  const prefix = `${escapeLike(needle)}%`;
  const id = /^[0-9]{1,9}$/.test(q) ? Number(q) : null;
  const idMatch = id === null ? sql`false` : sql`(r.id = ${id} OR p.id = ${id})`;
  const full = sql.raw(`lower(p.legal_first_name || ' ' || p.legal_last_name)`);
  const res = await t.deps.db.execute<{ id: number }>(
    sql`SELECT r.id FROM registrations r JOIN people p ON p.id = r.person_id
         WHERE r.event_id = ${w.events.A.id} AND (${idMatch}
            OR lower(p.legal_first_name) LIKE ${contains} OR lower(p.legal_last_name) LIKE ${contains}
            OR lower(p.preferred_name) LIKE ${contains} OR ${full} LIKE ${contains} OR lower(p.email) LIKE ${contains})
         ORDER BY CASE WHEN ${idMatch} THEN 0
                    WHEN lower(p.email) = ${needle} OR ${full} = ${needle} OR lower(p.preferred_name) = ${needle} THEN 1
                    WHEN lower(p.legal_first_name) LIKE ${prefix} OR lower(p.legal_last_name) LIKE ${prefix}
                      OR lower(p.preferred_name) LIKE ${prefix} OR lower(p.email) LIKE ${prefix} THEN 2
                    ELSE 3 END, ${full}, r.id
         LIMIT 20`,
  );
  return res.rows.map((r) => Number(r.id));
}

async function search(q: string): Promise<number[]> {
  const res = await app.inject({
    method: 'GET',
    url: `/api/v1/events/${w.events.A.id}/participants/search?q=${encodeURIComponent(q)}`,
    headers: bearer(w.secrets.admin),
  });
  expect(res.statusCode).toBe(200);
  return (JSON.parse(res.body) as { results: { participant_event_id: number }[] }).results.map(
    (p) => p.participant_event_id,
  );
}

/** A fragment of a stored name/email (any case), a registration or person id, or arbitrary text. */
const term = () =>
  fc.oneof(
    fc
      .tuple(fc.nat(), fc.nat({ max: 30 }), fc.integer({ min: 1, max: 12 }), fc.boolean())
      .map(([i, from, len, upper]) => {
        const word = words[i % words.length]!;
        const frag = word.slice(from % word.length, (from % word.length) + len);
        return upper ? frag.toUpperCase() : frag;
      }),
    fc.integer({ min: 1, max: 400 }).map(String),
    fc.string({
      unit: fc.constantFrom('a', 'n', '%', '_', '\\', ' ', 'ë', 'Æ', '.', '@', '1'),
      maxLength: 6,
    }),
  );

describe('search through the trigram index', () => {
  it('returns the same ids in the same order as the plain predicate', async () => {
    await fc.assert(
      fc.asyncProperty(term(), async (raw) => {
        const q = raw.trim();
        if (q === '' || q.length > 200) return;
        expect(await search(raw)).toEqual(await reference(q));
      }),
      { numRuns: 100 },
    );
  }, 180_000);

  it('finds a fragment shorter than a trigram, a wildcard taken literally and a person id', async () => {
    expect((await search('an')).length).toBeGreaterThan(0);
    expect(await search('an')).toEqual(await reference('an'));
    expect(await search('t%')).toEqual(await reference('t%'));
    const person = await t.deps.db.execute<{ id: number; pid: number }>(
      sql`SELECT r.id, r.person_id AS pid FROM registrations r WHERE r.event_id = ${w.events.A.id} ORDER BY r.id DESC LIMIT 1`,
    );
    const { id, pid } = person.rows[0]!;
    expect(await search(String(pid))).toContain(Number(id));
    expect(await search(String(pid))).toEqual(await reference(String(pid)));
  });

  it('reads substrings only when the exact and prefix matches are fewer than 20 (issue 32: search in stages)', async () => {
    // 22 people whose first name starts with "stagey" (rank 2) and 3 whose last name only contains it
    // (rank 3) with full names that sort first: the 20 answers are prefix matches only; with 19
    // prefix matches ("stageyb": 19 of them) the substring matches fill the last place.
    await t.deps.db.transaction(async (tx) => {
      for (let k = 0; k < 22; k++) {
        await addRegistration(tx, {
          eventId: w.events.A.id,
          email: `stage.${k}@example.org`,
          firstName: k < 19 ? `Stageyb${k}` : `Stagey${k}`,
          lastName: 'Zeta',
          preferredName: null,
          dateOfBirth: null,
          status: 'complete',
        });
      }
      for (let k = 0; k < 3; k++) {
        await addRegistration(tx, {
          eventId: w.events.A.id,
          email: `abs.${k}@example.org`,
          firstName: 'Aaron',
          lastName: `Abstageyb${k}`,
          preferredName: null,
          dateOfBirth: null,
          status: 'complete',
        });
      }
    });
    const filled = await search('stagey');
    expect(filled).toHaveLength(20);
    expect(filled).toEqual(await reference('stagey'));
    const topped = await search('STAGEYB');
    expect(topped).toHaveLength(20);
    expect(topped).toEqual(await reference('stageyb'));
  });
});
