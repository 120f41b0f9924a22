/**
 * The ban list over HTTP against the real database (spec "Ban", "POST /bans", "Errors";
 * docs/decisions.md "Series, events and bans"): creation rules, 422/409 bodies, listing and filters, revoke/reinstate, audit,
 * isBanned() after create/revoke/expiry, who may call, and that refused writes change nothing.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, banEmails, bans } from '../../src/db/schema/index.js';
import { isBanned } from '../../src/modules/bans/bans.service.js';
import { bearer, get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type PrincipalName, type World } from '../support/world.js';

const P = '/api/v1';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BAN_KEYS = [
  'active',
  'created_at',
  'created_by',
  'emails',
  'expires_at',
  'id',
  'reason',
  'revoked_at',
  'status',
].sort();
const ONLY_ADMINS = { error: 'Only global admins can manage the ban list' };
const UNAUTHORIZED = { error: 'Unauthorized' };
const SCOPED = { error: 'This token is limited to: bans:write' };

type Ban = {
  id: string;
  emails: string[];
  reason: string;
  status: string;
  active: boolean;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  created_by: { id: string; name: string } | null;
};

let t: TestApp;
let app: FastifyInstance;
let world: World;
let admin: string;
let n = 0;

/** A fresh address per call, so tests do not collide on the one-ban-per-address rule. */
const fresh = (label = 'x') => `${label}-${++n}@ban.test`;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  admin = world.secrets.admin!;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function post(url: string, secret: string | undefined, payload?: unknown): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: bearer(secret),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function createBan(payload: Record<string, unknown>, secret = admin): Promise<Ban> {
  const res = await post(`${P}/bans`, secret, payload);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { ban: Ban }).ban;
}

async function banCount(): Promise<{ bans: number; emails: number }> {
  const [b] = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(bans);
  const [e] = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(banEmails);
  return { bans: b!.n, emails: e!.n };
}

describe('POST /bans: creation', () => {
  it('a global admin (mobile token) bans one address: 201 with the exact Ban record', async () => {
    const email = fresh('Single');
    const res = await post(`${P}/bans`, admin, { email: `  ${email.toUpperCase()}\t` });
    expect(res.statusCode, res.body).toBe(201);
    expect(Object.keys(res.json())).toEqual(['ban']);
    const ban = (res.json() as { ban: Ban }).ban;
    expect(Object.keys(ban).sort()).toEqual(BAN_KEYS);
    expect(ban).toEqual({
      id: expect.stringMatching(UUID),
      emails: [email.toLowerCase()],
      reason: '',
      status: 'Indefinite',
      active: true,
      expires_at: null,
      revoked_at: null,
      created_at: expect.stringMatching(ISO),
      created_by: { id: world.users.admin.uuid, name: 'Ada Admin' },
    });
    const rows = await t.deps.db.select().from(banEmails).where(eq(banEmails.banId, ban.id));
    expect(rows.map((r) => r.email)).toEqual([email.toLowerCase()]);
  });

  it('`emails` wins over `email`; addresses are trimmed, lowercased and deduplicated in order', async () => {
    const [a, b] = [fresh('a'), fresh('b')];
    const ignored = fresh('ignored');
    const ban = await createBan({
      email: ignored,
      emails: [` ${a.toUpperCase()} `, b, a, `\n${b.toUpperCase()}`, '   '],
      reason: '  Harassment at Summit Alpha  ',
    });
    expect(ban.emails).toEqual([a, b]);
    expect(ban.reason).toBe('Harassment at Summit Alpha');
    const [ignoredRow] = await t.deps.db.select().from(banEmails).where(eq(banEmails.email, ignored));
    expect(ignoredRow).toBeUndefined();
  });

  it('a future expires_at gives an Active ban; offsets are normalised to UTC', async () => {
    const ban = await createBan({ email: fresh(), expires_at: '2099-01-01T01:30:00+01:00' });
    expect(ban).toMatchObject({ status: 'Active', active: true, expires_at: '2099-01-01T00:30:00.000000Z' });
    const micro = await createBan({ email: fresh(), expires_at: '2099-06-30T12:00:00.123456Z' });
    expect(micro.expires_at).toBe('2099-06-30T12:00:00.123456Z');
    const compact = await createBan({ email: fresh(), expires_at: '2099-01-01T00:00+0130' });
    expect(compact.expires_at).toBe('2098-12-31T22:30:00.000000Z');
    const nano = await createBan({ email: fresh(), expires_at: '2099-01-01T00:00:00.123456789-14:00' });
    expect(nano.expires_at).toBe('2099-01-01T14:00:00.123457Z');
  });

  it('an unscoped global token and the bans:write-scoped token may create; created_by is the owner', async () => {
    for (const principal of ['globalToken', 'scopedToken'] as const) {
      const ban = await createBan({ emails: [fresh(principal)] }, world.secrets[principal]);
      expect(ban.created_by).toEqual({ id: world.users.admin.uuid, name: 'Ada Admin' });
    }
  });

  it('every create is audited with the user and the credential', async () => {
    const email = fresh('audited');
    const ban = await createBan(
      { email, reason: 'why', expires_at: '2099-01-01T00:00:00Z' },
      world.secrets.scopedToken,
    );
    const [row] = await t.deps.db.select().from(auditLog).where(eq(auditLog.targetId, ban.id));
    expect(row).toMatchObject({
      action: 'bans.create',
      actorUserId: world.users.admin.id,
      credentialKind: 'global',
      credentialName: 'Ban sync',
      targetType: 'ban',
      metadata: { emails: [email], reason: 'why', expires_at: '2099-01-01T00:00:00Z' },
    });
  });
});

describe('POST /bans: 422 (nothing created)', () => {
  const cases: [string, unknown, string | RegExp][] = [
    ['empty object', {}, 'At least one email is required'],
    ['empty emails', { emails: [] }, 'At least one email is required'],
    ['blank email', { email: '   ' }, 'At least one email is required'],
    ['blank emails', { emails: [' ', '\t'] }, 'At least one email is required'],
    ['emails wins even when empty', { email: 'real@ban.test', emails: [] }, 'At least one email is required'],
    [
      'malformed addresses listed',
      { emails: ['ok@ban.test', 'nope', ' Two@Words ', 'NOPE', 'a b@c.de'] },
      'Invalid email format: nope, two@words, a b@c.de',
    ],
    ['malformed single', { email: 'not-an-email' }, 'Invalid email format: not-an-email'],
    [
      'expires_at words',
      { email: 'e1@ban.test', expires_at: 'tomorrow' },
      /^expires_at must be an ISO 8601 date-time/,
    ],
    [
      'expires_at date only',
      { email: 'e1@ban.test', expires_at: '2099-01-01' },
      /^expires_at must be an ISO 8601 date-time/,
    ],
    [
      'expires_at without zone',
      { email: 'e1@ban.test', expires_at: '2099-01-01T00:00:00' },
      /^expires_at must be an ISO 8601 date-time/,
    ],
    [
      'expires_at impossible date',
      { email: 'e1@ban.test', expires_at: '2099-13-45T00:00:00Z' },
      /^expires_at must be an ISO 8601 date-time/,
    ],
    [
      'expires_at 30 February (no roll-over to March)',
      { email: 'e1@ban.test', expires_at: '2099-02-30T00:00:00Z' },
      /^expires_at must be an ISO 8601 date-time/,
    ],
    [
      'expires_at hour 24',
      { email: 'e1@ban.test', expires_at: '2099-01-01T24:00:00Z' },
      /^expires_at must be an ISO 8601 date-time/,
    ],
    [
      'expires_at offset beyond ±14:00',
      { email: 'e1@ban.test', expires_at: '2099-01-01T00:00:00+23:59' },
      /^expires_at must be an ISO 8601 date-time/,
    ],
    [
      'expires_at offset minutes out of range',
      { email: 'e1@ban.test', expires_at: '2099-01-01T00:00:00+01:75' },
      /^expires_at must be an ISO 8601 date-time/,
    ],
    [
      'expires_at empty string',
      { email: 'e1@ban.test', expires_at: '' },
      /^expires_at must be an ISO 8601 date-time/,
    ],
    ['expires_at null', { email: 'e1@ban.test', expires_at: null }, /^body\.expires_at must be string$/],
    [
      'expires_at number',
      { email: 'e1@ban.test', expires_at: 4102444800 },
      /^body\.expires_at must be string$/,
    ],
    ['expires_at boolean', { email: 'e1@ban.test', expires_at: true }, /^body\.expires_at must be string$/],
    [
      'expires_at object',
      { email: 'e1@ban.test', expires_at: { at: '2099-01-01T00:00:00Z' } },
      'body.expires_at must be string',
    ],
    [
      'expires_at in the past',
      { email: 'e1@ban.test', expires_at: '2001-01-01T00:00:00Z' },
      'expires_at must be in the future',
    ],
    ['unknown field', { email: 'e1@ban.test', note: 'x' }, 'body: unknown field note'],
    [
      'too many addresses',
      { emails: Array.from({ length: 51 }, (_, i) => `m${i}@ban.test`) },
      /^body\.emails must NOT have more than 50 items/,
    ],
    [
      'address too long',
      { email: `${'a'.repeat(320)}@ban.test` },
      /^body\.email must NOT have more than 320 characters/,
    ],
    [
      'reason too long',
      { email: 'e1@ban.test', reason: 'r'.repeat(2001) },
      /^body\.reason must NOT have more than 2000 characters/,
    ],
    ['emails not strings', { emails: [{ email: 'e1@ban.test' }] }, /^body\.emails\.0 must be string/],
    ['body not an object', ['e1@ban.test'], /^body must be object/],
  ];

  it.each(cases)('%s', async (_name, payload, message) => {
    const before = await snapshotDb(t.deps);
    const res = await post(`${P}/bans`, admin, payload);
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json() as { error: string };
    expect(Object.keys(body)).toEqual(['error']);
    if (typeof message === 'string') expect(body.error).toBe(message);
    else expect(body.error).toMatch(message);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('no body at all → 422; malformed JSON → 400', async () => {
    const none = await app.inject({
      method: 'POST',
      url: `${P}/bans`,
      headers: { ...bearer(admin), 'content-type': 'application/json' },
    });
    expect(none.statusCode).toBe(422);
    const bad = await app.inject({
      method: 'POST',
      url: `${P}/bans`,
      headers: { ...bearer(admin), 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'Malformed JSON in request body' });
  });
});

describe('POST /bans: 409 when an address is already on a ban', () => {
  it('lists the conflicting ban and creates nothing', async () => {
    const [a, b, c] = [fresh('a'), fresh('b'), fresh('c')];
    const existing = await createBan({ emails: [a, b], reason: 'first' });
    const before = await snapshotDb(t.deps);
    const res = await post(`${P}/bans`, admin, { emails: [c, ` ${b.toUpperCase()} `] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: `Already banned: ${b}`, bans: [existing] });
    expect(await snapshotDb(t.deps)).toEqual(before);
    expect(await isBanned(t.deps.db, c)).toBe(false);
  });

  it('lists every ban involved, newest first, and counts revoked and expired bans too', async () => {
    const [a, b, c] = [fresh('a'), fresh('b'), fresh('c')];
    const first = await createBan({ email: a });
    const second = await createBan({ email: b });
    expect((await post(`${P}/bans/${second.id}/revoke`, admin)).statusCode).toBe(200);
    const secondNow = ((await get(app, `${P}/bans/${second.id}`, admin)).json() as { ban: Ban }).ban;
    const before = await snapshotDb(t.deps);
    const res = await post(`${P}/bans`, admin, { emails: [a, b, c] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: `Already banned: ${a}, ${b}`, bans: [secondNow, first] });
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('an identical repeat of a create is a 409 carrying the first ban', async () => {
    const payload = { emails: [fresh('repeat')], reason: 'same' };
    const ban = await createBan(payload);
    const res = await post(`${P}/bans`, admin, payload);
    expect(res.statusCode).toBe(409);
    expect((res.json() as { bans: Ban[] }).bans).toEqual([ban]);
  });
});

describe('POST /bans: concurrency', () => {
  it('10 identical POSTs in parallel → exactly one 201, nine 409, one row per address', async () => {
    const emails = [fresh('race'), fresh('race')];
    const before = await banCount();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(`${P}/bans`, admin, { emails, reason: 'race' })),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const created = (results.find((r) => r.statusCode === 201)!.json() as { ban: Ban }).ban;
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json()).toEqual({ error: `Already banned: ${emails.join(', ')}`, bans: [created] });
    }
    const after = await banCount();
    expect(after).toEqual({ bans: before.bans + 1, emails: before.emails + 2 });
    for (const email of emails) {
      const rows = await t.deps.db.select().from(banEmails).where(eq(banEmails.email, email));
      expect(rows).toHaveLength(1);
    }
  });

  it('10 overlapping POSTs (one shared address each) → one 201; the losers create nothing', async () => {
    const shared = fresh('shared');
    const own = Array.from({ length: 10 }, () => fresh('own'));
    const before = await banCount();
    const results = await Promise.all(own.map((o) => post(`${P}/bans`, admin, { emails: [o, shared] })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(9);
    expect(await banCount()).toEqual({ bans: before.bans + 1, emails: before.emails + 2 });
  });
});

describe('GET /bans and GET /bans/{id}', () => {
  let older: Ban;
  let newer: Ban;
  let revoked: Ban;

  beforeAll(async () => {
    older = await createBan({ emails: [fresh('list'), fresh('list')] });
    revoked = await createBan({ email: fresh('list') });
    expect((await post(`${P}/bans/${revoked.id}/revoke`, admin)).statusCode).toBe(200);
    newer = await createBan({ email: fresh('list'), expires_at: '2099-01-01T00:00:00Z' });
    revoked = ((await get(app, `${P}/bans/${revoked.id}`, admin)).json() as { ban: Ban }).ban;
  });

  async function list(query: string, secret = admin) {
    const res = await get(app, `${P}/bans${query}`, secret);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { bans: Ban[]; limit: number; offset: number; has_more: boolean };
  }

  it('lists newest first with paging fields', async () => {
    const body = await list('');
    expect(Object.keys(body).sort()).toEqual(['bans', 'has_more', 'limit', 'offset']);
    expect(body).toMatchObject({ limit: 100, offset: 0, has_more: false });
    const ids = body.bans.map((b) => b.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(revoked.id));
    expect(ids.indexOf(revoked.id)).toBeLessThan(ids.indexOf(older.id));
    const created = body.bans.map((b) => b.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    for (const b of body.bans) expect(Object.keys(b).sort()).toEqual(BAN_KEYS);
  });

  it('the unscoped global token lists too', async () => {
    expect((await list('', world.secrets.globalToken)).bans.length).toBeGreaterThan(0);
  });

  it('?active=true and ?active=false split the list', async () => {
    const active = await list('?active=true&limit=500');
    const inactive = await list('?active=false&limit=500');
    expect(active.bans.every((b) => b.active)).toBe(true);
    expect(inactive.bans.every((b) => !b.active)).toBe(true);
    expect(active.bans.map((b) => b.id)).toContain(newer.id);
    expect(inactive.bans.map((b) => b.id)).toEqual(expect.arrayContaining([revoked.id]));
    const all = await list('?limit=500');
    expect(active.bans.length + inactive.bans.length).toBe(all.bans.length);
  });

  it('?email= matches exactly after trimming and lowercasing; blank is no filter', async () => {
    const second = older.emails[1]!;
    const q = encodeURIComponent(`  ${second.toUpperCase()} `);
    expect((await list(`?email=${q}`)).bans).toEqual([older]);
    expect((await list(`?email=${encodeURIComponent(second.slice(0, -1))}`)).bans).toEqual([]);
    expect((await list('?email=nobody@ban.test')).bans).toEqual([]);
    expect((await list('?email=%20%20')).bans.length).toBe((await list('')).bans.length);
    expect((await list(`?email=${encodeURIComponent(second)}&active=false`)).bans).toEqual([]);
  });

  it('limit and offset page through the list; has_more says when another page exists', async () => {
    const all = (await list('?limit=500')).bans;
    expect(all.length).toBeGreaterThan(3);
    const first = await list('?limit=2');
    expect(first).toMatchObject({ limit: 2, offset: 0, has_more: true });
    expect(first.bans).toEqual(all.slice(0, 2));
    const second = await list('?limit=2&offset=2');
    expect(second.bans).toEqual(all.slice(2, 4));
    const last = await list(`?limit=2&offset=${all.length - 1}`);
    expect(last).toMatchObject({ has_more: false });
    expect(last.bans).toEqual(all.slice(-1));
    expect((await list(`?offset=${all.length}`)).bans).toEqual([]);
  });

  it.each([
    ['limit=0', /^querystring\.limit must be >= 1/],
    ['limit=501', /^querystring\.limit must be <= 500/],
    ['limit=ten', /^querystring\.limit must be integer/],
    ['offset=-1', /^querystring\.offset must be >= 0/],
    ['active=maybe', /^querystring\.active must be boolean/],
  ])('bad query %s → 422', async (query, message) => {
    const res = await get(app, `${P}/bans?${query}`, admin);
    expect(res.statusCode).toBe(422);
    expect((res.json() as { error: string }).error).toMatch(message);
  });

  it('GET /bans/{id} returns the same record as the list; unknown or non-UUID ids are 404', async () => {
    const one = await get(app, `${P}/bans/${older.id}`, admin);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ ban: older });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '12345', older.id.slice(0, -1)]) {
      const res = await get(app, `${P}/bans/${id}`, admin);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'Ban not found' });
    }
  });
});

describe('revoke and reinstate', () => {
  it('revoke sets revoked_at (status Revoked); again → 409; reinstate clears it; again → 409', async () => {
    const ban = await createBan({ email: fresh('rv') });
    const revoke = await post(`${P}/bans/${ban.id}/revoke`, admin);
    expect(revoke.statusCode).toBe(200);
    const revoked = (revoke.json() as { ban: Ban }).ban;
    expect(revoked).toEqual({
      ...ban,
      status: 'Revoked',
      active: false,
      revoked_at: expect.stringMatching(ISO),
    });

    const again = await post(`${P}/bans/${ban.id}/revoke`, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'Ban is already revoked' });

    const reinstate = await post(`${P}/bans/${ban.id}/reinstate`, world.secrets.globalToken);
    expect(reinstate.statusCode).toBe(200);
    expect(reinstate.json()).toEqual({ ban });

    const twice = await post(`${P}/bans/${ban.id}/reinstate`, admin);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ error: 'Ban is not revoked' });
  });

  it('a JSON content type with an empty body works', async () => {
    const ban = await createBan({ email: fresh('empty-body') });
    const res = await app.inject({
      method: 'POST',
      url: `${P}/bans/${ban.id}/revoke`,
      headers: { ...bearer(admin), 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('revoke and reinstate are audited with the credential', async () => {
    const ban = await createBan({ email: fresh('audit') });
    await post(`${P}/bans/${ban.id}/revoke`, admin);
    await post(`${P}/bans/${ban.id}/reinstate`, world.secrets.globalToken);
    const rows = await t.deps.db.select().from(auditLog).where(eq(auditLog.targetId, ban.id));
    expect(rows.map((r) => [r.action, r.credentialKind, r.actorUserId, r.metadata])).toEqual([
      ['bans.create', 'mobile', world.users.admin.id, { emails: ban.emails, reason: '', expires_at: null }],
      ['bans.revoke', 'mobile', world.users.admin.id, { emails: ban.emails }],
      ['bans.reinstate', 'global', world.users.admin.id, { emails: ban.emails }],
    ]);
  });

  it('unknown and non-UUID ids → 404 for both', async () => {
    for (const verb of ['revoke', 'reinstate']) {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
        const res = await post(`${P}/bans/${id}/${verb}`, admin);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Ban not found' });
      }
    }
  });

  it('parallel revokes of one ban → one 200, the rest 409', async () => {
    const ban = await createBan({ email: fresh('par') });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post(`${P}/bans/${ban.id}/revoke`, admin)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(7).fill(409)]);
  });
});

describe('isBanned and expiry', () => {
  it('follows create, revoke, reinstate and expiry; matches after normalisation', async () => {
    const email = fresh('isb');
    expect(await isBanned(t.deps.db, email)).toBe(false);
    const ban = await createBan({ emails: [email, fresh('isb-other')] });
    expect(await isBanned(t.deps.db, email)).toBe(true);
    expect(await isBanned(t.deps.db, `  ${email.toUpperCase()} `)).toBe(true);
    expect(await isBanned(t.deps.db, fresh('unrelated'))).toBe(false);
    expect(await isBanned(t.deps.db, '   ')).toBe(false);

    await post(`${P}/bans/${ban.id}/revoke`, admin);
    expect(await isBanned(t.deps.db, email)).toBe(false);
    await post(`${P}/bans/${ban.id}/reinstate`, admin);
    expect(await isBanned(t.deps.db, email)).toBe(true);

    // Expiry passes (simulated: the API refuses past expiries).
    await t.deps.db
      .update(bans)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(bans.id, ban.id));
    expect(await isBanned(t.deps.db, email)).toBe(false);
    const expired = ((await get(app, `${P}/bans/${ban.id}`, admin)).json() as { ban: Ban }).ban;
    expect(expired).toMatchObject({ status: 'Expired', active: false, revoked_at: null });
    const inactive = (
      await get(app, `${P}/bans?active=false&email=${encodeURIComponent(email)}`, admin)
    ).json() as {
      bans: Ban[];
    };
    expect(inactive.bans.map((b) => b.id)).toEqual([ban.id]);

    // Revoking an expired ban shows Revoked (revocation wins); reinstating brings back Expired.
    await post(`${P}/bans/${ban.id}/revoke`, admin);
    expect(((await get(app, `${P}/bans/${ban.id}`, admin)).json() as { ban: Ban }).ban.status).toBe(
      'Revoked',
    );
    const back = ((await post(`${P}/bans/${ban.id}/reinstate`, admin)).json() as { ban: Ban }).ban;
    expect(back).toMatchObject({ status: 'Expired', active: false });
    expect(await isBanned(t.deps.db, email)).toBe(false);
  });

  it('a ban with a future expiry is in force', async () => {
    const email = fresh('future');
    await createBan({ email, expires_at: new Date(Date.now() + 60_000).toISOString() });
    expect(await isBanned(t.deps.db, email)).toBe(true);
  });
});

describe('who may call (exact bodies; refused writes change nothing)', () => {
  const USERS_AND_KEYS: PrincipalName[] = [
    'participant',
    'readOnly',
    'limited',
    'ops',
    'eventAdmin',
    'safeguarding',
    'seriesOwner',
    'seriesOrganizer',
    'seriesKeyS1',
    'seriesKeyS2',
    'eventKeyA',
    'legacyKeyA',
  ];
  const BAD_CREDENTIALS: PrincipalName[] = [
    'none',
    'garbage',
    'badChecksum',
    'expiredMobile',
    'demotedGlobal',
  ];
  let target: Ban;
  let before: Awaited<ReturnType<typeof snapshotDb>>;

  beforeAll(async () => {
    target = await createBan({ email: fresh('target') });
  });
  beforeEach(async () => {
    before = await snapshotDb(t.deps);
  });

  const routes = () => [
    { method: 'POST' as const, url: `${P}/bans`, payload: { email: fresh('denied') } },
    { method: 'POST' as const, url: `${P}/bans`, payload: { emails: [] } },
    { method: 'GET' as const, url: `${P}/bans` },
    { method: 'GET' as const, url: `${P}/bans/${target.id}` },
    { method: 'POST' as const, url: `${P}/bans/${target.id}/revoke` },
    { method: 'POST' as const, url: `${P}/bans/${target.id}/reinstate` },
  ];

  it.each(USERS_AND_KEYS)(
    '%s → 403 Only global admins can manage the ban list, everywhere',
    async (principal) => {
      for (const r of routes()) {
        const res = await app.inject({ ...r, headers: bearer(world.secrets[principal]) });
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
        expect(res.json(), `${r.method} ${r.url}`).toEqual(ONLY_ADMINS);
      }
      expect(await snapshotDb(t.deps)).toEqual(before);
    },
  );

  it.each(BAD_CREDENTIALS)('%s → 401 Unauthorized, everywhere', async (principal) => {
    for (const r of routes()) {
      const res = await app.inject({ ...r, headers: bearer(world.secrets[principal]) });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('the bans:write-scoped token is refused everywhere but POST /bans', async () => {
    for (const r of routes().slice(2)) {
      const res = await app.inject({ ...r, headers: bearer(world.secrets.scopedToken) });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json()).toEqual(SCOPED);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});
