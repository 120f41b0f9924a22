/**
 * The staff home, event overview and participants table over HTTP (app.inject, real database),
 * signed in through the session cookie as each role of the world (test/support/world.ts):
 * counts, what each role sees and never receives, search, filters, sort, paging, the htmx
 * fragment and the read_only "no access" page. docs/staff-dashboard.md.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type UserName, type World } from '../support/world.js';
import { getPage, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let tableA: string;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  tableA = `/staff/events/${world.events.A.id}/participants`;
  // 60 more registrations in event B, for paging (50 a page).
  await t.deps.db.transaction(async (tx) => {
    for (let i = 0; i < 60; i++) {
      const n = String(i).padStart(2, '0');
      await addRegistration(tx, {
        eventId: world.events.B.id,
        email: `pager${n}@example.com`,
        firstName: 'Pat',
        lastName: `Pager${n}`,
        preferredName: null,
        dateOfBirth: null,
        status: 'in_progress',
      });
    }
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function open(user: UserName, url: string, headers: Record<string, string> = {}) {
  const b = await signedInBrowser(t.deps, world.users[user].id);
  if (Object.keys(headers).length === 0) return getPage(app, b, url);
  const cookie = Object.entries(b.cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  return app.inject({ method: 'GET', url, headers: { accept: 'text/html', cookie, ...headers } });
}

/** Display names in the participants table, in order. */
function names(html: string): string[] {
  return [...html.matchAll(/<td><a href="\/staff\/events\/\d+\/participants\/\d+">([^<]+)<\/a>/g)].map(
    (m) => m[1]!,
  );
}

// What PII and sensitive values of event A's participants look like in the HTML.
const PHONE = '+44 7700 900999';
const DOBS = ['1990-04-01', '2012-05-05'];
const ADDRESS = 'High Street';
const MEDICAL = ['Peanuts', 'Asthma', 'vegetarian'];

describe('home and staff home', () => {
  it('the home page links staff to /staff; a participant keeps the plain home', async () => {
    expect((await open('eventAdmin', '/')).body).toContain('href="/staff"');
    const participant = await open('participant', '/');
    expect(participant.body).not.toContain('href="/staff"');
    expect(participant.body).toContain('Your registrations');
  });

  it('lists every event for a global admin with counts by status and check-in progress', async () => {
    const res = await open('admin', '/staff');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    for (const name of ['Summit Alpha', 'Summit Beta', 'Foreign Gamma']) expect(res.body).toContain(name);
    const alpha = res.body.slice(res.body.indexOf('Summit Alpha'), res.body.indexOf('Foreign Gamma'));
    expect(alpha).toContain('<dt>Complete</dt><dd>1</dd>');
    expect(alpha).toContain('<dt>Awaiting guardian</dt><dd>1</dd>');
    expect(alpha).toContain('<dt>Withdrawn</dt><dd>1</dd>');
    expect(alpha).toContain('Checked in: <strong>1</strong> of 1');
  });

  it('shows only the events a role reaches, with the role; a participant has none', async () => {
    const limited = await open('limited', '/staff');
    expect(limited.body).toContain('Summit Alpha');
    expect(limited.body).not.toContain('Summit Beta');
    expect(limited.body).toContain('Your role: limited');
    const owner = await open('seriesOwner', '/staff');
    expect(owner.body).toContain('Summit Beta');
    expect(owner.body).toContain('Your role: series member (series owner)');
    expect(owner.body).not.toContain('Foreign Gamma');
    expect((await open('participant', '/staff')).body).toContain('You have no staff role');
  });
});

describe('event overview', () => {
  it('shows the funnel, guardians, consents, check-in per context and recent activity to an event admin', async () => {
    const res = await open('eventAdmin', `/staff/events/${world.events.A.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.body;
    expect(body).toContain(`<a href="${tableA}?status=complete">1</a>`);
    expect(body).toContain('Minors awaiting a guardian');
    expect(body).toContain('(guardians not yet done: 2)');
    expect(body).toContain('Consents outstanding (Code of conduct): <strong><a href="');
    expect(body).toContain('Consents outstanding (Participation waiver): <strong><a href="');
    expect(body).toContain('<tr><th scope="row">Airport pickup</th><td>1 of 1</td>');
    expect(body).toContain('<tr><th scope="row">Lunch</th><td>1 of 1</td>');
    expect(body).toContain('Travel today');
    expect(body).toContain('Recent activity');
  });

  it("lists the event's latest audit entries, without their content", async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/events/${world.events.A.id}/participants/${world.regs.adultA.id}/notes`,
      headers: { authorization: `Bearer ${world.users.ops.mobile}`, 'content-type': 'application/json' },
      payload: { content: 'Confidential note text', sensitivity: 'restricted' },
    });
    expect(res.statusCode).toBe(201);
    const body = (await open('eventAdmin', `/staff/events/${world.events.A.id}`)).body;
    const activity = body.slice(body.indexOf('Recent activity'));
    expect(activity).toContain('notes.create');
    expect(activity).toContain('by Olga Ops');
    expect(body).not.toContain('Confidential note text');
  });

  it('ops sees no audit entries; read_only sees counts without links to participants', async () => {
    const ops = await open('ops', `/staff/events/${world.events.A.id}`);
    expect(ops.statusCode).toBe(200);
    expect(ops.body).not.toContain('Recent activity');
    const ro = await open('readOnly', `/staff/events/${world.events.A.id}`);
    expect(ro.statusCode).toBe(200);
    expect(ro.body).toContain('Minors awaiting a guardian');
    expect(ro.body).not.toContain('/participants');
    // Event B has travel off: no travel section.
    expect((await open('admin', `/staff/events/${world.events.B.id}`)).body).not.toContain('Travel today');
  });
});

describe('participants table', () => {
  it('gives global admins and safeguarding leads every column and the health filter', async () => {
    for (const user of ['admin', 'safeguarding'] as const) {
      const res = await open(user, tableA);
      expect(res.statusCode, user).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(names(res.body)).toEqual(['Ali', 'Max Minor', 'Rex Rejected', 'Wanda Withdrawn']);
      for (const text of [PHONE, ...DOBS, ...MEDICAL, 'name="flags"']) expect(res.body, user).toContain(text);
      expect(res.body).not.toContain(ADDRESS);
    }
  });

  it('gives ops, event admins and series roles PII but no medical detail and no health filter', async () => {
    for (const user of ['ops', 'eventAdmin', 'seriesOrganizer'] as const) {
      const res = await open(user, tableA);
      expect(res.statusCode, user).toBe(200);
      expect(res.body, user).toContain(PHONE);
      for (const text of [...MEDICAL, 'name="flags"', 'Diet and medical'])
        expect(res.body, user).not.toContain(text);
      // The summary flags are for every staff role (docs/decisions.md "Credentials and roles": non-sensitive).
      expect(res.body).toContain('Anaphylaxis risk');
    }
  });

  it('never sends limited a phone number, date of birth, address or medical detail', async () => {
    for (const url of [tableA, `${tableA}?flags=medical`, `${tableA}?minor=yes`, `${tableA}?q=ali`]) {
      const res = await open('limited', url);
      expect(res.statusCode, url).toBe(200);
      for (const text of [PHONE, ...DOBS, ADDRESS, ...MEDICAL, 'Date of birth', 'name="flags"'])
        expect(res.body, `${url}: ${text}`).not.toContain(text);
    }
    // The flags filter is not applied for a caller who may not see it.
    expect(names((await open('limited', `${tableA}?flags=medical`)).body)).toHaveLength(4);
    expect(names((await open('limited', `${tableA}?minor=yes`)).body)).toEqual(['Max Minor']);
  });

  it('read_only gets the "no access to participants" page', async () => {
    const res = await open('readOnly', tableA);
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<h1>No access to participants</h1>');
    expect(res.body).not.toContain('Alice');
  });

  it('searches with the API search rules and filters', async () => {
    const cases: [string, string[]][] = [
      ['q=ali', ['Ali']],
      ['q=ANDERSON', ['Ali']],
      ['q=max%20minor', ['Max Minor']],
      [`q=${world.regs.minorA.id}`, ['Max Minor']],
      ['q=%25', []],
      ['status=complete', ['Ali']],
      ['minor=yes', ['Max Minor']],
      ['minor=no&status=withdrawn', ['Wanda Withdrawn']],
      ['checked_in=yes', ['Ali']],
      ['checked_in=no', ['Max Minor', 'Rex Rejected', 'Wanda Withdrawn']],
      ['travel=inbound', ['Ali']],
      ['travel=outbound', ['Ali']],
      ['pickup=awaiting', []],
      ['flags=medical', ['Ali', 'Max Minor']],
      ['flags=dietary', ['Ali', 'Max Minor']],
      ['sort=status', ['Max Minor', 'Ali', 'Wanda Withdrawn', 'Rex Rejected']],
      ['sort=status&dir=desc', ['Rex Rejected', 'Wanda Withdrawn', 'Ali', 'Max Minor']],
      ['sort=name&dir=desc', ['Wanda Withdrawn', 'Rex Rejected', 'Max Minor', 'Ali']],
      // Never checked in: last in both directions, then by id.
      ['sort=checked_in', ['Ali', 'Max Minor', 'Wanda Withdrawn', 'Rex Rejected']],
      ['sort=checked_in&dir=desc', ['Ali', 'Rex Rejected', 'Wanda Withdrawn', 'Max Minor']],
      ['sort=updated&status=complete', ['Ali']],
      ['q=&status=&minor=&sort=&page=', ['Ali', 'Max Minor', 'Rex Rejected', 'Wanda Withdrawn']],
    ];
    for (const [query, expected] of cases) {
      const res = await open('admin', `${tableA}?${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(names(res.body), query).toEqual(expected);
    }
  });

  it('pages 50 at a time with links that keep the query', async () => {
    const base = `/staff/events/${world.events.B.id}/participants`;
    const first = await open('admin', `${base}?status=in_progress`);
    expect(names(first.body)).toHaveLength(50);
    expect(first.body).toContain('60 participants, page 1 of 2');
    expect(first.body).toContain(`href="${base}?status=in_progress&amp;sort=name&amp;page=2"`);
    const second = await open('admin', `${base}?status=in_progress&sort=name&page=2`);
    expect(second.body).toContain(`href="${base}?status=in_progress&amp;sort=name"`);
    expect(names(second.body)).toEqual(Array.from({ length: 10 }, (_, i) => `Pat Pager${50 + i}`));
    const beyond = await open('admin', `${base}?page=9`);
    expect(beyond.statusCode).toBe(200);
    expect(beyond.body).toContain('No participants match on this page');
  });

  it('answers an htmx request with the results fragment only', async () => {
    const res = await open('ops', `${tableA}?status=complete`, { 'hx-request': 'true' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.vary).toContain('HX-Request');
    expect(res.body).not.toContain('<html');
    // No filter form (the page keeps its own); the selection form travels with the rows it selects.
    expect(res.body).not.toContain('role="search"');
    expect(res.body).toContain('<form id="selection"');
    expect(names(res.body)).toEqual(['Ali']);
    expect(res.body).toContain('<h2 id="results-heading"');
  });

  it('refuses bad input with an HTML page, never a 500', async () => {
    for (const query of [`q=${'x'.repeat(201)}`, 'status=nope', 'page=-1', 'sort=phone', 'extra=1']) {
      const res = await open('admin', `${tableA}?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    expect((await open('admin', '/staff/events/999999/participants')).statusCode).toBe(404);
  });
});
