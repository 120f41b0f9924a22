/**
 * The guardian portal page (GET/POST /guardian/{token}, /complete) through app.inject: the token is
 * the credential, answers are saved through the portal service, validation errors re-render the
 * form (422), completion needs every required permission (422 with each one linked), CSRF on posts.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardians } from '../../src/db/schema/index.js';
import { giveToken } from '../guardian/tokens.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { anonymousBrowser, type Browser, csrfOf, getPage, postForm } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let token: string;
let browser: Browser;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  token = await giveToken(t.deps.db, world.guardianA);
  browser = anonymousBrowser();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const page = (suffix = '') => `/guardian/${token}${suffix}`;
/** The portal as the API answers it (GET /api/v1/guardian/{token}). */
async function portalOf(): Promise<{ guardian: Record<string, unknown> }> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/guardian/${token}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('guardian portal page', () => {
  it('shows the child, the permissions as radio groups and the approve button', async () => {
    const res = await getPage(app, browser, page());
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<h1>Approve .+'s registration<\/h1>/);
    expect(res.body).toContain('<legend>Photos and video of your child may be used in event media</legend>');
    expect(res.body).toContain('name="media_permission" value="granted"');
    expect(res.body).toContain('I approve this registration');
    expect(res.body).not.toContain('Signed in as');
  });

  it('redirects the email link form /guardian/accept?token= to the page', async () => {
    const res = await getPage(app, browser, `/guardian/accept?token=${token}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(page());
  });

  it('answers unknown (404) and expired (410) links with a page', async () => {
    expect((await getPage(app, browser, '/guardian/not-a-real-guardian-token-123')).statusCode).toBe(404);
    const expired = await giveToken(t.deps.db, world.guardianA, -1);
    const res = await getPage(app, browser, `/guardian/${expired}`);
    expect(res.statusCode).toBe(410);
    expect(res.body).toContain('This guardian link has expired');
    token = await giveToken(t.deps.db, world.guardianA);
  });

  it('re-renders invalid answers with linked errors (422) and saves valid ones', async () => {
    const form = await getPage(app, browser, page());
    const bad = await postForm(
      app,
      browser,
      page(),
      { name: 'Gina Guardian', phone: 'call me', media_permission: 'granted' },
      csrfOf(form.body),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain(
      '<a href="#f-phone">Your phone number must be a phone number in international format',
    );
    expect(bad.body).toContain('value="call me"');
    const good = await postForm(
      app,
      browser,
      page(),
      {
        name: 'Gina Guardian',
        phone: '+447700900999',
        relationship: 'Mother',
        media_permission: 'granted',
        photo_permission: 'denied',
        'emergency_contacts[0].name': 'Gus Grandad',
        'emergency_contacts[0].relationship': 'Grandfather',
        'emergency_contacts[0].phone': '+447700900111',
      },
      csrfOf(form.body),
    );
    expect(good.statusCode).toBe(200);
    expect(good.body).toContain('Your answers are saved.');
    const portal = await portalOf();
    expect(portal.guardian).toMatchObject({
      name: 'Gina Guardian',
      media_permission: 'granted',
      photo_permission: 'denied',
    });
    expect((portal.guardian as { emergency_contacts: unknown[] }).emergency_contacts).toHaveLength(1);
  });

  it('asks for every required permission before approving, then approves', async () => {
    await t.deps.db
      .update(guardians)
      .set({ travelPermission: null, emergencyMedicalConsent: null, status: 'accepted' })
      .where(eq(guardians.id, world.guardianA));
    const form = await getPage(app, browser, page());
    const early = await postForm(app, browser, page('/complete'), {}, csrfOf(form.body));
    expect(early.statusCode).toBe(422);
    expect(early.body).toContain('<a href="#f-travel_permission">Answer: ');
    await postForm(
      app,
      browser,
      page(),
      { name: 'Gina Guardian', travel_permission: 'granted', emergency_medical_consent: 'granted' },
      csrfOf(form.body),
    );
    const done = await postForm(app, browser, page('/complete'), {}, csrfOf(form.body));
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Thank you: you have approved this registration.');
    expect((await portalOf()).guardian).toMatchObject({ status: 'completed' });
  });

  it('refuses posts without the CSRF token', async () => {
    const res = await postForm(app, anonymousBrowser(), page(), { name: 'Mallory' }, 'forged');
    expect(res.statusCode).toBe(403);
    expect((await portalOf()).guardian).toMatchObject({ name: 'Gina Guardian' });
  });
});
