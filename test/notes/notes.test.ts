/**
 * Staff notes (docs/decisions.md "Notes"): create and list, newest first, restricted notes only for
 * global admins and safeguarding leads, validation (422) after the registration lookup (404),
 * audit of creation, updated_at bump, denied writes change nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await startTestApp();
  w = await buildWorld(t.deps);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const notesUrl = (reg = w.regs.adultA.id, event: string | number = w.events.A.id) =>
  `/api/v1/events/${event}/participants/${reg}/notes`;

function post(secret: string | undefined, payload: unknown, url = notesUrl()) {
  return t.app.inject({ method: 'POST', url, headers: bearer(secret), payload: payload as object });
}

describe('staff notes', () => {
  it('creates notes (201) with author and defaults, audits them and bumps updated_at', async () => {
    const before = await t.deps.database.pool.query<{ u: string }>(
      'SELECT updated_at::text AS u FROM registrations WHERE id = $1',
      [w.regs.minorA.id],
    );
    const res = await post(
      w.secrets.ops,
      { content: '  Arrived late, collected by mum  ' },
      notesUrl(w.regs.minorA.id),
    );
    expect(res.statusCode).toBe(201);
    const note = res.json().note;
    expect(note).toEqual({
      id: expect.any(Number),
      content: 'Arrived late, collected by mum',
      note_type: 'ops',
      sensitivity: 'normal',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      author: { id: w.users.ops.id, name: 'Olga Ops', email: w.users.ops.email },
    });
    const audit = await t.deps.database.pool.query(
      `SELECT action, actor_user_id, credential_kind, target_type, target_id, metadata FROM audit_log
        WHERE action = 'notes.create'`,
    );
    expect(audit.rows).toEqual([
      {
        action: 'notes.create',
        actor_user_id: w.users.ops.id,
        credential_kind: 'mobile',
        target_type: 'registration',
        target_id: String(w.regs.minorA.id),
        metadata: { note_id: note.id, note_type: 'ops', sensitivity: 'normal' },
      },
    ]);
    const after = await t.deps.database.pool.query<{ u: string }>(
      'SELECT updated_at::text AS u FROM registrations WHERE id = $1',
      [w.regs.minorA.id],
    );
    expect(after.rows[0]!.u > before.rows[0]!.u).toBe(true);
  });

  it('lists newest first; restricted notes only for global admins and safeguarding leads', async () => {
    const reg = w.regs.adultA.id;
    const a = await post(w.secrets.eventAdmin, { content: 'First', note_type: 'logistical' });
    const b = await post(w.secrets.safeguarding, {
      content: 'Disclosure — see lead',
      note_type: 'safeguarding',
      sensitivity: 'restricted',
    });
    const c = await post(w.secrets.limited, { content: 'Third' });
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([201, 201, 201]);
    // The author gets a restricted note back even without rights to list it later.
    const own = await post(w.secrets.ops, { content: 'Ops restricted', sensitivity: 'restricted' });
    expect(own.statusCode).toBe(201);
    expect(own.json().note).toMatchObject({ content: 'Ops restricted', sensitivity: 'restricted' });

    const all = [own, c, b, a].map((r) => r.json().note);
    const normal = all.filter((n) => n.sensitivity === 'normal');
    for (const who of ['admin', 'globalToken', 'safeguarding'] as const) {
      const res = await get(t.app, notesUrl(reg), w.secrets[who]);
      expect(res.statusCode, who).toBe(200);
      expect(res.json(), who).toEqual({ notes: all });
    }
    for (const who of ['ops', 'eventAdmin', 'limited', 'seriesOwner', 'seriesOrganizer'] as const) {
      const res = await get(t.app, notesUrl(reg), w.secrets[who]);
      expect(res.statusCode, who).toBe(200);
      expect(res.json(), who).toEqual({ notes: normal });
    }
    // Same list by UUID and slug; another registration's notes are separate.
    const bySlug = await get(t.app, notesUrl(reg, w.events.A.slug), w.secrets.admin);
    const byUuid = await get(t.app, notesUrl(reg, w.events.A.uuid), w.secrets.admin);
    expect(bySlug.json()).toEqual({ notes: all });
    expect(byUuid.json()).toEqual({ notes: all });
    const other = await get(t.app, notesUrl(w.regs.withdrawnA.id), w.secrets.admin);
    expect(other.json()).toEqual({ notes: [] });
  });

  it.each([
    ['blank content', { content: '   ' }, 'Note content cannot be blank'],
    [
      '10,001 characters',
      { content: 'x'.repeat(10_001) },
      'body.content must NOT have more than 10000 characters',
    ],
    ['an unknown note_type', { content: 'ok', note_type: 'gossip' }, undefined],
    ['an unknown sensitivity', { content: 'ok', sensitivity: 'secret' }, undefined],
    ['an unknown field', { content: 'ok', extra: 1 }, 'body: unknown field extra'],
    ['no content', {}, 'body.content is required'],
    ['a number as content', { content: 42 }, 'body.content must be string'],
  ])('422 for %s, writing nothing', async (_label, payload, message) => {
    const before = await snapshotDb(t.deps);
    const res = await post(w.secrets.ops, payload);
    expect(res.statusCode).toBe(422);
    if (message) expect(res.json()).toEqual({ error: message });
    else expect(Object.keys(res.json())).toEqual(['error']);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('accepts exactly 10,000 characters', async () => {
    const res = await post(w.secrets.ops, { content: 'y'.repeat(10_000) });
    expect(res.statusCode).toBe(201);
    expect(res.json().note.content).toHaveLength(10_000);
  });

  it('404 for a registration outside the event, before validating the body', async () => {
    for (const reg of [w.regs.regB.id, 99999999, 'abc']) {
      const url = `/api/v1/events/${w.events.A.id}/participants/${reg}/notes`;
      const res = await post(w.secrets.ops, { content: '' }, url);
      expect(res.statusCode, String(reg)).toBe(404);
      expect(res.json()).toEqual({ error: 'Participant not found for this event' });
      const list = await get(t.app, url, w.secrets.ops);
      expect(list.statusCode).toBe(404);
    }
  });

  it('refuses keys and read_only users, changing nothing', async () => {
    const before = await snapshotDb(t.deps);
    for (const who of ['eventKeyA', 'seriesKeyS1', 'legacyKeyA', 'readOnly', 'participant'] as const) {
      const res = await post(w.secrets[who], { content: 'nope' });
      expect(res.statusCode, who).toBe(403);
      expect((await get(t.app, notesUrl(), w.secrets[who])).statusCode, who).toBe(403);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
    const count = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM notes WHERE content = 'nope'`,
    );
    expect(count.rows[0]!.n).toBe(0);
  });
});
