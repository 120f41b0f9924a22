/**
 * The Rooms page and the rooming board over HTTP (issue 30 items 1 and 4, docs/rooming.md "Pages"):
 * the inventory's forms and CSV import with the service's messages next to their field, the board's
 * two views (an event admin's holds rooms and names only: no gender identity, ages, flags, needs or
 * requests anywhere in the markup), the plan as a dry run that writes nothing, apply, and a move that
 * breaks a rule: refused with the rule in words until a reason is given, then kept as an override.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INLINE_OPTIONS_MAX } from '../../src/modules/staff-web/rooming/board.web.js';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { type RoomingScene, seedRoomingScene } from '../support/rooming-world.js';
import { addRegistration, buildWorld, type UserName, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let scene: RoomingScene;
const browsers = new Map<UserName, Browser>();

async function as(user: UserName): Promise<Browser> {
  let b = browsers.get(user);
  if (!b) {
    b = await signedInBrowser(t.deps, world.users[user].id);
    browsers.set(user, b);
  }
  return b;
}
const url = (rest: string) => `/staff/events/${world.events.A.id}${rest}`;
async function post(user: UserName, path: string, fields: Record<string, string>) {
  const b = await as(user);
  const page = await getPage(app, b, url('/rooming'));
  return postForm(app, b, url(path), fields, csrfOf(page.body));
}
async function roomOf(id: number): Promise<string | null> {
  const { rows } = await t.deps.database.pool.query(
    'SELECT assigned_room FROM registration_accommodations WHERE registration_id = $1',
    [id],
  );
  return (rows[0] as { assigned_room: string | null }).assigned_room;
}
/** A multipart form post (the CSV import), the CSRF token in the URL as the page's form has it. */
async function postMultipart(user: UserName, parts: { name: string; value: string; filename?: string }[]) {
  const b = await as(user);
  const csrf = csrfOf((await getPage(app, b, url('/rooms'))).body);
  const boundary = '----muster-test-boundary';
  const body = parts
    .map(
      (p) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"\r\nContent-Type: text/csv` : ''}\r\n\r\n${p.value}\r\n`,
    )
    .join('')
    .concat(`--${boundary}--\r\n`);
  return app.inject({
    method: 'POST',
    url: url(`/rooms/import?_csrf=${encodeURIComponent(csrf)}`),
    headers: {
      accept: 'text/html',
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: Object.entries(b.cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
    },
    payload: body,
  });
}

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  scene = await seedRoomingScene(t.deps, world.events.A.id);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('Rooms page', () => {
  it('lists the inventory for event admins without the forms, and with them for a safeguarding lead', async () => {
    const admin = await getPage(app, await as('eventAdmin'), url('/rooms'));
    expect(admin.statusCode).toBe(200);
    expect(admin.headers['cache-control']).toMatch(/^no-store/);
    expect(admin.body).toContain('<th scope="row">Oak</th>');
    expect(admin.body).not.toContain('Add a room');
    expect(admin.body).not.toContain('Import rooms');
    expect(admin.body).toContain(`href="/staff/events/${world.events.A.id}/rooms" aria-current="page"`);
    const lead = await getPage(app, await as('safeguarding'), url('/rooms'));
    expect(lead.body).toContain('Add a room');
    expect(lead.body).toContain('enctype="multipart/form-data"');
  });

  it('adds, changes and deletes a room; a bad value shows next to its field', async () => {
    const fields = { name: 'Cedar', capacity: '3', type: 'twin', gender_designation: 'any', venue: 'Lodge' };
    const bad = await post('safeguarding', '/rooms', fields);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toMatch(/id="room-capacity-error">Error: A twin room has capacity 2/);
    expect(bad.body).toContain('value="Lodge"');
    const ok = await post('safeguarding', '/rooms', { ...fields, capacity: '2', quiet: 'true' });
    expect(ok.statusCode).toBe(303);
    const dup = await post('safeguarding', '/rooms', { ...fields, name: 'cedar', capacity: '2' });
    expect(dup.statusCode).toBe(409);
    expect(dup.body).toMatch(/id="room-name-error">Error: A room with this name already exists/);
    const { rows } = await t.deps.database.pool.query(
      `SELECT id, quiet FROM rooms WHERE event_id = $1 AND name = 'Cedar'`,
      [world.events.A.id],
    );
    const id = (rows[0] as { id: number; quiet: boolean }).id;
    expect((rows[0] as { quiet: boolean }).quiet).toBe(true);
    const form = await getPage(app, await as('safeguarding'), url(`/rooms?edit=${id}`));
    expect(form.body).toContain('Change room Cedar');
    const ages = await post('safeguarding', `/rooms/${id}`, {
      ...fields,
      capacity: '2',
      min_age: '15',
      max_age: '12',
    });
    expect(ages.statusCode).toBe(422);
    expect(ages.body).toMatch(/id="room-min_age-error">Error: Min age must not be above max age/);
    expect(ages.body).toContain('Change room Cedar');
    const changed = await post('safeguarding', `/rooms/${id}`, { ...fields, capacity: '2', min_age: '12' });
    expect(changed.statusCode).toBe(303);
    const deleted = await post('safeguarding', `/rooms/${id}/delete`, {});
    expect(deleted.statusCode).toBe(303);
    const after = await t.deps.database.pool.query(`SELECT 1 FROM rooms WHERE id = $1`, [id]);
    expect(after.rows).toEqual([]);
  });

  it('imports a CSV (pasted or uploaded); a bad line is named next to the box and nothing is imported', async () => {
    const before = await snapshotDb(t.deps);
    const csv = 'name,capacity,type,gender_designation\nLarch,4,dorm,staff_only\nYew,3,twin,staff_only\n';
    const bad = await postMultipart('safeguarding', [{ name: 'csv', value: csv }]);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toMatch(/id="rooms-csv-error">Error: Line 3: A twin room has capacity 2/);
    expect(bad.body).toContain('Yew,3,twin,staff_only');
    expect(await snapshotDb(t.deps)).toEqual(before);
    const empty = await postMultipart('safeguarding', [{ name: 'csv', value: ' ' }]);
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('Paste the CSV into the box or choose a CSV file');
    const file = await postMultipart('safeguarding', [
      { name: 'csv', value: '' },
      { name: 'file', filename: 'rooms.csv', value: csv.replace('Yew,3', 'Yew,2') },
    ]);
    expect(file.statusCode, file.body.slice(0, 300)).toBe(303);
    const page = await getPage(app, await as('eventAdmin'), url('/rooms'));
    expect(page.body).toContain('<th scope="row">Larch</th>');
    expect(page.body).toContain('<th scope="row">Yew</th>');
  });

  it('refuses an event admin’s changes (403) and leaves the database unchanged', async () => {
    const before = await snapshotDb(t.deps);
    const b = await as('eventAdmin');
    const csrf = csrfOf((await getPage(app, b, url('/rooms'))).body.replace(/^[\s\S]*?(name="_csrf")/, '$1'));
    const res = await postForm(
      app,
      b,
      url('/rooms'),
      { name: 'Nope', capacity: '1', type: 'single', gender_designation: 'any' },
      csrf,
    );
    expect(res.statusCode).toBe(403);
    const move = await postForm(
      app,
      b,
      url('/rooming/move'),
      { participant_event_id: String(scene.people.hugo), room_id: String(scene.rooms.oak) },
      csrf,
    );
    expect(move.statusCode).toBe(403);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});

describe('Rooming board', () => {
  it('plans as a dry run (nothing written) with reasons in words, then applies the plan', async () => {
    const before = await snapshotDb(t.deps);
    const plan = await post('safeguarding', '/rooming/plan', { keep_existing: 'true' });
    expect(plan.statusCode).toBe(200);
    expect(plan.body).toContain('The plan (not saved yet)');
    // Alice and Max (the world's) keep a room typed by hand that is not in the inventory.
    expect(plan.body).toContain('4 people placed, 2 left out; roommate requests met: 4 of 6.');
    expect(plan.body).toContain(
      '<li><strong>Ali:</strong> Keeps assigned room “101”, which is not a room of the inventory</li>',
    );
    // Their free-text request names nobody: an unmet request with its reason.
    expect(plan.body).toContain(
      '<li><strong>Max Minor:</strong> “quiet” matches no participant of this event</li>',
    );
    expect(plan.body).toContain('<li><strong>Elm:</strong> Hugo Hill, Ivan Irons</li>');
    expect(await snapshotDb(t.deps)).toEqual(before);
    const encoded = /name="plan" value="([^"]*)"/.exec(plan.body)![1]!;
    const applied = await post('safeguarding', '/rooming/apply', { plan: encoded });
    expect(applied.statusCode).toBe(303);
    expect(applied.headers.location).toBe(url('/rooming?done=applied'));
    const fern = await roomOf(scene.people.fern);
    expect(fern).toBe(await roomOf(scene.people.gail));
    expect(['Oak', 'Birch']).toContain(fern);
    expect(await roomOf(scene.people.hugo)).toBe('Elm');
    expect(await roomOf(scene.people.ivan)).toBe('Elm');
    const bad = await post('safeguarding', '/rooming/apply', { plan: 'not a plan' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('The plan could not be read');
  });

  it('shows a safeguarding lead every card: age, gender identity, flags with text, requests met', async () => {
    const res = await getPage(app, await as('safeguarding'), url('/rooming'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/^no-store/);
    const hugo = res.body.slice(res.body.indexOf(`id="person-${scene.people.hugo}"`));
    expect(hugo).toContain('Age 15 · Gender identity: boy');
    expect(hugo).toMatch(/<span aria-hidden="true">☆<\/span> Minor/);
    expect(hugo).toContain('Met: With Ivan Irons');
    expect(hugo).toContain(`<label for="move-${scene.people.hugo}">Move Hugo Hill to</label>`);
    expect(res.body).toContain('src="/assets/js/rooming-board.js"');
  });

  it('gives an event admin rooms and names only: no gender identity, ages, flags, needs or requests', async () => {
    const res = await getPage(app, await as('eventAdmin'), url('/rooming'));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Hugo Hill');
    expect(res.body).toContain('Elm');
    for (const secret of [
      'Gender identity',
      '>boy<',
      'girl',
      'Age ',
      'Minor',
      'Met:',
      'With Ivan',
      'quiet room',
      'Unassigned',
      'Move',
      'woman',
      'ground floor',
      'Plan rooms',
    ])
      expect(res.body, secret).not.toContain(secret);
    expect(res.body).not.toContain('rooming-board.js');
  });

  it('refuses a move that breaks a rule with the rule in words; a reason keeps it as an override', async () => {
    const before = await snapshotDb(t.deps);
    const oak = (await roomOf(scene.people.fern)) === 'Oak' ? scene.rooms.oak : scene.rooms.birch;
    const move = { participant_event_id: String(scene.people.hugo), room_id: String(oak) };
    // The card's instant check (htmx, on choosing the room): the rules in words, nothing written.
    const query = `participant_event_id=${scene.people.hugo}&room_id=${oak}`;
    const check = await getPage(app, await as('safeguarding'), url(`/rooming/check?${query}`));
    expect(check.statusCode).toBe(200);
    expect(check.body).toMatch(/<strong>Moving Hugo Hill into (Oak|Birch) breaks a rule:<\/strong>/);
    expect(check.body).toMatch(/is designated female; this person may be placed in male rooms/);
    const fine = await getPage(
      app,
      await as('safeguarding'),
      url(`/rooming/check?participant_event_id=${scene.people.ivan}&room_id=${scene.rooms.elm}`),
    );
    expect(fine.body).toContain('Moving Ivan Irons into Elm breaks no rule.');
    const denied = await getPage(app, await as('eventAdmin'), url(`/rooming/check?${query}`));
    expect(denied.statusCode).toBe(403);
    expect(denied.body).not.toContain('designated');
    const refused = await post('safeguarding', '/rooming/move', move);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('This move breaks a rule');
    expect(refused.body).toMatch(/is designated female; this person may be placed in male rooms/);
    expect(refused.body).toMatch(/holds 2 and would have 3/);
    expect(await snapshotDb(t.deps)).toEqual(before);
    const blank = await post('safeguarding', '/rooming/move', { ...move, override_reason: '  ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.body).toContain('Give a reason to keep this move');
    expect(await snapshotDb(t.deps)).toEqual(before);
    const kept = await post('safeguarding', '/rooming/move', {
      ...move,
      override_reason: 'Sibling, parents asked',
    });
    expect(kept.statusCode).toBe(303);
    expect(kept.headers.location).toBe(url(`/rooming?done=kept#person-${scene.people.hugo}`));
    expect(await roomOf(scene.people.hugo)).not.toBe('Elm');
    const board = await getPage(app, await as('safeguarding'), url('/rooming'));
    expect(board.body).toContain('<strong>Kept against a rule:</strong> Sibling, parents asked');
    const { rows } = await t.deps.database.pool.query(
      `SELECT metadata FROM audit_log WHERE action = 'rooming.assign' AND target_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(scene.people.hugo)],
    );
    expect((rows[0] as { metadata: { override: boolean } }).metadata.override).toBe(true);
    // Back to Elm without a rule broken: a plain move.
    const back = await post('safeguarding', '/rooming/move', { ...move, room_id: String(scene.rooms.elm) });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(url(`/rooming?done=moved#person-${scene.people.hugo}`));
    expect(await roomOf(scene.people.hugo)).toBe('Elm');
  });
});

describe('A large board', () => {
  it('carries no list on each card past INLINE_OPTIONS_MAX options; a card’s “Move …” link opens its list', async () => {
    const eventId = world.events.B.id;
    const people: number[] = [];
    await t.deps.db.transaction(async (tx) => {
      for (let i = 0; i < 300; i++)
        await tx.execute(
          sql`INSERT INTO rooms (event_id, name, capacity, type, gender_designation) VALUES (${eventId}, ${`Dorm ${i}`}, 4, 'dorm', 'any')`,
        );
      for (let i = 0; i < 350; i++) {
        const reg = await addRegistration(tx, {
          eventId,
          email: `large${i}@example.org`,
          firstName: `Large${i}`,
          lastName: 'Person',
          preferredName: null,
          dateOfBirth: '2010-01-01',
          status: 'complete',
        });
        people.push(reg.id);
      }
    });
    expect(350 * 301).toBeGreaterThan(INLINE_OPTIONS_MAX);
    const b = await as('admin');
    const board = await getPage(app, b, `/staff/events/${eventId}/rooming`);
    expect(board.statusCode).toBe(200);
    expect(board.body).not.toContain('name="room_id"');
    const id = people[7]!;
    expect(board.body).toContain(
      `href="/staff/events/${eventId}/rooming?move=${id}#person-${id}">Move Large7 Person …</a>`,
    );
    const open = await getPage(app, b, `/staff/events/${eventId}/rooming?move=${id}`);
    expect(open.body.match(/name="room_id"/g)).toHaveLength(1);
    expect(open.body).toContain(`<label for="move-${id}">Move Large7 Person to</label>`);
    expect(open.body).toMatch(new RegExp(`<select id="move-${id}" name="room_id"[^>]* autofocus>`));
  }, 120_000);
});
