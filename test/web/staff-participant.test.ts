/**
 * The staff participant page over HTTP (issue 14 items 4–5): per role, what the HTML shows and
 * never contains (the serializer decides: `limited` gets no phone, date of birth, address or
 * guardian contact; only the safeguarding lead and global admin get medical detail), which
 * sections offer an Edit button, section edits through the same service as the API (htmx
 * fragment and plain form, field errors), refusals that change nothing, notes per the notes policy,
 * the lifecycle buttons with their confirmation page, and the history naming fields, never values.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type UserName, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
const browsers = new Map<UserName, Browser>();

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
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
const page = (pe: number, rest = '') => `/staff/events/${world.events.A.id}/participants/${pe}${rest}`;
const open = async (user: UserName, pe: number, rest = '') => getPage(app, await as(user), page(pe, rest));
/** An htmx request (the `HX-Request` header) with the page's CSRF token in `X-CSRF-Token`. */
async function htmx(user: UserName, method: 'GET' | 'POST', url: string, form?: Record<string, string>) {
  const b = await as(user);
  const csrf = csrfOf((await getPage(app, b, page(world.regs.adultA.id))).body);
  const cookie = Object.entries(b.cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  return app.inject({
    method,
    url,
    headers: {
      'hx-request': 'true',
      'x-csrf-token': csrf,
      cookie,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
  });
}
const edits = (html: string) =>
  [...new Set([...html.matchAll(/sections\/([a-z-]+)\/edit"/g)].map((m) => m[1]))].sort();

const PII = [
  '+44 7700 900999',
  '1990-04-01',
  '1 High Street',
  '+44 7700 900100',
  'gina.guardian@example.com',
];
const MEDICAL = ['Peanuts', 'EpiPen then 999', 'No mushrooms', 'Check in twice daily', 'Needs ramp'];

describe('what each role sees', () => {
  it.each([
    ['admin', true, true],
    ['safeguarding', true, true],
    ['eventAdmin', true, false],
    ['ops', true, false],
    ['seriesOrganizer', true, false],
    ['limited', false, false],
  ] as const)('%s: PII %s, medical detail %s', async (user, pii, sensitive) => {
    const html = [
      (await open(user, world.regs.adultA.id)).body,
      (await open(user, world.regs.minorA.id)).body,
    ].join('\n');
    for (const value of PII) expect(html.includes(value), `${user} ${value}`).toBe(pii);
    for (const value of MEDICAL) expect(html.includes(value), `${user} ${value}`).toBe(sensitive);
    expect(html).toContain('Summit Hotel'); // staff-owned accommodation fields, for every role
    expect(html).toContain('Gina Guardian'); // guardians with their status
    expect(html).toContain('Scans by context');
  });

  it('read_only gets a 403 page; the answers are no-store', async () => {
    const res = await open('readOnly', world.regs.adultA.id);
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const ok = await open('ops', world.regs.adultA.id);
    expect(ok.headers['cache-control']).toBe('no-store');
  });

  it('bad input answers a 4xx page, never a 500', async () => {
    const id = world.regs.adultA.id;
    const cases: [string, number][] = [
      [page(99999999), 404],
      [page(world.regs.regB.id), 404], // a registration of another event
      [page(id, '/sections/nope/edit'), 404],
      [page(id, '/sections/nope'), 404],
      [page(id, '/confirm/explode'), 422],
      [`/staff/events/${world.events.A.id}/participants/abc`, 422],
    ];
    for (const [url, status] of cases) {
      const res = await getPage(app, await as('admin'), url);
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
    }
  });

  it('offers Edit only on the sections the role may write', async () => {
    const id = world.regs.adultA.id;
    const all = ['accessibility', 'accommodation', 'dietary', 'emergency-contacts', 'guardians', 'medical'];
    expect(edits((await open('safeguarding', id)).body)).toEqual([
      ...all,
      'personal',
      'safeguarding',
      'travel',
    ]);
    expect(edits((await open('ops', id)).body)).toEqual(['accommodation', 'guardians', 'personal', 'travel']);
    expect(edits((await open('limited', id)).body)).toEqual(['accommodation', 'personal', 'travel']);
  });

  it('limited edits the personal section without the fields it may not see', async () => {
    const res = await open('limited', world.regs.adultA.id, '/sections/personal/edit');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('name="personal.legal_first_name"');
    expect(res.body).not.toContain('date_of_birth');
    expect(res.body).not.toContain('name="phone"');
    expect(res.body).not.toContain('address');
  });
});

describe('section edits', () => {
  it('a safeguarding lead saves the dietary section in place (htmx) and the history names the fields', async () => {
    const id = world.regs.adultA.id;
    const form = await htmx('safeguarding', 'GET', page(id, '/sections/dietary/edit'));
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="dietary_detail.intolerances"');
    expect(form.body).not.toContain('<html');
    const saved = await htmx('safeguarding', 'POST', page(id, '/sections/dietary'), {
      diet_type: 'vegan',
      'dietary_detail.intolerances': 'Soy',
      'dietary_detail.notes': '',
      cross_contamination_risk: 'true', // unchanged: not in the history
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).toMatch(/<section class="record-section" id="sec-dietary"/);
    expect(saved.body).toContain('Soy');
    const lead = (await open('safeguarding', id)).body;
    // Fields by their labels (field-labels.ts); dietary values are never kept, so the lead too
    // reads "changed" (docs/decisions.md "Staff status changes and edits").
    expect(lead).toContain('Record edited by staff: Diet, Intolerances, Dietary notes<');
    expect(lead).toContain('<strong>Diet</strong>: changed');
    expect(lead).not.toMatch(/<span class="new">vegan<\/span>/);
    // Others read the same entry without the sensitive field names, and never the values.
    const ops = (await open('ops', id)).body;
    expect(ops).toContain('Record edited by staff: A sensitive section');
    expect(ops).toContain('<strong>A sensitive section</strong>: changed');
    expect(ops).not.toContain('Soy');
  });

  it('field errors come back on the form, as the participant’s own form shows them', async () => {
    const id = world.regs.adultA.id;
    const res = await htmx('ops', 'POST', page(id, '/sections/personal'), {
      'personal.legal_first_name': 'Alice',
      'personal.legal_last_name': 'Anderson',
      'personal.date_of_birth': '2999-01-01',
      phone: 'not a phone',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Date of birth must not be in the future');
    expect(res.body).toContain('href="#f-phone"');
    expect(res.body).toContain('aria-invalid="true"');
    // Without JavaScript: the same errors on a page of their own.
    const b = await as('ops');
    const plain = await postForm(
      app,
      b,
      page(id, '/sections/personal'),
      { phone: 'nope' },
      csrfOf((await open('ops', id)).body),
    );
    expect(plain.statusCode).toBe(422);
    expect(plain.body).toContain('<html');
  });

  it('a plain form post saves and redirects back to the section', async () => {
    const id = world.regs.adultA.id;
    const b = await as('limited');
    const csrf = csrfOf((await open('limited', id)).body);
    const res = await postForm(
      app,
      b,
      page(id, '/sections/accommodation'),
      { 'accommodation.notes': 'Arrives by taxi' },
      csrf,
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${page(id)}?done=saved#sec-accommodation`);
    expect((await open('limited', id)).body).toContain('Arrives by taxi');
  });

  it('ops is refused the dietary section (403 page) and nothing changes', async () => {
    const id = world.regs.adultA.id;
    expect((await open('ops', id, '/sections/dietary/edit')).statusCode).toBe(403);
    const before = await snapshotDb(t.deps);
    const res = await htmx('ops', 'POST', page(id, '/sections/dietary'), { diet_type: 'carnivore' });
    expect(res.statusCode).toBe(403);
    const plain = await postForm(
      app,
      await as('limited'),
      page(id, '/sections/medical'),
      { allergies: 'x' },
      csrfOf((await open('limited', id)).body),
    );
    expect(plain.statusCode).toBe(403);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});

describe('notes and lifecycle', () => {
  it('notes: added from the page; restricted ones only for the safeguarding lead and admins', async () => {
    const id = world.regs.adultA.id;
    const b = await as('ops');
    const post = (content: string, sensitivity: string) =>
      open('ops', id).then((r) =>
        postForm(app, b, page(id, '/notes'), { content, note_type: 'ops', sensitivity }, csrfOf(r.body)),
      );
    expect((await post('Lost badge at lunch', 'normal')).statusCode).toBe(303);
    expect((await post('Private welfare concern', 'restricted')).statusCode).toBe(303);
    const blank = await post('   ', 'normal');
    expect(blank.statusCode).toBe(422);
    expect(blank.body).toContain('Note content cannot be blank');
    const opsView = (await open('ops', id)).body;
    expect(opsView).toContain('Lost badge at lunch');
    expect(opsView).not.toContain('Private welfare concern');
    expect((await open('safeguarding', id)).body).toContain('Private welfare concern');
  });

  it('withdraw and reinstate through a confirmation page; edits locked while withdrawn', async () => {
    const id = world.regs.adultA.id;
    expect((await open('ops', id)).body).not.toContain('/confirm/withdraw');
    const confirm = await open('eventAdmin', id, '/confirm/withdraw');
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Yes, withdraw');
    const b = await as('eventAdmin');
    const done = await postForm(
      app,
      b,
      page(id, '/status/withdraw'),
      { reason: 'Phoned in' },
      csrfOf(confirm.body),
    );
    expect(done.statusCode).toBe(303);
    const after = (await getPage(app, b, String(done.headers.location))).body;
    expect(after).toContain('The registration is withdrawn.');
    expect(edits(after)).toEqual([]);
    expect(after).toContain('Status Complete → Withdrawn');
    expect(after).not.toContain('Phoned in'); // the reason stays in the audit trail, not the history
    const again = await postForm(app, b, page(id, '/status/withdraw'), {}, csrfOf(after));
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('Registration is already withdrawn');
    const back = await postForm(app, b, page(id, '/status/reinstate'), {}, csrfOf(after));
    expect(back.statusCode).toBe(303);
  });
});
