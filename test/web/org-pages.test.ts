/**
 * The organiser pages over app.inject with a session cookie, per role: the audit trail (filters,
 * cursor paging, a bad date re-rendered, no sensitive values, the global page for admins only),
 * the ban list (add, duplicate, revoke, reinstate), groups (create, bad input, assign and remove),
 * exports (presets offered per visibility, filters in the links, session-cookie downloads that
 * match the API's, a refused preset audits nothing).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/modules/audit/audit.service.js';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type UserName, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let A: number;
const browsers: Partial<Record<UserName, Browser>> = {};

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  A = world.events.A.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function as(user: UserName): Promise<Browser> {
  browsers[user] ??= await signedInBrowser(t.deps, world.users[user].id);
  return browsers[user]!;
}

async function form(user: UserName, pageUrl: string, url: string, fields: Record<string, string | string[]>) {
  const b = await as(user);
  const page = await getPage(app, b, pageUrl);
  return postForm(app, b, url, fields, csrfOf(page.body));
}

const auditCount = async (action: string) =>
  (await t.deps.database.pool.query(`SELECT 1 FROM audit_log WHERE action = $1`, [action])).rowCount;

describe('audit trail pages', () => {
  it('pages newest first with an id cursor, keeps the filters, shows no free text', async () => {
    await t.deps.db.transaction(async (tx) => {
      for (let i = 0; i < 60; i++)
        await recordAudit(tx, {
          action: 'test.entry',
          actorUserId: world.users.eventAdmin.id,
          eventId: A,
          metadata: { row_count: i, reason: 'private words' },
        });
    });
    const b = await as('eventAdmin');
    const first = await getPage(app, b, `/staff/events/${A}/audit?action=test.`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body.match(/<code>test\.entry<\/code>/g)).toHaveLength(50);
    expect(first.body).toContain('Row count: 59');
    expect(first.body).not.toContain('private words');
    const older = /href="([^"]+)">Older entries/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    expect(older).toContain('action=test.');
    const second = await getPage(app, b, older);
    expect(second.body.match(/<code>test\.entry<\/code>/g)).toHaveLength(10);
    expect(second.body).toContain('Row count: 0');
    expect(second.body).not.toContain('Row count: 59');
    expect(second.body).not.toContain('Older entries');
  });

  it('a date that is not one re-renders with a message; the global page is for global admins', async () => {
    const b = await as('eventAdmin');
    const bad = await getPage(app, b, `/staff/events/${A}/audit?since=yesterday`);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Enter the “since” date as a date and time');
    expect((await getPage(app, await as('ops'), `/staff/events/${A}/audit`)).statusCode).toBe(403);
    expect((await getPage(app, b, '/staff/audit')).statusCode).toBe(403);
    const all = await getPage(
      app,
      await as('admin'),
      `/staff/audit?actor=${encodeURIComponent(world.users.eventAdmin.email)}`,
    );
    expect(all.statusCode).toBe(200);
    expect(all.body).toContain('Audit trail: everything');
    expect(all.body).toContain('test.entry');
  });
});

describe('bans page', () => {
  it('adds, refuses a duplicate, revokes and reinstates', async () => {
    const add = await form('admin', '/staff/bans', '/staff/bans', {
      emails: 'Troll@Example.org\ntroll2@example.org',
      reason: 'Harassment at the summit',
      last_day: '',
    });
    expect(add.statusCode, add.body).toBe(303);
    const list = await getPage(app, await as('admin'), String(add.headers.location));
    expect(list.body).toContain('The ban was added.');
    expect(list.body).toContain('troll@example.org, troll2@example.org');
    expect(list.body).toContain('No end date');
    const dup = await form('admin', '/staff/bans', '/staff/bans', { emails: 'troll2@example.org' });
    expect(dup.statusCode).toBe(409);
    expect(dup.body).toContain('Already banned: troll2@example.org');
    const audit = await getPage(app, await as('admin'), '/staff/audit?action=bans.');
    expect(audit.body).not.toContain('Harassment');

    const id = /action="\/staff\/bans\/([0-9a-f-]+)\/revoke"/.exec(list.body)![1]!;
    const revoke = await form('admin', '/staff/bans', `/staff/bans/${id}/revoke`, {});
    expect(revoke.statusCode).toBe(303);
    const after = await getPage(app, await as('admin'), '/staff/bans?active=false');
    expect(after.body).toContain('troll@example.org');
    expect(after.body).toContain(`/staff/bans/${id}/reinstate`);
    const again = await form('admin', '/staff/bans', `/staff/bans/${id}/revoke`, {});
    expect(again.statusCode).toBe(409);
    expect((await form('admin', '/staff/bans', `/staff/bans/${id}/reinstate`, {})).statusCode).toBe(303);
  });

  it('refuses an event admin (403 page) and changes nothing', async () => {
    const before = await snapshotDb(t.deps);
    const b = await as('eventAdmin');
    expect((await getPage(app, b, '/staff/bans')).statusCode).toBe(403);
    const own = await getPage(app, b, `/staff/events/${A}/groups`);
    const post = await postForm(app, b, '/staff/bans', { emails: 'x@example.org' }, csrfOf(own.body));
    expect(post.statusCode).toBe(403);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});

describe('groups page', () => {
  const page = () => `/staff/events/${A}/groups`;
  it('creates a group, refuses a blank or duplicate name, assigns and removes participants', async () => {
    const created = await form('eventAdmin', page(), page(), { name: 'Red bus', color: '#ec3750' });
    expect(created.statusCode, created.body).toBe(303);
    const blank = await form('eventAdmin', page(), page(), { name: ' ', color: '#ec3750' });
    expect(blank.statusCode).toBe(422);
    expect(blank.body).toContain('Group name cannot be blank');
    const dup = await form('eventAdmin', page(), page(), { name: 'red BUS', color: '#000000' });
    expect(dup.statusCode).toBe(409);

    const list = await getPage(app, await as('eventAdmin'), page());
    expect(list.body).toContain('fill="#EC3750"');
    const groupId = /<option value="(\d+)">Red bus<\/option>/.exec(list.body)![1]!;
    const regs = [String(world.regs.adultA.id), String(world.regs.minorA.id)];
    const add = await form('eventAdmin', page(), `${page()}/assign`, {
      group_id: groupId,
      registration_ids: regs,
      intent: 'add',
    });
    expect(add.statusCode, add.body).toBe(303);
    const res = await t.deps.database.pool.query(
      `SELECT registration_id FROM registration_groups WHERE group_id = $1 ORDER BY 1`,
      [groupId],
    );
    expect(res.rows.map((r) => r.registration_id)).toEqual(regs.map(Number).sort((a, b) => a - b));
    const remove = await form('eventAdmin', page(), `${page()}/assign`, {
      group_id: groupId,
      registration_ids: regs[0]!,
      intent: 'remove',
    });
    expect(remove.statusCode).toBe(303);
    const shown = await getPage(app, await as('eventAdmin'), `${page()}?q=minor`);
    expect(shown.body).toContain('Max Minor');
    expect(shown.body).not.toContain('Alice');
    const none = await form('eventAdmin', page(), `${page()}/assign`, { group_id: groupId, intent: 'add' });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('Tick at least one participant');
  });
});

describe('exports page', () => {
  const url = () => `/staff/events/${A}/exports`;
  it('offers only the presets the caller may see, with the filters in the links', async () => {
    const limited = await getPage(
      app,
      await as('limited'),
      `${url()}?status=complete&status=in_progress&minor=true`,
    );
    expect(limited.statusCode).toBe(200);
    expect(limited.body).not.toContain('/exports/medical.csv');
    expect(limited.body).not.toContain('/exports/emergency_contacts.csv');
    expect(limited.body).toContain(
      `/staff/events/${A}/exports/roster.csv?status=complete%2Cin_progress&amp;minor=true`,
    );
    const safeguarding = await getPage(app, await as('safeguarding'), url());
    expect(safeguarding.body).toContain('/exports/medical.xlsx');
    expect((await getPage(app, await as('readOnly'), url())).statusCode).toBe(403);
  });

  it('downloads with the session cookie the same file as the API, audited', async () => {
    const b = await as('limited');
    const csv = await getPage(app, b, `${url()}/full.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="${world.events.A.slug}-full.csv"`);
    expect(csv.headers['cache-control']).toBe('no-store');
    expect(csv.body.charCodeAt(0)).toBe(0xfeff);
    const header = csv.body.slice(1).split('\r\n')[0]!.split(',');
    expect(header).toContain('Email');
    expect(header).not.toContain('Phone');
    expect(header).not.toContain('Allergies');
    const api = await app.inject({
      method: 'GET',
      url: `/api/v1/events/${A}/exports/full.csv`,
      headers: { authorization: `Bearer ${world.secrets.limited}` },
    });
    expect(api.body).toBe(csv.body);
    expect(await auditCount('exports.create')).toBe(2);
    const xlsx = await getPage(app, b, `${url()}/roster.xlsx?checked_in=true`);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
  });

  it('ops asking for the medical file gets a 403 page and nothing is audited', async () => {
    const before = await auditCount('exports.create');
    const res = await getPage(app, await as('ops'), `${url()}/medical.csv`);
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('This export needs access to medical and safeguarding data');
    expect(await auditCount('exports.create')).toBe(before);
    expect((await getPage(app, await as('ops'), `${url()}/nope.csv`)).statusCode).toBe(404);
  });
});
