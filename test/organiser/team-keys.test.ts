/**
 * Team roles and series API keys over HTTP against the real database: granting by email (creating
 * and inviting a new user through the email outbox), 409s (duplicate grant, last series owner),
 * removal taking effect on the next request of every device of the user, the audit entries; API
 * keys issued with the secret shown once, listed without it, revoked, and `last_used_at` written
 * at most once a minute and only after successful requests.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
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

const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await t.deps.database.pool.query(text, values)).rows as T[];
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, secret: string | undefined, payload?: object) =>
  app.inject({ method, url: `/api/v1${url}`, headers: bearer(secret), ...(payload ? { payload } : {}) });

describe('event roles', () => {
  it('an event admin grants a role to a new email: the user is created and invited, audited', async () => {
    const A = world.events.A.id;
    const res = await call('POST', `/events/${A}/roles`, world.secrets.eventAdmin, {
      email: ' New.Helper@Example.com ',
      role: 'ops',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.user_created).toBe(true);
    expect(body.role).toMatchObject({
      role: 'ops',
      user: { email: 'new.helper@example.com', name: 'new.helper' },
    });
    const mails = await q(
      `SELECT template, subject FROM email_log WHERE to_email = 'new.helper@example.com'`,
    );
    expect(mails).toEqual([
      { template: 'staff_invitation', subject: 'You have been added to Summit Alpha on Muster' },
    ]);
    const [audit] = await q(
      `SELECT actor_user_id, event_id, metadata FROM audit_log WHERE action = 'roles.grant' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({
      actor_user_id: world.users.eventAdmin.id,
      event_id: A,
      metadata: { role: 'ops', email: 'new.helper@example.com', user_created: true },
    });
    const list = await call('GET', `/events/${A}/roles`, world.secrets.eventAdmin);
    expect(
      list.json().roles.map((r: { role: string; user: { email: string } }) => `${r.user.email}:${r.role}`),
    ).toContain('new.helper@example.com:ops');
  });

  it('an existing user is not re-created nor emailed; the same grant twice is 409; bad input is 422', async () => {
    const A = world.events.A.id;
    const first = await call('POST', `/events/${A}/roles`, world.secrets.seriesOrganizer, {
      email: world.users.participant.email,
      role: 'read_only',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json().user_created).toBe(false);
    expect(await q(`SELECT 1 FROM email_log WHERE to_email = $1`, [world.users.participant.email])).toEqual(
      [],
    );
    const before = await snapshotDb(t.deps);
    const again = await call('POST', `/events/${A}/roles`, world.secrets.eventAdmin, {
      email: world.users.participant.email.toUpperCase(),
      role: 'read_only',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'This user already has this role' });
    for (const payload of [
      { email: 'nope', role: 'ops' },
      { email: 'a@b.example', role: 'owner' },
      { email: 'a@b.example' },
    ]) {
      const bad = await call('POST', `/events/${A}/roles`, world.secrets.eventAdmin, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(bad.json())).toContain('error');
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('removing a role takes effect on the next request of every device of that user', async () => {
    const A = world.events.A.id;
    const [user] = await q<{ id: number }>(
      `INSERT INTO users (email, name) VALUES ('two.phones@team.test', 'Two Phones') RETURNING id`,
    );
    const [role] = await q<{ id: number }>(
      `INSERT INTO event_roles (user_id, event_id, role) VALUES ($1, $2, 'ops') RETURNING id`,
      [user!.id, A],
    );
    const phones = await t.deps.db.transaction(async (tx) => [
      (await issueMobileToken(tx, user!.id, { deviceName: 'phone 1' })).secret,
      (await issueMobileToken(tx, user!.id, { deviceName: 'phone 2' })).secret,
    ]);
    for (const phone of phones)
      expect((await call('GET', `/events/${A}/participants`, phone)).statusCode).toBe(200);
    const removed = await call('DELETE', `/events/${A}/roles/${role!.id}`, world.secrets.eventAdmin);
    expect(removed.statusCode).toBe(204);
    for (const phone of phones) {
      const res = await call('GET', `/events/${A}/participants`, phone);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'You do not have access to this event' });
    }
    expect(await q(`SELECT 1 FROM event_roles WHERE id = $1`, [role!.id])).toEqual([]);
    const [audit] = await q(
      `SELECT metadata FROM audit_log WHERE action = 'roles.revoke' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({ metadata: { role: 'ops', email: 'two.phones@team.test' } });
    const gone = await call('DELETE', `/events/${A}/roles/${role!.id}`, world.secrets.eventAdmin);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'Role not found' });
  });

  it('a role of another event is 404 under this one', async () => {
    const [other] = await q<{ id: number }>(
      `INSERT INTO event_roles (user_id, event_id, role) VALUES ($1, $2, 'ops') RETURNING id`,
      [world.users.participant.id, world.events.B.id],
    );
    const res = await call(
      'DELETE',
      `/events/${world.events.A.id}/roles/${other!.id}`,
      world.secrets.eventAdmin,
    );
    expect(res.statusCode).toBe(404);
    expect(await q(`SELECT 1 FROM event_roles WHERE id = $1`, [other!.id])).toHaveLength(1);
  });
});

describe('series roles', () => {
  it('nobody removes the last owner of a series (409); with a second owner it works', async () => {
    const S1 = world.series.S1.id;
    const list = await call('GET', `/series/${S1}/roles`, world.secrets.seriesOwner);
    const owners = list.json().roles.filter((r: { role: string }) => r.role === 'owner');
    expect(owners).toHaveLength(1);
    const before = await snapshotDb(t.deps);
    const last = await call('DELETE', `/series/${S1}/roles/${owners[0].id}`, world.secrets.admin);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({ error: 'A series must keep at least one owner' });
    expect(await snapshotDb(t.deps)).toEqual(before);

    const granted = await call('POST', `/series/${S1}/roles`, world.secrets.seriesOwner, {
      email: 'co.owner@team.test',
      role: 'owner',
    });
    expect(granted.statusCode).toBe(201);
    const removed = await call('DELETE', `/series/${S1}/roles/${owners[0].id}`, world.secrets.seriesOwner);
    expect(removed.statusCode).toBe(204);
    // The former owner's very next request no longer finds the role.
    const after = await call('GET', `/series/${S1}/roles`, world.secrets.seriesOwner);
    expect(after.statusCode).toBe(403);
    const coOwner = granted.json().role.id;
    const lastAgain = await call('DELETE', `/series/${S1}/roles/${coOwner}`, world.secrets.admin);
    expect(lastAgain.statusCode).toBe(409);
  });
});

describe('API keys', () => {
  const S2 = () => world.series.S2.id;

  it('issues a series key and an event key: the secret once, then listed without it; it works', async () => {
    const created = await call('POST', `/series/${S2()}/api_keys`, world.secrets.admin, {
      name: ' Sync ',
      kind: 'series',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const { api_key, secret } = created.json();
    expect(secret).toMatch(/^mst_/);
    expect(api_key).toMatchObject({
      kind: 'series',
      name: 'Sync',
      event: null,
      last_used_at: null,
      revoked_at: null,
    });
    expect(api_key.owner.email).toBe(world.users.admin.email);
    const event = await call('POST', `/series/${S2()}/api_keys`, world.secrets.admin, {
      name: 'Door',
      kind: 'event',
      event_id: world.events.C.slug,
    });
    expect(event.statusCode).toBe(201);
    expect(event.json().api_key.event).toEqual({
      id: world.events.C.id,
      name: 'Foreign Gamma',
      slug: 'foreign-gamma',
    });

    const list = await call('GET', `/series/${S2()}/api_keys`, world.secrets.admin);
    expect(list.body).not.toContain(secret);
    expect(list.json().api_keys.map((k: { name: string }) => k.name)).toEqual(
      expect.arrayContaining(['Sync', 'Door', 'S2 integration', 'C key']),
    );
    for (const table of ['audit_log', 'email_log', 'series_api_keys']) {
      const rows = await q(`SELECT count(*)::int AS n FROM ${table} t WHERE t::text LIKE $1`, [
        `%${secret}%`,
      ]);
      expect(rows, table).toEqual([{ n: 0 }]);
    }
    expect((await call('GET', `/series/${S2()}`, secret)).statusCode).toBe(200);
  });

  it('422 for a blank name, an event key without event_id, or an event of another series', async () => {
    const before = await snapshotDb(t.deps);
    for (const [payload, error] of [
      [{ name: '  ', kind: 'series' }, 'Key name cannot be blank'],
      [{ name: 'x', kind: 'event' }, 'event_id is required for an event key'],
      [{ name: 'x', kind: 'event', event_id: world.events.A.id }, 'event_id is not an event of this series'],
      [{ name: 'x', kind: 'series', event_id: world.events.C.id }, 'event_id is only for event keys'],
    ] as const) {
      const res = await call('POST', `/series/${S2()}/api_keys`, world.secrets.admin, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error });
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('last_used_at: written after a successful request, not again within the minute', async () => {
    const created = await call('POST', `/series/${S2()}/api_keys`, world.secrets.admin, {
      name: 'Usage',
      kind: 'series',
    });
    const { api_key, secret } = created.json();
    const lastUsed = async () =>
      (
        await q<{ at: string | null }>(
          `SELECT last_used_at::text AS at FROM series_api_keys WHERE uuid = $1`,
          [api_key.id],
        )
      )[0]!.at;
    // A refused request is not a use.
    expect((await call('GET', `/series/${world.series.S1.id}`, secret)).statusCode).toBe(403);
    await new Promise((r) => setTimeout(r, 100));
    expect(await lastUsed()).toBeNull();
    expect((await call('GET', `/series/${S2()}`, secret)).statusCode).toBe(200);
    await expect.poll(lastUsed, { timeout: 5000 }).not.toBeNull();
    const first = await lastUsed();
    for (let i = 0; i < 3; i++) expect((await call('GET', `/series/${S2()}`, secret)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(await lastUsed()).toBe(first);
    const listed = await call('GET', `/series/${S2()}/api_keys`, world.secrets.admin);
    const entry = listed.json().api_keys.find((k: { id: string }) => k.id === api_key.id);
    expect(entry.last_used_at).not.toBeNull();
  });

  it('revokes by UUID: the key stops working, audited; again is 409; unknown or foreign is 404', async () => {
    const created = await call('POST', `/series/${S2()}/api_keys`, world.secrets.admin, {
      name: 'Short-lived',
      kind: 'series',
    });
    const { api_key, secret } = created.json();
    const res = await call('DELETE', `/series/${S2()}/api_keys/${api_key.id}`, world.secrets.admin);
    expect(res.statusCode).toBe(204);
    expect((await call('GET', `/series/${S2()}`, secret)).statusCode).toBe(401);
    const [audit] = await q(
      `SELECT action, metadata FROM audit_log WHERE action = 'keys.revoke' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toMatchObject({ metadata: { key_kind: 'series_key', key_name: 'Short-lived' } });
    const again = await call('DELETE', `/series/${S2()}/api_keys/${api_key.id}`, world.secrets.admin);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'API key is already revoked' });
    const foreign = await call(
      'DELETE',
      `/series/${world.series.S1.id}/api_keys/${api_key.id}`,
      world.secrets.admin,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'API key not found' });
    expect(
      (await call('DELETE', `/series/${S2()}/api_keys/not-a-uuid`, world.secrets.admin)).statusCode,
    ).toBe(404);
  });
});
