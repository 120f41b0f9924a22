/**
 * Event groups and the audit trail over HTTP against the real database: group create / rename /
 * recolour / delete with their 404/409/422s, membership replaced by PUT and shown on the travel
 * calendar; the audit trail newest first with an id cursor that neither repeats nor skips, its
 * filters, the event scope, and metadata that never carries free text such as reasons.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/modules/audit/audit.service.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  secret = world.secrets.eventAdmin,
) => app.inject({ method, url: `/api/v1${url}`, headers: bearer(secret), ...(payload ? { payload } : {}) });

describe('groups', () => {
  it('create, list, rename, recolour, assign, delete', async () => {
    const A = world.events.A.id;
    const red = await call('POST', `/events/${A}/groups`, { name: ' Red team ', color: '#ec3750' });
    expect(red.statusCode, red.body).toBe(201);
    expect(red.json().group).toMatchObject({ name: 'Red team', color: '#EC3750', member_count: 0 });
    const blue = await call('POST', `/events/${A}/groups`, { name: 'Blue bus' });
    expect(blue.json().group.color).toBeNull();
    const redId = red.json().group.id;
    const blueId = blue.json().group.id;

    const assign = await call('PUT', `/events/${A}/participants/${world.regs.adultA.id}/groups`, {
      group_ids: [redId, blueId, redId],
    });
    expect(assign.statusCode, assign.body).toBe(200);
    expect(assign.json()).toEqual({
      participant_event_id: world.regs.adultA.id,
      groups: [
        { id: blueId, name: 'Blue bus', color: null },
        { id: redId, name: 'Red team', color: '#EC3750' },
      ],
    });
    const list = await call('GET', `/events/${A}/groups`);
    expect(
      list.json().groups.map((g: { name: string; member_count: number }) => [g.name, g.member_count]),
    ).toEqual([
      ['Blue bus', 1],
      ['Red team', 1],
    ]);
    await t.deps.database.pool.query(
      `UPDATE events SET modules = modules || '{"groups_enabled": true}' WHERE id = $1`,
      [A],
    );
    const travel = await call('GET', `/events/${A}/travel`);
    const entry = travel.json().entries.find((e: { groups: { id: number }[] }) => e.groups.length > 0);
    expect(entry.groups.map((g: { id: number }) => g.id)).toEqual([blueId, redId]);

    const renamed = await call('PATCH', `/events/${A}/groups/${redId}`, { name: 'Crimson', color: null });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().group).toMatchObject({ name: 'Crimson', color: null, member_count: 1 });
    const cleared = await call('PUT', `/events/${A}/participants/${world.regs.adultA.id}/groups`, {
      group_ids: [blueId],
    });
    expect(cleared.json().groups.map((g: { id: number }) => g.id)).toEqual([blueId]);

    expect((await call('DELETE', `/events/${A}/groups/${blueId}`)).statusCode).toBe(204);
    const gone = await call('DELETE', `/events/${A}/groups/${blueId}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'Group not found' });
    const { rows } = await t.deps.database.pool.query(
      `SELECT action FROM audit_log WHERE event_id = $1 AND action LIKE 'groups.%' ORDER BY id`,
      [A],
    );
    expect(rows.map((r) => r.action)).toEqual([
      'groups.create',
      'groups.create',
      'groups.assign',
      'groups.update',
      'groups.assign',
      'groups.delete',
    ]);
  });

  it('refuses bad input with 4xx and changes nothing', async () => {
    const A = world.events.A.id;
    await call('POST', `/events/${A}/groups`, { name: 'Taken' });
    const [other] = (
      await t.deps.database.pool.query(
        `INSERT INTO groups (event_id, name) VALUES ($1, 'Beta group') RETURNING id`,
        [world.events.B.id],
      )
    ).rows;
    const before = await snapshotDb(t.deps);
    const cases: [string, string, object | undefined, number, string][] = [
      ['POST', `/events/${A}/groups`, { name: 'TAKEN' }, 409, 'A group with this name already exists'],
      ['POST', `/events/${A}/groups`, { name: '   ' }, 422, 'Group name cannot be blank'],
      [
        'POST',
        `/events/${A}/groups`,
        { name: 'x', color: 'red' },
        422,
        'Color must be a hex colour like #EC3750',
      ],
      ['PATCH', `/events/${A}/groups/${other.id}`, { name: 'Mine' }, 404, 'Group not found'],
      ['PATCH', `/events/${A}/groups/abc`, { name: 'Mine' }, 404, 'Group not found'],
      [
        'PUT',
        `/events/${A}/participants/${world.regs.adultA.id}/groups`,
        { group_ids: [other.id] },
        422,
        `Not groups of this event: ${other.id}`,
      ],
      [
        'PUT',
        `/events/${A}/participants/${world.regs.regB.id}/groups`,
        { group_ids: [] },
        404,
        'Participant not found for this event',
      ],
    ];
    for (const [method, url, payload, status, error] of cases) {
      const res = await call(method as 'POST', url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.json()).toEqual({ error });
    }
    const unknownKey = await call('POST', `/events/${A}/groups`, { name: 'x', extra: 1 });
    expect(unknownKey.statusCode).toBe(422);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});

describe('audit trail', () => {
  it('pages newest first with a cursor that neither repeats nor skips', async () => {
    const A = world.events.A.id;
    await t.deps.db.transaction(async (tx) => {
      for (let i = 0; i < 7; i++)
        await recordAudit(tx, {
          action: 'paging.test',
          actorUserId: world.users.ops.id,
          eventId: A,
          metadata: { i },
        });
    });
    const all: number[] = [];
    let before: string | null = '';
    for (let page = 0; before !== null && page < 10; page++) {
      const res = await call(
        'GET',
        `/events/${A}/audit_log?action=paging.test&limit=3${before ? `&before=${before}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      all.push(...body.entries.map((e: { id: number }) => e.id));
      before = body.next_before;
    }
    expect(all).toHaveLength(7);
    expect([...all].sort((a, b) => b - a)).toEqual(all);
    expect(new Set(all).size).toBe(7);
  });

  it('filters by action prefix, actor and since; scoped to the event; 422 for a bad since', async () => {
    const A = world.events.A.id;
    await call('POST', `/events/${A}/groups`, { name: 'Audit filter' });
    await call(
      'POST',
      `/events/${world.events.B.id}/groups`,
      { name: 'Other event' },
      world.secrets.seriesOwner,
    );
    const res = await call(
      'GET',
      `/events/${A}/audit_log?action=groups.&actor=${world.users.eventAdmin.email.toUpperCase()}`,
    );
    const entries = res.json().entries as { action: string; event_id: number; actor: { id: number } }[];
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(e.action.startsWith('groups.')).toBe(true);
      expect(e.event_id).toBe(A);
      expect(e.actor.id).toBe(world.users.eventAdmin.id);
    }
    const byUuid = await call('GET', `/events/${A}/audit_log?actor=${world.users.eventAdmin.uuid}&limit=200`);
    expect(byUuid.json().entries.length).toBe(
      (await call('GET', `/events/${A}/audit_log?actor=${world.users.eventAdmin.id}&limit=200`)).json()
        .entries.length,
    );
    const future = await call('GET', `/events/${A}/audit_log?since=2999-01-01T00:00:00Z`);
    expect(future.json()).toEqual({ entries: [], next_before: null });
    const bad = await call('GET', `/events/${A}/audit_log?since=yesterday`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: 'since must be an ISO 8601 date-time with a zone' });
    expect((await call('GET', `/events/${A}/audit_log?limit=0`)).statusCode).toBe(422);
    const global = await call(
      'GET',
      '/audit_log?action=groups.create&limit=200',
      undefined,
      world.secrets.admin,
    );
    const events = new Set(global.json().entries.map((e: { event_id: number }) => e.event_id));
    expect(events).toEqual(new Set([A, world.events.B.id]));
  });

  it('never shows free text or addresses kept in metadata', async () => {
    const A = world.events.A.id;
    await t.deps.db.transaction((tx) =>
      recordAudit(tx, {
        action: 'registrations.transition',
        actorUserId: world.users.eventAdmin.id,
        eventId: A,
        metadata: {
          from: 'complete',
          to: 'withdrawn',
          reason: 'Hospitalised with asthma',
          ip: '203.0.113.9',
          notified: ['x@y.z'],
        },
      }),
    );
    const res = await call('GET', `/events/${A}/audit_log?action=registrations.transition&limit=1`);
    expect(res.json().entries[0].metadata).toEqual({ from: 'complete', to: 'withdrawn' });
    expect(res.body).not.toContain('asthma');
    expect(res.body).not.toContain('203.0.113.9');
  });
});
