/**
 * "New event" and "Copy an earlier event" (docs/series-events.md "New event and copy",
 * docs/staff-dashboard.md "New event"): series owners, organisers and global admins create a draft
 * from the page, audited `events.create` with them as actor; a copy carries the earlier event's
 * modules, scan contexts with their refuse lists, consent documents, email wording, groups and
 * team, its dates moved by whole days to the new start date; drafts are marked on the staff home
 * and the overview; problems show next to their fields; event roles are refused (403) and leave
 * the database unchanged, even with a valid CSRF token.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type UserName, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let world: World;
const browsers = new Map<UserName, Browser>();

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
  const A = world.events.A.id;
  // Event A's set-up content: a refuse list, a hotel context, wording, a consent document in two
  // versions, a group with a member and a team.
  await t.deps.db.execute(sql`UPDATE scan_contexts SET refuse = '{banned,unpaid}', starts_at = '2026-07-10T07:30:00Z'
                               WHERE id = ${world.contexts.lunchA}`);
  await t.deps.db.execute(sql`UPDATE events SET hotel_scan_context_id = (SELECT uuid FROM scan_contexts WHERE id = ${world.contexts.lunchA}),
                                registration_open_at = '2026-03-01T09:00:00Z', location_country = 'GB' WHERE id = ${A}`);
  await t.deps.db.execute(sql`INSERT INTO email_templates (event_id, template, subject, body)
                               VALUES (${A}, 'invitation', 'Join {{event_name}}', 'Hello {{first_name}}')`);
  await t.deps.db.execute(sql`INSERT INTO event_consent_documents (event_id, consent_type, version, title, body)
                               VALUES (${A}, 'waiver', 1, 'Waiver v1', 'Old text'), (${A}, 'waiver', 2, 'Waiver v2', 'New text')`);
  // A custom document (issue #25 part 7) is copied too, with whether it is required.
  await t.deps.db.execute(sql`INSERT INTO event_consent_documents (event_id, consent_type, version, title, body, required)
                               VALUES (${A}, 'photo_release', 1, 'Photos v1', 'Text', false), (${A}, 'photo_release', 2, 'Photos v2', 'Text 2', true)`);
  await t.deps.db.execute(
    sql`INSERT INTO groups (event_id, name, color) VALUES (${A}, 'Red team', '#CC0000')`,
  );
  await t.deps.db.execute(sql`INSERT INTO registration_groups (registration_id, group_id)
                               SELECT ${world.regs.adultA.id}, id FROM groups WHERE event_id = ${A}`);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function as(user: UserName): Promise<Browser> {
  let b = browsers.get(user);
  if (!b) {
    b = await signedInBrowser(t.deps, world.users[user].id);
    browsers.set(user, b);
  }
  return b;
}

const newUrl = () => `/staff/series/${world.series.S1.slug}/events/new`;
const copyUrl = () => `/staff/series/${world.series.S1.slug}/events/copy`;
const q = async <T>(query: ReturnType<typeof sql>) =>
  (await t.deps.db.execute<T & Record<string, unknown>>(query)).rows;

describe('new event page', () => {
  it('a series owner creates a blank draft: audited, marked Draft on the home page and overview', async () => {
    const owner = await as('seriesOwner');
    const page = await getPage(t.app, owner, newUrl());
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toMatch(/^no-store/);
    expect(page.body).toContain(`<option value="${world.events.A.uuid}">Summit Alpha (2026-07-10)</option>`);
    const res = await postForm(
      t.app,
      owner,
      newUrl(),
      {
        name: 'Summit Winter',
        support_email: 'Winter@Muster.Example',
        timezone: 'Europe/London',
        starts_on: '2027-01-15',
        ends_on: '2027-01-17',
        location_country: 'GB',
      },
      csrfOf(page.body),
    );
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    const [row] = await q<{
      id: number;
      slug: string;
      setup_complete: boolean;
      support_email: string;
      starts_at: string;
      ends_at: string;
    }>(
      sql`SELECT id, slug, setup_complete, support_email, to_char(starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS starts_at,
                 to_char(ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS ends_at FROM events WHERE name = 'Summit Winter'`,
    );
    expect(row).toMatchObject({
      slug: 'summit-winter',
      setup_complete: false,
      support_email: 'winter@muster.example',
      starts_at: '2027-01-15 00:00',
      ends_at: '2027-01-17 23:59',
    });
    expect(res.headers.location).toBe(`/staff/events/${row!.id}?done=event_created`);
    const [audit] = await q<{ actor_user_id: number; metadata: Record<string, unknown> }>(
      sql`SELECT actor_user_id, metadata FROM audit_log WHERE action = 'events.create' AND target_id = ${String(row!.id)}`,
    );
    expect(audit).toMatchObject({
      actor_user_id: world.users.seriesOwner.id,
      metadata: { slug: 'summit-winter' },
    });
    const overview = await getPage(t.app, owner, String(res.headers.location));
    expect(overview.body).toContain('Summit Winter <span class="tag todo">Draft</span></h1>');
    expect(overview.body).toContain('The event was created as a draft.');
    const home = await getPage(t.app, owner, '/staff');
    expect(home.body).toContain(
      `<a href="/staff/events/${row!.id}">Summit Winter</a> <span class="tag todo">Draft</span>`,
    );
    expect(home.body).not.toContain('Summit Alpha</a> <span class="tag todo">Draft</span>');
    expect(home.body).toContain(`<a href="/staff/series/${world.series.S1.slug}/events/new">New event</a>`);
  });

  it('problems show next to their fields in plain words, and nothing is written', async () => {
    const organizer = await as('seriesOrganizer');
    const page = await getPage(t.app, organizer, newUrl());
    const before = await snapshotDb(t.deps);
    const res = await postForm(
      t.app,
      organizer,
      newUrl(),
      {
        name: ' ',
        support_email: 'x@elsewhere.org',
        timezone: 'London',
        starts_on: '2027-02-30',
        ends_on: '',
        location_country: '',
      },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(
      '<p class="field-error" id="new-name-error">Error: Enter the event’s name</p>',
    );
    expect(res.body).toContain(
      'id="new-starts-on-error">Error: Enter the start date as a date, e.g. 2027-07-10</p>',
    );
    const again = await postForm(
      t.app,
      organizer,
      newUrl(),
      {
        name: 'Elsewhere',
        support_email: 'x@elsewhere.org',
        timezone: 'Europe/London',
        starts_on: '',
        ends_on: '',
        location_country: '',
      },
      csrfOf(page.body),
    );
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain(
      'id="new-support-email-error">Error: The support email must be an address at muster.example, events.muster.example</p>',
    );
    // No wire field names in what a person reads (markup attributes aside).
    expect(again.body).not.toMatch(/>[^<]*(support_email|starts_at)[^<]*</);
    const zone = await postForm(
      t.app,
      organizer,
      newUrl(),
      {
        name: 'Elsewhere',
        support_email: 'x@muster.example',
        timezone: 'London',
        starts_on: '2027-03-02',
        ends_on: '2027-03-01',
        location_country: '',
      },
      csrfOf(page.body),
    );
    expect(zone.body).toContain(
      'id="new-timezone-error">Error: Enter a time zone name such as Europe/London</p>',
    );
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('copies an earlier event: content copied, dates moved by whole days, the copy audited', async () => {
    const owner = await as('seriesOwner');
    const overview = await getPage(t.app, owner, `/staff/events/${world.events.A.id}`);
    const href = `/staff/series/${world.series.S1.id}/events/new?from=${world.events.A.uuid}`;
    expect(overview.body).toContain(`<a href="${href}">Copy this event</a>`);
    const page = await getPage(t.app, owner, href);
    expect(page.body).toContain(
      `<option value="${world.events.A.uuid}" selected>Summit Alpha (2026-07-10)</option>`,
    );
    const res = await postForm(
      t.app,
      owner,
      copyUrl(),
      { source_event_id: world.events.A.uuid, name: 'Summit Alpha 2027', starts_on: '2027-07-09' },
      csrfOf(page.body),
    );
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    const [copy] = await q<{
      id: number;
      starts_at: string;
      ends_at: string;
      open: string;
      setup_complete: boolean;
      country: string;
      modules: Record<string, unknown>;
    }>(
      sql`SELECT id, setup_complete, location_country AS country, modules,
                 to_char(starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS starts_at,
                 to_char(ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS ends_at,
                 to_char(registration_open_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS open
            FROM events WHERE name = 'Summit Alpha 2027'`,
    );
    // 2026-07-10 → 2027-07-09: 364 days, same wall-clock time in Europe/London (both summer time);
    // the registration opening moves from winter to winter time, also at its wall-clock time.
    expect(copy).toMatchObject({
      setup_complete: false,
      country: 'GB',
      starts_at: '2027-07-09 08:00',
      ends_at: '2027-07-13 17:00',
      open: '2027-02-28 09:00',
    });
    expect(copy!.modules).toMatchObject({ nfc_badges_enabled: false, travel_enabled: true });
    const contexts = await q<{
      name: string;
      refuse: string[] | null;
      starts_at: string | null;
      hotel: boolean;
    }>(
      sql`SELECT c.name, c.refuse, to_char(c.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS starts_at,
                 e.hotel_scan_context_id = c.uuid AS hotel
            FROM scan_contexts c JOIN events e ON e.id = c.event_id WHERE c.event_id = ${copy!.id} ORDER BY c.position, c.id`,
    );
    const source = await q<{ name: string }>(
      sql`SELECT name FROM scan_contexts WHERE event_id = ${world.events.A.id} ORDER BY position, id`,
    );
    expect(contexts.map((c) => c.name)).toEqual(source.map((c) => c.name));
    const lunch = contexts.find((c) => c.refuse !== null)!;
    expect(lunch).toMatchObject({ refuse: ['banned', 'unpaid'], starts_at: '2027-07-09 07:30', hotel: true });
    expect(
      await q(
        sql`SELECT consent_type, version, title, required FROM event_consent_documents WHERE event_id = ${copy!.id} ORDER BY consent_type`,
      ),
    ).toEqual([
      { consent_type: 'photo_release', version: 1, title: 'Photos v2', required: true },
      { consent_type: 'waiver', version: 1, title: 'Waiver v2', required: null },
    ]);
    expect(
      await q(
        sql`SELECT template, subject, updated_by_user_id FROM email_templates WHERE event_id = ${copy!.id}`,
      ),
    ).toEqual([
      {
        template: 'invitation',
        subject: 'Join {{event_name}}',
        updated_by_user_id: world.users.seriesOwner.id,
      },
    ]);
    expect(
      await q(sql`SELECT g.name, g.color, (SELECT count(*)::int FROM registration_groups rg WHERE rg.group_id = g.id) AS members
                    FROM groups g WHERE event_id = ${copy!.id}`),
    ).toEqual([{ name: 'Red team', color: '#CC0000', members: 0 }]);
    const roles = (r: { user_id: number; role: string }) => `${r.user_id}:${r.role}`;
    const sourceRoles = await q<{ user_id: number; role: string }>(
      sql`SELECT user_id, role FROM event_roles WHERE event_id = ${world.events.A.id}`,
    );
    const copyRoles = await q<{ user_id: number; role: string }>(
      sql`SELECT user_id, role FROM event_roles WHERE event_id = ${copy!.id}`,
    );
    expect(copyRoles.map(roles).sort()).toEqual(sourceRoles.map(roles).sort());
    expect(await q(sql`SELECT count(*)::int AS n FROM registrations WHERE event_id = ${copy!.id}`)).toEqual([
      { n: 0 },
    ]);
    const [audit] = await q<{ actor_user_id: number; metadata: Record<string, unknown> }>(
      sql`SELECT actor_user_id, metadata FROM audit_log WHERE action = 'events.create' AND target_id = ${String(copy!.id)}`,
    );
    expect(audit).toMatchObject({
      actor_user_id: world.users.seriesOwner.id,
      metadata: {
        slug: 'summit-alpha-2027',
        copied_from: { event_id: world.events.A.id, uuid: world.events.A.uuid, slug: 'summit-alpha' },
        shifted_days: 364,
      },
    });
  });

  it('a copy needs an event of this series and a new start date', async () => {
    const admin = await as('admin');
    const page = await getPage(t.app, admin, newUrl());
    const before = await snapshotDb(t.deps);
    const foreign = await postForm(
      t.app,
      admin,
      copyUrl(),
      { source_event_id: world.events.C.uuid, name: 'Stolen', starts_on: '2027-01-01' },
      csrfOf(page.body),
    );
    expect(foreign.statusCode).toBe(422);
    expect(foreign.body).toContain(
      'id="copy-source-event-id-error">Error: Choose an event of this series to copy</p>',
    );
    const undated = await postForm(
      t.app,
      admin,
      copyUrl(),
      { source_event_id: world.events.B.uuid, name: 'Beta again', starts_on: '' },
      csrfOf(page.body),
    );
    expect(undated.body).toContain('id="copy-starts-on-error">Error: Choose the new start date</p>');
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('event roles (even event admins) are refused with a valid CSRF token, and nothing changes', async () => {
    const denied = ['participant', 'readOnly', 'limited', 'ops', 'eventAdmin', 'safeguarding'] as const;
    const tokens = new Map<string, string>();
    for (const user of denied)
      tokens.set(user, csrfOf((await getPage(t.app, await as(user), '/staff')).body));
    const before = await snapshotDb(t.deps);
    for (const user of denied) {
      const b = await as(user);
      const own = tokens.get(user)!;
      expect((await getPage(t.app, b, newUrl())).statusCode, user).toBe(403);
      const made = await postForm(
        t.app,
        b,
        newUrl(),
        { name: `By ${user}`, support_email: 'x@muster.example' },
        own,
      );
      expect(made.statusCode, user).toBe(403);
      const copied = await postForm(
        t.app,
        b,
        copyUrl(),
        { source_event_id: world.events.A.uuid, name: `Copy by ${user}`, starts_on: '2027-07-01' },
        own,
      );
      expect(copied.statusCode, user).toBe(403);
    }
    // A series owner of another series: 403 too.
    const foreign = await as('seriesOwner');
    const other = await getPage(t.app, foreign, `/staff/series/${world.series.S2.slug}/events/new`);
    expect(other.statusCode).toBe(403);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});
