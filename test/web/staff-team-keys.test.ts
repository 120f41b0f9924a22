/**
 * Team pages (event and series) and the API keys page over app.inject with a real SMTP server:
 * grant (a new person gets an account and an email), duplicate and bad input re-rendered with the
 * message, remove, the series' last owner kept; a key created with its secret shown once (not on
 * the next visit), the secret working as a bearer, revoke; refusals change nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailsSettled, type RegHarness, startRegHarness } from '../registration/harness.js';
import { bearer, snapshotDb } from '../support/app.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

// Each refusal snapshots the whole database twice: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

let h: RegHarness;
let eventTeam: string;
let seriesTeam: string;
let keys: string;
let eventAdmin: Browser;
let owner: Browser;

beforeAll(async () => {
  h = await startRegHarness();
  eventTeam = `/staff/events/${h.world.events.A.id}/team`;
  seriesTeam = `/staff/series/${h.world.series.S1.slug}/team`;
  keys = `/staff/series/${h.world.series.S1.slug}/api-keys`;
  eventAdmin = await signedInBrowser(h.t.deps, h.world.users.eventAdmin.id);
  owner = await signedInBrowser(h.t.deps, h.world.users.seriesOwner.id);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const csrf = async (b: Browser, url: string) => csrfOf((await getPage(h.app, b, url)).body);

async function roleId(table: 'event_roles' | 'series_roles', email: string): Promise<number> {
  const res = await h.t.deps.db.execute<{ id: number }>(
    sql`SELECT r.id FROM ${sql.identifier(table)} r JOIN users u ON u.id = r.user_id WHERE u.email = ${email}`,
  );
  return Number(res.rows[0]!.id);
}

async function refusedUnchanged(
  b: Browser,
  url: string,
  fields: Record<string, string>,
  token: string,
  status: number,
  text: string,
) {
  await emailsSettled(h);
  const before = await snapshotDb(h.t.deps);
  const res = await postForm(h.app, b, url, fields, token);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(res.body).toContain(text);
  expect(await snapshotDb(h.t.deps)).toEqual(before);
}

describe('event team page', () => {
  it('lists the team; an event admin grants a role to a new person, who is emailed', async () => {
    const page = await getPage(h.app, eventAdmin, eventTeam);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<h1>Event team</h1>');
    expect(page.body).toContain('>Olga Ops</td>');
    expect(page.body).not.toContain('Series team</a>'); // an event admin manages no series roles
    const res = await postForm(
      h.app,
      eventAdmin,
      eventTeam,
      { email: 'New.Helper@example.com', role: 'ops' },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${eventTeam}?notice=invited`);
    const mail = await h.smtp.waitFor((m) => m.to.includes('new.helper@example.com'));
    expect(mail.text).toContain('Summit Alpha');
    const after = await getPage(h.app, eventAdmin, String(res.headers.location));
    expect(after.body).toContain('we emailed them an invitation to sign in');
    expect(after.body).toContain('>new.helper@example.com</td>');
  });

  it('re-renders refusals with the message: duplicate (409), bad email (422), no role (422)', async () => {
    const token = await csrf(eventAdmin, eventTeam);
    await refusedUnchanged(
      eventAdmin,
      eventTeam,
      { email: 'new.helper@example.com', role: 'ops' },
      token,
      409,
      'Error: This user already has this role',
    );
    await refusedUnchanged(
      eventAdmin,
      eventTeam,
      { email: 'nope', role: 'ops' },
      token,
      422,
      'Error: Invalid email format',
    );
    await refusedUnchanged(
      eventAdmin,
      eventTeam,
      { email: 'x@example.com', role: 'owner' },
      token,
      422,
      'Error: Choose a role',
    );
  });

  it('removes a role (303), and it is gone from the list', async () => {
    const id = await roleId('event_roles', 'new.helper@example.com');
    const res = await postForm(
      h.app,
      eventAdmin,
      `${eventTeam}/${id}/remove`,
      {},
      await csrf(eventAdmin, eventTeam),
    );
    expect(res.statusCode).toBe(303);
    const after = await getPage(h.app, eventAdmin, `${eventTeam}?notice=removed`);
    expect(after.body).toContain('Role removed');
    expect(after.body).not.toContain('>new.helper@example.com</td>');
  });

  it('ops may not manage the team (403); nothing changes', async () => {
    const ops = await signedInBrowser(h.t.deps, h.world.users.ops.id);
    expect((await getPage(h.app, ops, eventTeam)).statusCode).toBe(403);
    const token = csrfOf((await getPage(h.app, ops, '/')).body);
    const id = await roleId('event_roles', h.world.users.ops.email);
    await refusedUnchanged(
      ops,
      eventTeam,
      { email: 'x@example.com', role: 'ops' },
      token,
      403,
      'There is a problem',
    );
    await refusedUnchanged(ops, `${eventTeam}/${id}/remove`, {}, token, 403, 'There is a problem');
  });
});

describe('series team page', () => {
  it('the owner sees links to it from the event team page, grants an organizer, cannot remove the last owner', async () => {
    const fromEvent = await getPage(h.app, owner, eventTeam);
    expect(fromEvent.body).toContain(`href="/staff/series/${h.world.series.S1.id}/team">Series team</a>`);
    const page = await getPage(h.app, owner, seriesTeam);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Series team: Summit Series');
    const res = await postForm(
      h.app,
      owner,
      seriesTeam,
      { email: 'orga@example.com', role: 'organizer' },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(303);
    const ownerRole = await roleId('series_roles', h.world.users.seriesOwner.email);
    await refusedUnchanged(
      owner,
      `${seriesTeam}/${ownerRole}/remove`,
      {},
      await csrf(owner, seriesTeam),
      409,
      'Error: A series must keep at least one owner',
    );
  });

  it('an organizer may not open it (403)', async () => {
    const organizer = await signedInBrowser(h.t.deps, h.world.users.seriesOrganizer.id);
    expect((await getPage(h.app, organizer, seriesTeam)).statusCode).toBe(403);
  });
});

describe('API keys page', () => {
  it('creates a key: the secret is shown once, works as a bearer, and is gone on the next visit', async () => {
    const page = await getPage(h.app, owner, keys);
    expect(page.statusCode).toBe(200);
    const res = await postForm(
      h.app,
      owner,
      keys,
      { name: 'Ticketing sync', kind: 'series' },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(keys);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(
      /muster_new_key=[^;]+; Max-Age=60; Path=\/staff\/series\/summit-series\/api-keys; HttpOnly; Secure; SameSite=Strict/,
    );
    const shown = await getPage(h.app, owner, keys);
    const secret = /id="new-key-secret" readonly value="([^"]+)"/.exec(shown.body)?.[1];
    expect(secret).toMatch(/^mst_s_/);
    expect(shown.body).toContain('Key “Ticketing sync” created');
    expect(shown.body).toContain('>Owen Owner</td>');
    const api = await h.app.inject({ method: 'GET', url: `/api/v1/series/current`, headers: bearer(secret) });
    expect(api.statusCode).toBe(200);
    const again = await getPage(h.app, owner, keys);
    expect(again.body).not.toContain(secret!);
    expect(again.body).not.toContain('new-key-secret');
    const stored = await h.t.deps.db.execute<{ d: string }>(
      sql`SELECT string_agg(to_jsonb(k)::text, '') AS d FROM series_api_keys k`,
    );
    expect(stored.rows[0]!.d).not.toContain(secret!);
  });

  it('an event key names an event of the series; refusals re-render with the message', async () => {
    const token = await csrf(owner, keys);
    await refusedUnchanged(
      owner,
      keys,
      { name: '  ', kind: 'series' },
      token,
      422,
      'Error: Key name cannot be blank',
    );
    await refusedUnchanged(
      owner,
      keys,
      { name: 'Door', kind: 'event', event_id: String(h.world.events.C.id) },
      token,
      422,
      'Error: Event is not an event of this series',
    );
    const res = await postForm(
      h.app,
      owner,
      keys,
      { name: 'Door scanner', kind: 'event', event_id: String(h.world.events.B.id) },
      token,
    );
    expect(res.statusCode).toBe(303);
    const shown = await getPage(h.app, owner, keys);
    expect(shown.body).toMatch(/value="mst_e_/);
    expect(shown.body).toContain('>Summit Beta</td>');
  });

  it('revokes a key: 303, then the key is refused', async () => {
    await postForm(h.app, owner, keys, { name: 'Short lived', kind: 'series' }, await csrf(owner, keys));
    const shown = await getPage(h.app, owner, keys);
    const secret = /id="new-key-secret" readonly value="([^"]+)"/.exec(shown.body)![1]!;
    const row = await h.t.deps.db.execute<{ uuid: string }>(
      sql`SELECT uuid::text FROM series_api_keys WHERE name = 'Short lived'`,
    );
    const res = await postForm(h.app, owner, `${keys}/${row.rows[0]!.uuid}/revoke`, {}, csrfOf(shown.body));
    expect(res.statusCode).toBe(303);
    expect((await getPage(h.app, owner, String(res.headers.location))).body).toContain('Key revoked');
    const api = await h.app.inject({ method: 'GET', url: `/api/v1/series/current`, headers: bearer(secret) });
    expect(api.statusCode).toBe(401);
  });

  it('an organizer may neither see nor create keys (403); nothing changes', async () => {
    const organizer = await signedInBrowser(h.t.deps, h.world.users.seriesOrganizer.id);
    expect((await getPage(h.app, organizer, keys)).statusCode).toBe(403);
    const token = csrfOf((await getPage(h.app, organizer, '/')).body);
    await refusedUnchanged(
      organizer,
      keys,
      { name: 'Sneaky', kind: 'series' },
      token,
      403,
      'There is a problem',
    );
  });
});
