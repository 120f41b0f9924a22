/**
 * The typed-signature page (GET/POST /register/{pe}/consents/{id}) through app.inject: the text and
 * the form, the name and "I agree" required (422, linked), signing through the consent service
 * (time and IP recorded), someone else's consent 404, CSRF on the post.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let alice: Browser;
let pe: number;
let consentId: number;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  alice = await signedInBrowser(t.deps, world.users.participant.id);
  pe = world.regs.adultA.id;
  await t.deps.db.execute(
    sql`UPDATE consents SET status = 'sent', pending_on = 'participant', signed_at = NULL WHERE registration_id = ${pe} AND consent_type = 'code_of_conduct'`,
  );
  const res = await t.deps.db.execute<{ id: number }>(
    sql`SELECT id FROM consents WHERE registration_id = ${pe} AND consent_type = 'code_of_conduct'`,
  );
  consentId = Number(res.rows[0]!.id);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const url = () => `/register/${pe}/consents/${consentId}`;

async function consentRow() {
  const res = await t.deps.db.execute<{
    status: string;
    signature_name: string | null;
    signature_ip: string | null;
  }>(sql`SELECT status, signature_name, signature_ip FROM consents WHERE id = ${consentId}`);
  return res.rows[0]!;
}

describe('consent signature page', () => {
  it('shows the consent and the signature form', async () => {
    const res = await getPage(app, alice, url());
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Code of conduct</h1>');
    expect(res.body).toContain('<legend>Sign by typing your full name</legend>');
    expect(res.body).toContain('<label for="f-signature_name">Full name</label>');
    expect((await getPage(app, alice, `/register/${pe}`)).body).toContain(`href="${url()}"`);
  });

  it('needs a name and the agreement (422, each linked), and signs nothing meanwhile', async () => {
    const page = await getPage(app, alice, url());
    const res = await postForm(app, alice, url(), { signature_name: '  ' }, csrfOf(page.body));
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('<a href="#f-signature_name">Type your full name to sign</a>');
    expect(res.body).toContain('<a href="#f-agree">Confirm that you have read this and agree to it</a>');
    expect((await consentRow()).status).toBe('sent');
  });

  it('refuses a forged post (403)', async () => {
    const res = await postForm(app, alice, url(), { signature_name: 'Alice', agree: 'true' }, 'forged');
    expect(res.statusCode).toBe(403);
    expect((await consentRow()).status).toBe('sent');
  });

  it("refuses someone else's registration (403) and an unknown consent (404)", async () => {
    const other = await signedInBrowser(t.deps, world.users.ops.id);
    expect((await getPage(app, other, url())).statusCode).toBe(403);
    expect((await getPage(app, alice, `/register/${pe}/consents/999999`)).statusCode).toBe(404);
  });

  it('signs through the consent service and returns to the overview', async () => {
    const page = await getPage(app, alice, url());
    const res = await postForm(
      app,
      alice,
      url(),
      { signature_name: ' Alice Anderson ', agree: 'true' },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/register/${pe}?done=signed`);
    const row = await consentRow();
    expect(row).toMatchObject({ status: 'signed', signature_name: 'Alice Anderson' });
    expect(row.signature_ip).toBe('127.0.0.1');
    const again = await getPage(app, alice, url());
    expect(again.body).toContain('You signed this on');
    const overview = await getPage(app, alice, `/register/${pe}?done=signed`);
    expect(overview.body).toContain('Thank you: your signature is recorded.');
  });
});
