/**
 * Plain words on every page (issue 25 item 4, docs/staff-dashboard.md "Plain words"): every staff
 * page of the page matrix (test/access/rows/staff/) as every role that may open it, the refusal
 * and not-found pages, the participant page's history after edits, the validation errors of
 * the forms, and the participant's own pages (home, their data, each registration section, bad links), each scanned for wire field names and ISO 8601 timestamps in the text a person reads
 * (test/web/plain.ts). A self-test proves the scan fails on a fixture that has them.
 */
import { readdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEETS, type StaffPage, type StaffTarget } from '../access/rows/staff/types.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type UserName, type World } from '../support/world.js';
import { plainProblems } from './plain.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

const ROWS_DIR = new URL('../access/rows/staff/', import.meta.url);
const files = readdirSync(ROWS_DIR).filter((f) => f.endsWith('.ts') && f !== 'types.ts');
const pages: StaffPage[] = (
  await Promise.all(files.map(async (f) => (await import(new URL(f, ROWS_DIR).href)).pages as StaffPage[]))
).flat();
/** The HTML pages a GET opens (not the scripts' JSON, streams or file downloads). */
const htmlPages = pages.filter(
  (p) => p.route.startsWith('GET ') && !p.answers && !p.contentType && p.allowed === undefined,
);

let t: TestApp;
let app: FastifyInstance;
let world: World;
const browsers = new Map<string, Browser>();

async function browserOf(user: UserName): Promise<Browser> {
  let b = browsers.get(user);
  if (!b) {
    b = await signedInBrowser(t.deps, world.users[user].id);
    browsers.set(user, b);
  }
  return b;
}

const own = (): StaffTarget => ({
  event: world.events.A.id,
  series: world.series.S1.id,
  pe: world.regs.adultA.id,
});

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  // History worth reading: a safeguarding lead's edits of a phone, a diet detail and a medical field.
  const sg = await browserOf('safeguarding');
  const pe = `/staff/events/${world.events.A.id}/participants/${world.regs.adultA.id}`;
  const csrf = csrfOf((await getPage(app, sg, pe)).body);
  for (const [section, fields] of [
    ['contact', { phone: '+447700900123' }],
    ['dietary', { 'dietary_detail.intolerances': 'lactose' }],
    ['medical', { 'medical_detail.conditions': 'asthma' }],
  ] as const)
    await postForm(app, sg, `${pe}/sections/${section}`, fields, csrf);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the plain-words scan', () => {
  it('fails on a wire field name and on an ISO 8601 time (self-test)', () => {
    const fixture =
      '<html><head><title>Leif</title></head><body><h1>History</h1><p>Record edited: dietary_detail.intolerances</p>' +
      '<p title="ends_at">When: 2026-07-10T09:00:00.000Z</p><button aria-label="Resend to ann@x.org">Go</button>' +
      '<script>const snake_case = 1;</script><code>Europe/London</code><input name="diet_type" value="x_y"></body></html>';
    const problems = plainProblems(fixture);
    expect(problems.join('\n')).toContain('dietary_detail.intolerances');
    expect(problems.join('\n')).toContain('ends_at');
    expect(problems.join('\n')).toContain('ISO 8601');
    expect(problems).toHaveLength(3);
    expect(
      plainProblems('<p>End must not be before start; ann_lee@example.org, America/New_York</p>'),
    ).toEqual([]);
  });
});

const cases = htmlPages.flatMap((page) =>
  (MEETS[page.who] as UserName[])
    .filter((u) => u !== 'participant' || page.who === 'authenticated')
    .map((user) => [`${page.route} as ${user}`, page, user] as const),
);

describe('staff pages read plainly', () => {
  it.each(cases)('%s', async (_name, page, user) => {
    const res = await getPage(app, await browserOf(user), page.url(own()));
    expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
    if (String(res.headers['content-type']).startsWith('text/html'))
      expect(plainProblems(res.body)).toEqual([]);
  });
});

describe('refusals and validation errors read plainly', () => {
  const event = () => `/staff/events/${world.events.A.id}`;
  const expectPlainPage = (res: { statusCode: number; body: string }, status: number, words: string) => {
    expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
    expect(res.body).toContain(words);
    expect(plainProblems(res.body)).toEqual([]);
  };

  it('a role that may open the event but not this page: "You may not open this page"', async () => {
    const res = await getPage(app, await browserOf('limited'), `${event()}/team`);
    expectPlainPage(res, 403, 'You may not open this page');
    expect(res.body).not.toContain('You do not have access to this event');
    // Someone with no role on the event still hears that they have no access to it.
    const foreign = await getPage(app, await browserOf('limited'), `/staff/events/${world.events.C.id}/team`);
    expectPlainPage(foreign, 403, 'You do not have access to this event');
  });

  it('a missing event and a missing participant are plain 404 pages', async () => {
    expectPlainPage(
      await getPage(app, await browserOf('admin'), '/staff/events/999999999'),
      404,
      'not found',
    );
    expectPlainPage(
      await getPage(app, await browserOf('admin'), `${event()}/participants/999999999`),
      404,
      'not found',
    );
  });

  it('the setup wizard names fields by their labels', async () => {
    const b = await browserOf('eventAdmin');
    const csrf = csrfOf((await getPage(app, b, `${event()}/setup/details`)).body);
    const post = (fields: Record<string, string>) =>
      postForm(app, b, `${event()}/setup/details`, fields, csrf);
    expectPlainPage(
      await post({ name: 'Camp', timezone: 'London' }),
      422,
      'Time zone must be an IANA time zone name such as Europe/London; got London',
    );
    expectPlainPage(
      await post({
        name: 'Camp',
        timezone: 'Europe/London',
        starts_at: '2031-07-10T09:00',
        ends_at: '2031-07-09T09:00',
      }),
      422,
      'End must not be before start',
    );
  });

  it('an announcement sent in the past says "Send time must be in the future"', async () => {
    const b = await browserOf('eventAdmin');
    const csrf = csrfOf((await getPage(app, b, `${event()}/announcements`)).body);
    const res = await postForm(
      app,
      b,
      `${event()}/announcements`,
      {
        audience: 'participants',
        statuses: 'complete',
        subject: 'Hello',
        body: 'Hello all',
        when: 'later',
        send_at: '2020-01-01T09:00',
        intent: 'send',
      },
      csrf,
    );
    expectPlainPage(res, 422, 'Send time must be in the future');
  });
});

describe('participant pages read plainly', () => {
  const own = () => `/register/${world.regs.adultA.id}`;
  const urls = () => [
    '/',
    '/signin?next=%2F',
    '/my-data',
    own(),
    ...[
      'personal',
      'accommodation',
      'medical',
      'dietary',
      'accessibility',
      'travel',
      'emergency-contacts',
    ].map((s) => `${own()}/${s}`),
    '/register/accept?token=not-a-real-invitation-token',
    '/guardian/not-a-real-guardian-token',
  ];

  it('as the participant: home, sign-in, their data, their registration and each section, bad links', async () => {
    const b = await browserOf('participant');
    for (const url of urls()) {
      const res = await getPage(app, b, url);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      if (String(res.headers['content-type']).startsWith('text/html'))
        expect(plainProblems(res.body), url).toEqual([]);
    }
  });
});
