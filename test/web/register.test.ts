/**
 * The registration form pages through app.inject with a signed-in session: the overview, each
 * section rendered from the record, saves through the record service (PATCH semantics), field
 * errors re-rendered with an error summary linked to the inputs (422, never 500), CSRF on every
 * post, other people's registrations refused, no session → /signin.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { anonymousBrowser, type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let alice: Browser;
let pe: number;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  alice = await signedInBrowser(t.deps, world.users.participant.id);
  pe = world.regs.adultA.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function readRecord() {
  const res = await app.inject({
    method: 'GET',
    url: `/api/v1/registrations/${pe}`,
    headers: { authorization: `Bearer ${world.users.participant.mobile}` },
  });
  expect(res.statusCode).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: nested JSON
  return (res.json() as any).participant;
}

describe('registration overview', () => {
  it('lists the sections and the status', async () => {
    const res = await getPage(app, alice, `/register/${pe}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('Signed in as participant@muster.test');
    for (const title of ['About you', 'Accommodation', 'Medical', 'Dietary', 'Accessibility', 'Travel'])
      expect(res.body).toContain(`>${title}</a>`);
    expect(res.body).toContain(`href="/register/${pe}/emergency-contacts"`);
  });

  it('sends someone without a session to sign in, and back afterwards', async () => {
    const res = await getPage(app, anonymousBrowser(), `/register/${pe}/medical`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/signin?next=${encodeURIComponent(`/register/${pe}/medical`)}`);
  });

  it("refuses someone else's registration (403) and unknown ones (404) with an error page", async () => {
    const other = await getPage(app, alice, `/register/${world.regs.minorA.id}`);
    expect(other.statusCode).toBe(403);
    expect(other.body).toContain('This is not your registration');
    const missing = await getPage(app, alice, '/register/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Registration not found');
    const section = await getPage(app, alice, `/register/${pe}/nope`);
    expect(section.statusCode).toBe(404);
  });
});

describe('section forms', () => {
  it('renders a section from the record with labelled fields in fieldsets', async () => {
    const res = await getPage(app, alice, `/register/${pe}/medical`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<legend>Allergies</legend>');
    expect(res.body).toMatch(/<label for="f-allergies">Allergies<\/label>/);
    expect(res.body).toMatch(/<textarea id="f-allergies" name="allergies"[^>]*>Peanuts<\/textarea>/);
  });

  it('saves a section through the record service and moves on to the next section', async () => {
    const page = await getPage(app, alice, `/register/${pe}/dietary`);
    const res = await postForm(
      app,
      alice,
      `/register/${pe}/dietary`,
      {
        diet_type: ' vegetarian ',
        'dietary_detail.intolerances': 'Lactose',
        cross_contamination_risk: 'true',
      },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/register/${pe}/accessibility`);
    const record = await readRecord();
    expect(record.diet_type).toBe('vegetarian');
    expect(record.cross_contamination_risk).toBe(true);
    expect(record.dietary_detail).toEqual({ intolerances: 'Lactose', notes: null });
  });

  it('re-renders invalid input with an error summary linked to the fields (422)', async () => {
    const page = await getPage(app, alice, `/register/${pe}/personal`);
    const res = await postForm(
      app,
      alice,
      `/register/${pe}/personal`,
      {
        'personal.legal_first_name': 'Alice',
        'personal.legal_last_name': 'Anderson',
        'personal.date_of_birth': '2999-01-01',
        phone: 'call me',
      },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('There is a problem');
    expect(res.body).toContain(
      '<a href="#f-phone">Mobile phone must be a phone number in international format',
    );
    expect(res.body).toContain(
      '<a href="#f-personal-date_of_birth">Date of birth must not be in the future</a>',
    );
    expect(res.body).toMatch(
      /id="f-phone" name="phone" value="call me"[^>]*aria-describedby="f-phone-hint f-phone-error" aria-invalid="true"/,
    );
    expect((await readRecord()).personal.date_of_birth).toBe('1990-04-01');
  });

  it('asks for required fields before saving anything', async () => {
    const page = await getPage(app, alice, `/register/${pe}/personal`);
    const res = await postForm(
      app,
      alice,
      `/register/${pe}/personal`,
      { 'personal.legal_first_name': ' ' },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('<a href="#f-personal-legal_first_name">Enter your legal first name</a>');
  });

  it('maps list errors back to the slot on the page', async () => {
    const page = await getPage(app, alice, `/register/${pe}/emergency-contacts`);
    const res = await postForm(
      app,
      alice,
      `/register/${pe}/emergency-contacts`,
      {
        'emergency_contacts[0].name': '',
        'emergency_contacts[1].name': 'Bob',
        'emergency_contacts[1].relationship': 'Brother',
        'emergency_contacts[1].phone': 'nope',
      },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('href="#f-emergency_contacts-1-phone"');
  });

  it('refuses a post without a valid CSRF token (403) and changes nothing', async () => {
    const before = await readRecord();
    const res = await postForm(app, alice, `/register/${pe}/dietary`, { diet_type: 'vegan' }, 'forged');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('This form has expired');
    expect((await readRecord()).diet_type).toBe(before.diet_type);
  });
});

describe('one session lookup per request', () => {
  /** Counts the session-token lookups (queries reading mobile_tokens) made while `run` runs. */
  async function tokenLookups(run: () => Promise<unknown>): Promise<number> {
    const pool = t.deps.database.pool;
    const original = pool.query;
    let n = 0;
    pool.query = ((...args: unknown[]) => {
      const first = args[0] as string | { text?: string };
      const text = typeof first === 'string' ? first : (first?.text ?? '');
      if (/from "mobile_tokens"/i.test(text)) n++;
      return (original as (...a: unknown[]) => unknown).apply(pool, args);
    }) as typeof pool.query;
    try {
      await run();
    } finally {
      pool.query = original;
    }
    return n;
  }

  it('a page view and a form post each look the session up once (page, header, re-render)', async () => {
    let page = { statusCode: 0, body: '' };
    expect(
      await tokenLookups(async () => {
        page = await getPage(app, alice, `/register/${pe}/personal`);
      }),
    ).toBe(1);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Signed in as participant@muster.test');
    let res = { statusCode: 0, body: '' };
    expect(
      await tokenLookups(async () => {
        res = await postForm(
          app,
          alice,
          `/register/${pe}/personal`,
          {
            'personal.legal_first_name': 'Alice',
            'personal.legal_last_name': 'Anderson',
            'personal.date_of_birth': '2999-01-01',
          },
          csrfOf(page.body),
        );
      }),
    ).toBe(1);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Signed in as participant@muster.test');
  });
});
