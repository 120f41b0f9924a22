/**
 * The invitation landing page (GET /register/accept?token=…) and its "Continue" step: what each
 * kind of token shows, the invitee's account created for the one-time-code sign-in (once, even on
 * repeats), the signed-in variants, and CSRF on the form.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banEmails, bans, invitations, users } from '../../src/db/schema/index.js';
import { createInvitation } from '../../src/modules/registration/invitations/invitations.service.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { anonymousBrowser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function invite(email: string): Promise<string> {
  return t.deps.db.transaction(async (tx) => {
    const created = await createInvitation(t.deps, tx, {
      eventId: world.events.A.id,
      email,
      firstName: 'Nina',
      lastName: 'Newcomer',
      actor: { actorUserId: null },
    });
    return created.token;
  });
}

const landing = (token: string) => `/register/accept?token=${encodeURIComponent(token)}`;

async function usersWith(email: string): Promise<number> {
  const res = await t.deps.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM ${users} WHERE lower(${users.email}) = ${email}`,
  );
  return res.rows[0]!.n;
}

describe('GET /register/accept', () => {
  it('answers an unknown or missing token with a 404 page', async () => {
    for (const url of ['/register/accept?token=not-a-real-token-at-all', '/register/accept']) {
      const res = await getPage(app, anonymousBrowser(), url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('This invitation link is not valid');
    }
  });

  it('shows the event and the invited address, and creates the account on Continue (once)', async () => {
    const token = await invite('nina@example.org');
    const browser = anonymousBrowser();
    const page = await getPage(app, browser, landing(token));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<h1>Register for ${world.events.A.name}</h1>`);
    expect(page.body).toContain('<strong>nina@example.org</strong>');
    expect(page.body).toContain('action="/register/accept/continue"');
    expect(await usersWith('nina@example.org')).toBe(0);
    for (let i = 0; i < 2; i++) {
      const res = await postForm(app, browser, '/register/accept/continue', { token }, csrfOf(page.body));
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/signin?next=${encodeURIComponent(landing(token))}`);
    }
    expect(await usersWith('nina@example.org')).toBe(1);
    const [user] = await t.deps.db.select().from(users).where(eq(users.email, 'nina@example.org'));
    expect(user!.name).toBe('Nina Newcomer');
    expect(user!.globalAdmin).toBe(false);
  });

  it('offers to start when signed in as the invitee, and refuses another account', async () => {
    const token = await invite('otto@example.org');
    const anon = anonymousBrowser();
    const first = await getPage(app, anon, landing(token));
    await postForm(app, anon, '/register/accept/continue', { token }, csrfOf(first.body));
    const [otto] = await t.deps.db.select().from(users).where(eq(users.email, 'otto@example.org'));
    const asOtto = await signedInBrowser(t.deps, otto!.id);
    const page = await getPage(app, asOtto, landing(token));
    expect(page.body).toContain('Start my registration');
    const asAlice = await signedInBrowser(t.deps, world.users.participant.id);
    const other = await getPage(app, asAlice, landing(token));
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain('but this invitation is for <strong>otto@example.org</strong>');
  });

  it('answers expired and revoked invitations with 410 and creates no account', async () => {
    const token = await invite('late@example.org');
    const browser = anonymousBrowser();
    const csrf = csrfOf((await getPage(app, browser, landing(token))).body);
    await t.deps.db.execute(
      sql`UPDATE ${invitations} SET expires_at = now() - interval '1 day' WHERE email = 'late@example.org'`,
    );
    const page = await getPage(app, browser, landing(token));
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('Invitation expired');
    const res = await postForm(app, browser, '/register/accept/continue', { token }, csrf);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(landing(token));
    expect(await usersWith('late@example.org')).toBe(0);
  });

  it('refuses a banned address with a message, without an account', async () => {
    const token = await invite('bad@example.org');
    await t.deps.db.transaction(async (tx) => {
      const [ban] = await tx
        .insert(bans)
        .values({ reason: 'test', createdByUserId: world.users.admin.id })
        .returning({ id: bans.id });
      await tx.insert(banEmails).values({ banId: ban!.id, email: 'bad@example.org' });
    });
    const browser = anonymousBrowser();
    const page = await getPage(app, browser, landing(token));
    const res = await postForm(app, browser, '/register/accept/continue', { token }, csrfOf(page.body));
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('This email is banned from events');
    expect(await usersWith('bad@example.org')).toBe(0);
  });

  it('refuses Continue without the CSRF token', async () => {
    const token = await invite('csrf@example.org');
    const res = await postForm(app, anonymousBrowser(), '/register/accept/continue', { token }, 'forged');
    expect(res.statusCode).toBe(403);
    expect(await usersWith('csrf@example.org')).toBe(0);
  });
});
