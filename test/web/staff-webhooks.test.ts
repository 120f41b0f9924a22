/**
 * Webhooks pages over app.inject against a real database (issue 29 item 1; docs/webhooks.md
 * "Outbound"): an event admin adds an endpoint (the secret shown once: on the page the create
 * redirects to, not on the next visit, never stored in plain text), pings it, redelivers, switches
 * it off and on, rotates (a new secret shown once), deletes; refusals (a refused URL, no event
 * type, a ping to a switched-off endpoint) are re-rendered with the message and change nothing;
 * ops may not manage webhooks and a series organizer may not manage the series' (403, nothing
 * changes); a series owner manages the series' endpoints; one scope never reaches another's id.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

vi.setConfig({ testTimeout: 120_000 });

let t: TestApp;
let w: World;
let admin: Browser;
let list: string;
const PUBLIC_URL = 'https://93.184.216.34/hook'; // a public literal: no DNS, never contacted (no worker runs)

beforeAll(async () => {
  t = await startTestApp();
  w = await buildWorld(t.deps);
  admin = await signedInBrowser(t.deps, w.users.eventAdmin.id);
  list = `/staff/events/${w.events.A.id}/webhooks`;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const csrf = async (b: Browser, url: string) => csrfOf((await getPage(t.app, b, url)).body);
const secretOn = (html: string) => /id="new-secret-value" readonly value="([^"]+)"/.exec(html)?.[1] ?? null;

async function refusedUnchanged(
  b: Browser,
  url: string,
  fields: Record<string, string | string[]>,
  status: number,
  text: string,
) {
  const token = await csrf(b, b === admin ? list : '/');
  const before = await snapshotDb(t.deps);
  const res = await postForm(t.app, b, url, fields, token);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(res.body).toContain(text);
  expect(await snapshotDb(t.deps)).toEqual(before);
}

describe('event webhooks page', () => {
  let hook: string;
  let secret: string;

  it('lists none, no-store, in the event navigation', async () => {
    const page = await getPage(t.app, admin, list);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<h1>Webhooks</h1>');
    expect(page.body).toContain('No webhooks yet.');
    expect(page.body).toContain(`<a href="${list}" aria-current="page">Webhooks</a>`);
  });

  it('re-renders refused input with the message; nothing is stored', async () => {
    await refusedUnchanged(
      admin,
      list,
      { url: 'https://10.0.0.1/hook', event_types: 'scan.created' },
      422,
      'Error: Webhook URL must not point to a private, loopback or link-local address',
    );
    await refusedUnchanged(
      admin,
      list,
      { url: 'http://93.184.216.34/hook', event_types: 'scan.created' },
      422,
      'Error: Webhook URL must use https',
    );
    await refusedUnchanged(admin, list, { url: PUBLIC_URL }, 422, 'Error: Choose at least one event type');
    await refusedUnchanged(
      admin,
      list,
      { url: PUBLIC_URL, event_types: 'scan.nope' },
      422,
      'Unknown event type',
    );
  });

  it('adds one: the secret is shown once on the page it redirects to, and stored only sealed', async () => {
    const res = await postForm(
      t.app,
      admin,
      list,
      { url: PUBLIC_URL, description: 'Warehouse', event_types: ['scan.created', 'pickup.collected'] },
      await csrf(admin, list),
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    hook = String(res.headers.location);
    expect(hook).toMatch(new RegExp(`^${list}/\\d+$`));
    const page = await getPage(t.app, admin, hook);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    secret = secretOn(page.body)!;
    expect(secret).toMatch(/^whsec_/);
    expect(page.body).toContain('scan.created, pickup.collected');
    const again = await getPage(t.app, admin, hook);
    expect(secretOn(again.body)).toBeNull();
    expect(again.body).not.toContain(secret);
    const stored = await t.deps.database.pool.query('SELECT * FROM webhook_endpoints');
    expect(JSON.stringify(stored.rows)).not.toContain(secret.slice(6));
    const audit = await t.deps.database.pool.query(
      "SELECT action FROM audit_log WHERE action LIKE 'webhooks.%'",
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['webhooks.create']);
  });

  it('pings, shows the delivery in the log, redelivers it', async () => {
    const res = await postForm(t.app, admin, `${hook}/ping`, {}, await csrf(admin, hook));
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${hook}?notice=ping`);
    const page = await getPage(t.app, admin, String(res.headers.location));
    expect(page.body).toContain('Ping queued');
    const delivery = /action="[^"]+\/deliveries\/(\d+)\/redeliver"/.exec(page.body)?.[1];
    expect(delivery).toBeDefined();
    expect(page.body).toContain('<td data-label="Type">ping<br>');
    expect(page.body).toContain('<td data-label="Status">pending');
    const again = await postForm(
      t.app,
      admin,
      `${hook}/deliveries/${delivery}/redeliver`,
      {},
      await csrf(admin, hook),
    );
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`${hook}?notice=redelivered`);
  });

  it('switches off (a ping then refused, nothing changes), on again; rotates with a new secret shown once', async () => {
    const off = await postForm(
      t.app,
      admin,
      `${hook}/enabled`,
      { enabled: 'false' },
      await csrf(admin, hook),
    );
    expect(off.headers.location).toBe(`${hook}?notice=disabled`);
    expect((await getPage(t.app, admin, hook)).body).toContain('<dd>Off</dd>');
    const token = await csrf(admin, hook);
    const before = await snapshotDb(t.deps);
    const ping = await postForm(t.app, admin, `${hook}/ping`, {}, token);
    expect(ping.statusCode).toBe(409);
    expect(ping.body).toContain('This webhook is switched off: switch it on first');
    expect(await snapshotDb(t.deps)).toEqual(before);
    await postForm(t.app, admin, `${hook}/enabled`, { enabled: 'true' }, token);
    expect((await getPage(t.app, admin, hook)).body).toContain('<dd>On</dd>');

    const rotated = await postForm(t.app, admin, `${hook}/rotate`, {}, token);
    expect(rotated.headers.location).toBe(`${hook}?notice=rotated`);
    const page = await getPage(t.app, admin, String(rotated.headers.location));
    const fresh = secretOn(page.body);
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(page.body).toContain('Still signs until');
    expect(secretOn((await getPage(t.app, admin, hook)).body)).toBeNull();
  });

  it('ops may not manage webhooks: 403 for the page and every form, nothing changes', async () => {
    const ops = await signedInBrowser(t.deps, w.users.ops.id);
    expect((await getPage(t.app, ops, list)).statusCode).toBe(403);
    expect((await getPage(t.app, ops, hook)).statusCode).toBe(403);
    expect((await getPage(t.app, ops, `/staff/events/${w.events.A.id}`)).body).not.toContain('>Webhooks</a>');
    await refusedUnchanged(
      ops,
      list,
      { url: PUBLIC_URL, event_types: 'scan.created' },
      403,
      'There is a problem',
    );
    for (const action of ['ping', 'rotate', 'delete'])
      await refusedUnchanged(ops, `${hook}/${action}`, {}, 403, 'There is a problem');
    await refusedUnchanged(ops, `${hook}/enabled`, { enabled: 'false' }, 403, 'There is a problem');
  });

  it('deletes it (303 to the list, gone)', async () => {
    const res = await postForm(t.app, admin, `${hook}/delete`, {}, await csrf(admin, hook));
    expect(res.headers.location).toBe(`${list}?notice=deleted`);
    const page = await getPage(t.app, admin, String(res.headers.location));
    expect(page.body).toContain('Webhook deleted');
    expect(page.body).toContain('No webhooks yet.');
    expect((await getPage(t.app, admin, hook)).statusCode).toBe(404);
  });
});

describe('series webhooks page', () => {
  it('a series owner adds one; an organizer is refused (nothing changes); the event page never reaches its id', async () => {
    const owner = await signedInBrowser(t.deps, w.users.seriesOwner.id);
    const series = `/staff/series/${w.series.S1.slug}/webhooks`;
    const page = await getPage(t.app, owner, series);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<h1>Webhooks: ${w.series.S1.name}</h1>`);
    expect((await getPage(t.app, owner, list)).body).toContain('Series webhooks</a>');
    const res = await postForm(
      t.app,
      owner,
      series,
      { url: PUBLIC_URL, event_types: 'scan.created' },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(303);
    const id = String(res.headers.location).split('/').pop();
    expect(secretOn((await getPage(t.app, owner, String(res.headers.location))).body)).toMatch(/^whsec_/);

    const organizer = await signedInBrowser(t.deps, w.users.seriesOrganizer.id);
    expect((await getPage(t.app, organizer, series)).statusCode).toBe(403);
    expect((await getPage(t.app, organizer, list)).statusCode).toBe(200); // the event's: organizers manage those
    await refusedUnchanged(
      organizer,
      series,
      { url: PUBLIC_URL, event_types: 'scan.created' },
      403,
      'There is a problem',
    );
    // The series' endpoint is not one of event A's.
    expect((await getPage(t.app, owner, `${list}/${id}`)).statusCode).toBe(404);
    await refusedUnchanged(owner, `${list}/${id}/delete`, {}, 404, '');
  });
});
