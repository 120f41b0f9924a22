/**
 * Organiser fluency on the participants table, the overview and the Team page over HTTP
 * (app.inject, real database, session cookies of the world's roles; docs/staff-dashboard.md):
 * - sortable column headers (a link per sortable column, toggling the direction, `aria-sort`);
 * - the overview's "Consents outstanding" counts link to the table filtered to those people;
 * - "API keys" in the event navigation for those who may manage the series' keys, and only them;
 * - the Team page says what each role sees and may do, in words computed from the policy;
 * - ticked rows: add to a group, send the invitation again (only to those not started), export the
 *   selection (the Exports page and its files hold only those people); nothing ticked → 422, no change.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type UserName, type World } from '../support/world.js';
import { csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let tableA: string;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  tableA = `/staff/events/${world.events.A.id}/participants`;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function open(user: UserName, url: string) {
  return getPage(app, await signedInBrowser(t.deps, world.users[user].id), url);
}

const names = (html: string) =>
  [...html.matchAll(/<td><a href="\/staff\/events\/\d+\/participants\/\d+">([^<]+)<\/a>/g)].map((m) => m[1]);

/** The header cell of `column` (its text up to the hidden hint). */
function header(html: string, column: string): string {
  const cell = [...html.matchAll(/<th scope="col"[^>]*>.*?<\/th>/g)].find((m) =>
    m[0].includes(`>${column}<`),
  );
  if (!cell) throw new Error(`no header ${column}`);
  return cell[0];
}

describe('sortable column headers', () => {
  it('links each sortable header to the sort, toggling the direction of the current one', async () => {
    const plain = await open('eventAdmin', `${tableA}?status=complete`);
    const name = header(plain.body, 'Name');
    expect(name).toContain('aria-sort="ascending"');
    expect(name).toContain(`href="${tableA}?status=complete&amp;sort=name&amp;dir=desc"`);
    expect(header(plain.body, 'Status')).toContain(`href="${tableA}?status=complete&amp;sort=status"`);
    expect(header(plain.body, 'Status')).not.toContain('aria-sort');
    expect(header(plain.body, 'Checked in')).toContain(
      `href="${tableA}?status=complete&amp;sort=checked_in"`,
    );
    expect(header(plain.body, 'Email')).not.toContain('href');

    const desc = await open('eventAdmin', `${tableA}?sort=status&dir=desc`);
    expect(header(desc.body, 'Status')).toContain('aria-sort="descending"');
    expect(header(desc.body, 'Status')).toContain(`href="${tableA}?sort=status"`);
    // Following the header link sorts the table.
    expect(names(desc.body)).toEqual(['Rex Rejected', 'Wanda Withdrawn', 'Ali', 'Max Minor']);
  });
});

describe('consent counts link to the table', () => {
  it('links each outstanding consent count to the people it counts', async () => {
    const overview = await open('eventAdmin', `/staff/events/${world.events.A.id}`);
    expect(overview.body).toContain(
      `Consents outstanding (Code of conduct): <strong><a href="${tableA}?consent=code_of_conduct">1</a>`,
    );
    expect(overview.body).toContain(
      `Consents outstanding (Participation waiver): <strong><a href="${tableA}?consent=waiver">1</a>`,
    );
    expect(overview.body).not.toContain('code_of_conduct)');
    expect(names((await open('eventAdmin', `${tableA}?consent=code_of_conduct`)).body)).toEqual(['Ali']);
    expect(names((await open('eventAdmin', `${tableA}?consent=waiver`)).body)).toEqual(['Max Minor']);
    expect(names((await open('eventAdmin', `${tableA}?consent=freedom_waiver`)).body)).toEqual([]);
  });

  it('does not link the counts for a role that may not open the table', async () => {
    const overview = await open('readOnly', `/staff/events/${world.events.A.id}`);
    expect(overview.statusCode).toBe(200);
    expect(overview.body).toContain('Consents outstanding (Participation waiver): <strong>1</strong>');
  });

  it('refuses a malformed consent type with a plain 422 page', async () => {
    const res = await open('eventAdmin', `${tableA}?consent=DROP%20TABLE`);
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toContain('Ali');
  });
});

describe('API keys in the event navigation', () => {
  const keysLink = () => `href="/staff/series/${world.events.A.seriesId}/api-keys"`;
  it.each<[UserName, boolean]>([
    ['seriesOwner', true],
    ['admin', true],
    ['seriesOrganizer', false],
    ['eventAdmin', false],
    ['ops', false],
  ])('%s: shown %s', async (user, shown) => {
    const res = await open(user, `/staff/events/${world.events.A.id}`);
    expect(res.statusCode).toBe(200);
    if (shown) expect(res.body).toContain(keysLink());
    else expect(res.body).not.toContain(keysLink());
  });
});

describe('role descriptions on the Team page', () => {
  async function described(url: string, user: UserName, role: string): Promise<string> {
    const res = await open(user, url);
    expect(res.statusCode).toBe(200);
    const start = res.body.indexOf(`<summary>${role}</summary>`);
    expect(start, role).toBeGreaterThan(0);
    return res.body.slice(start, res.body.indexOf('</details>', start));
  }

  it('says what each event role sees and may do', async () => {
    const team = `/staff/events/${world.events.A.id}/team`;
    const admin = await described(team, 'eventAdmin', 'Event admin');
    expect(admin).toContain('Sees names and contact details, not medical');
    expect(admin).toContain('give and remove roles on the event');
    expect(admin).toContain('let someone in whom the door refuses');
    expect(admin).not.toContain('set rooming rules');

    const lead = await described(team, 'eventAdmin', 'Safeguarding lead');
    expect(lead).toContain('medical, dietary and safeguarding details included');
    expect(lead).toContain('set rooming rules and assign rooms');
    expect(lead).not.toContain('give and remove roles');

    const ops = await described(team, 'eventAdmin', 'Operations');
    expect(ops).toContain('check people in and out at the door');
    expect(ops).not.toContain('let someone in whom the door refuses');
    expect(ops).not.toContain('send announcements');

    const limited = await described(team, 'eventAdmin', 'Limited');
    expect(limited).toContain('not phone numbers, dates of birth');
    expect(limited).toContain('list and search participants');

    const readOnly = await described(team, 'eventAdmin', 'Read only');
    expect(readOnly).toContain('no participant’s record');
    expect(readOnly).toContain('see the event’s overview');
    expect(readOnly).not.toContain('list and search participants');
    expect(readOnly).not.toContain('check people in');
  });

  it('says what each series role may do', async () => {
    const team = `/staff/series/${world.series.S1.slug}/team`;
    const owner = await described(team, 'seriesOwner', 'Series owner');
    expect(owner).toContain('create and revoke API keys');
    expect(owner).toContain('give and remove series roles');
    const organizer = await described(team, 'seriesOwner', 'Series organizer');
    expect(organizer).not.toContain('create and revoke API keys');
    expect(organizer).toContain('give and remove roles on the event');
  });

  it('names roles in words in the role choice and the list', async () => {
    const res = await open('eventAdmin', `/staff/events/${world.events.A.id}/team`);
    expect(res.body).toContain('<option value="safeguarding_lead">Safeguarding lead</option>');
    expect(res.body).not.toMatch(/>(event admin|safeguarding lead|read only)</);
  });
});

describe('ticked rows', () => {
  async function admin() {
    const b = await signedInBrowser(t.deps, world.users.eventAdmin.id);
    const page = await getPage(app, b, tableA);
    return { b, page, csrf: csrfOf(page.body) };
  }

  it('offers checkboxes and the actions the caller may take', async () => {
    const { page } = await admin();
    expect(page.body).toContain(`form="selection" aria-label="Tick Ali"`);
    expect(page.body).toContain('Send the invitation again');
    expect(page.body).toContain('Export the selection');
    const limited = await open('limited', tableA);
    expect(limited.body).toContain('Export the selection');
    expect(limited.body).not.toContain('Add to group');
  });

  it('exports only the ticked participants', async () => {
    const { b, csrf } = await admin();
    const { adultA, minorA } = world.regs;
    const res = await postForm(
      app,
      b,
      `${tableA}/selection/export`,
      { registration_ids: [String(adultA.id), String(minorA.id)] },
      csrf,
    );
    expect(res.statusCode).toBe(303);
    const exportsPage = `/staff/events/${world.events.A.id}/exports?ids=${adultA.id},${minorA.id}`;
    expect(res.headers.location).toBe(exportsPage);
    const page = await getPage(app, b, exportsPage);
    expect(page.body).toContain('Only the 2 participants you selected');
    expect(page.body).toContain(`roster.csv?ids=${adultA.id}%2C${minorA.id}`);
    const file = await getPage(
      app,
      b,
      `/staff/events/${world.events.A.id}/exports/roster.csv?ids=${minorA.id}`,
    );
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Minor');
    expect(file.body).not.toContain('Anderson');
    expect(file.body).not.toContain('Withdrawn');
  });

  it('refuses an empty selection or bad ids with a plain 422, changing nothing', async () => {
    const { b, csrf } = await admin();
    const before = await snapshotDb(t.deps);
    for (const url of [`${tableA}/selection/export`, `${tableA}/selection/invitations`]) {
      const res = await postForm(app, b, url, { registration_ids: ['x1'] }, csrf);
      expect(res.statusCode, url).toBe(422);
      expect(res.body).toContain('Tick at least one participant');
    }
    const file = await getPage(app, b, `/staff/events/${world.events.A.id}/exports/roster.csv?ids=1,a`);
    expect(file.statusCode).toBe(422);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('sends the invitation again only to those who have not started', async () => {
    const fresh = await t.deps.db.transaction((tx) =>
      addRegistration(tx, {
        eventId: world.events.A.id,
        email: 'nora.new@example.com',
        firstName: 'Nora',
        lastName: 'New',
        preferredName: null,
        dateOfBirth: null,
        status: 'invited',
      }),
    );
    const { b, csrf } = await admin();
    const res = await postForm(
      app,
      b,
      `${tableA}/selection/invitations`,
      { registration_ids: [String(fresh.id), String(world.regs.adultA.id)] },
      csrf,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('emailed again to 1 participant who had not started');
    expect(res.body).toContain('1 of the ticked participants was left alone');
    const sent = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM invitations WHERE lower(email) = 'nora.new@example.com'`,
    );
    expect(sent.rows[0]?.n).toBe(1);
  });

  it('adds the ticked participants to a group through the Groups page', async () => {
    const group = await t.deps.db.execute<{ id: number }>(
      sql`INSERT INTO groups (event_id, name) VALUES (${world.events.A.id}, 'Bus 1') RETURNING id`,
    );
    const groupId = String(group.rows[0]?.id);
    const { b, page, csrf } = await admin();
    expect((await getPage(app, b, tableA)).body).toContain(`<option value="${groupId}">Bus 1</option>`);
    expect(page.statusCode).toBe(200);
    const { adultA, minorA } = world.regs;
    const res = await postForm(
      app,
      b,
      `/staff/events/${world.events.A.id}/groups/assign`,
      { group_id: groupId, intent: 'add', registration_ids: [String(adultA.id), String(minorA.id)] },
      csrf,
    );
    expect(res.statusCode).toBe(303);
    const members = await t.deps.db.execute<{ registration_id: number }>(
      sql`SELECT registration_id FROM registration_groups WHERE group_id = ${Number(groupId)} ORDER BY registration_id`,
    );
    expect(members.rows.map((r) => Number(r.registration_id))).toEqual(
      [adultA.id, minorA.id].sort((x, y) => x - y),
    );
  });
});
