/**
 * Rooming out to people (issue 30 item 5, docs/rooming.md "Out to people") over HTTP against the
 * real database: the participant's ticket page shows their room only while the rules publish
 * rooms; the room door lists PDF (read back with pdf-parse) has one page per room with its name
 * and its occupants' names and nothing else, and is audited; applying a room change sends a
 * `registration.updated` webhook naming the accommodation section; the rooming export carries the
 * room.
 */
import type { FastifyInstance } from 'fastify';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { type Browser, getPage, signedInBrowser } from '../web/support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let alice: Browser;
let oak: number;
let elm: number;

const api = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: object, who = world.secrets.admin) =>
  app.inject({ method, url: `/api/v1/events/${world.events.A.id}${path}`, headers: bearer(who), payload });

// The world's people are women who asked for a quiet room and have accessibility needs.
const FITS = { gender_designation: 'female', quiet: true, accessible: true } as const;

async function room(body: object): Promise<number> {
  const res = await api('POST', '/rooms', body);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { room: { id: number } }).room.id;
}

async function apply(assignments: object[]) {
  const res = await api('POST', '/rooming/apply', { assignments });
  expect(res.statusCode, res.body).toBe(200);
}

async function publish(on: boolean) {
  const res = await api('PUT', '/rooming/rules', { publish_rooms: on });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  alice = await signedInBrowser(t.deps, world.users.participant.id);
  oak = await room({
    name: 'Oak 12',
    venue: 'Main house',
    floor: 'First',
    capacity: 2,
    type: 'twin',
    ...FITS,
  });
  elm = await room({ name: 'Elm 3', capacity: 4, type: 'dorm', ...FITS, max_age: 17 });
  await room({ name: 'Ash 1', capacity: 1, type: 'single', gender_designation: 'any' });
  // An endpoint of event A that subscribes to registration.updated (messages are written only then).
  await t.deps.database.pool.query(
    `INSERT INTO webhook_endpoints (event_id, url, event_types, secret_sealed)
     VALUES ($1, 'https://93.184.216.34/hook', ARRAY['registration.updated'], 'v1.x.y.z')`,
    [world.events.A.id],
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function updatedMessages(): Promise<{ participant_event_id: number; sections: string[] }[]> {
  const { rows } = await t.deps.database.pool.query<{ body: string }>(
    `SELECT body FROM webhook_messages WHERE type = 'registration.updated' AND event_id = $1 ORDER BY id`,
    [world.events.A.id],
  );
  return rows.map((r) => {
    const { data } = JSON.parse(r.body) as { data: { participant_event_id: number; sections: string[] } };
    return { participant_event_id: data.participant_event_id, sections: data.sections };
  });
}

async function pdfPages(body: Buffer): Promise<string[]> {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    return (await parser.getText()).pages.map((p) => p.text.replace(/\s+/g, ' ').trim());
  } finally {
    await parser.destroy();
  }
}

describe('rooming out to people', () => {
  it('applying a room sends registration.updated with the accommodation section', async () => {
    const before = (await updatedMessages()).length;
    await apply([
      { participant_event_id: world.regs.adultA.id, room_id: oak },
      { participant_event_id: world.regs.minorA.id, room_id: elm },
    ]);
    const sent = (await updatedMessages()).slice(before);
    expect(sent).toEqual(
      expect.arrayContaining([
        { participant_event_id: world.regs.adultA.id, sections: ['accommodation'] },
        { participant_event_id: world.regs.minorA.id, sections: ['accommodation'] },
      ]),
    );
    expect(sent).toHaveLength(2);
    // Applying the same rooms again changes nothing and sends nothing.
    await apply([{ participant_event_id: world.regs.adultA.id, room_id: oak }]);
    expect(await updatedMessages()).toHaveLength(before + 2);
  });

  it('the ticket page shows the room only while rooms are published', async () => {
    const url = `/register/${world.regs.adultA.id}`;
    await publish(false);
    const hidden = await getPage(app, alice, url);
    expect(hidden.statusCode).toBe(200);
    expect(hidden.body).not.toContain('Oak 12');
    expect(hidden.body).not.toContain('Your room');

    await publish(true);
    const shown = await getPage(app, alice, url);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<h2>Your room</h2>');
    expect(shown.body).toContain('Room: <strong id="room">Oak 12 (Main house · First)</strong>');

    // Published, but the person has no room: nothing is shown.
    await apply([{ participant_event_id: world.regs.adultA.id, room_id: null }]);
    const none = await getPage(app, alice, url);
    expect(none.body).not.toContain('Your room');
    await apply([{ participant_event_id: world.regs.adultA.id, room_id: oak }]);
    await publish(false);
  });

  it('door lists: one page per room with its name and occupants’ names only; audited', async () => {
    const res = await api('GET', '/rooms/door-lists.pdf', undefined, world.secrets.eventAdmin);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="summit-alpha-room-door-lists.pdf"',
    );
    const pages = await pdfPages(res.rawPayload);
    expect(pages).toHaveLength(3);
    const [ash, elmPage, oakPage] = pages as [string, string, string];
    expect(ash).toBe('Ash 1');
    expect(elmPage).toBe('Elm 3 Max Minor');
    expect(oakPage).toBe('Oak 12 Ali');
    const audit = await t.deps.database.pool.query<{ metadata: unknown }>(
      `SELECT metadata FROM audit_log WHERE action = 'rooms.door_lists' AND event_id = $1`,
      [world.events.A.id],
    );
    expect(audit.rows.map((r) => r.metadata)).toEqual([{ rooms: 3, names: 2 }]);
  });

  it('the rooming export carries the room', async () => {
    const res = await api('GET', '/exports/rooming.csv?headers=keys', undefined, world.secrets.eventAdmin);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const line = res.body.split('\r\n').find((l) => l.includes('Anderson'));
    expect(line).toContain('Oak 12');
  });
});
