/**
 * The staff participants table over a large event (docs/staff-dashboard.md "Participants table"):
 * the count is exact up to 1,000 matches, or up to the end of the page shown when deeper; past it
 * the heading says "More than 1000 participants" and the pager keeps its previous and next links
 * without a last page number. 1,010 registrations are inserted set-based in event B.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { getPage, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  base = `/staff/events/${world.events.B.id}/participants`;
  await t.deps.db.execute(sql`WITH p AS (
      INSERT INTO people (email, legal_first_name, legal_last_name, pronouns, phone)
      SELECT 'bulk' || g || '@example.com', 'Bo', 'Bulk' || lpad(g::text, 4, '0'), 'they/them', '+447700900999'
        FROM generate_series(1, 1010) g RETURNING id)
    INSERT INTO registrations (event_id, person_id, status)
    SELECT ${world.events.B.id}, id, 'in_progress' FROM p`);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function open(url: string) {
  const b = await signedInBrowser(t.deps, world.users.admin.id);
  const res = await getPage(app, b, url);
  expect(res.statusCode, url).toBe(200);
  return res.body;
}

const heading = (html: string) => /<h2 id="results-heading"[^>]*>([^<]*)<\/h2>/.exec(html)?.[1];
const pager = (html: string) => /<nav class="pager"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';

describe('participants table past the count bound', () => {
  it('says "more than" on the first pages, with a next link and no last page', async () => {
    for (const query of [
      '',
      '?status=in_progress',
      '?sort=checked_in&dir=desc',
      '?sort=updated',
      '?page=20',
    ]) {
      const html = await open(`${base}${query}`);
      const page = query === '?page=20' ? 20 : 1;
      expect(heading(html), query).toBe(`More than 1000 participants, page ${page}`);
      expect(pager(html), query).toContain(`<span>Page ${page}</span>`);
      expect(pager(html), query).toContain('rel="next"');
      expect(html.match(/<tr>/g)?.length, query).toBe(51);
    }
  });

  it('counts exactly when the page shown lies past the bound, and when few match', async () => {
    const last = await open(`${base}?page=21`);
    const [, total] = /^(\d+) participants, page 21 of 21$/.exec(heading(last) ?? '') ?? [];
    expect(Number(total)).toBeGreaterThanOrEqual(1010);
    expect(pager(last)).toContain('rel="prev"');
    expect(pager(last)).not.toContain('rel="next"');
    expect(heading(await open(`${base}?q=bulk0001`))).toBe('1 participant');
    expect(heading(await open(`${base}?q=bulk01`))).toMatch(/^\d+ participants, page 1 of \d+$/);
  });
});
