/**
 * The invitations page over app.inject with a real SMTP server: invite one (and its field error),
 * paste a list (per-line outcomes, refused lines kept to fix), resend and revoke buttons, CSRF,
 * headers, and refusals that change nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailsSettled, type RegHarness, startRegHarness, tokenIn } from '../registration/harness.js';
import { snapshotDb } from '../support/app.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let h: RegHarness;
let page: string;
let ops: Browser;

beforeAll(async () => {
  h = await startRegHarness();
  page = `/staff/events/${h.world.events.A.id}/invitations`;
  ops = await signedInBrowser(h.t.deps, h.world.users.ops.id);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function csrf(b: Browser): Promise<string> {
  return csrfOf((await getPage(h.app, b, page)).body);
}

async function pending(email: string) {
  const res = await h.t.deps.db.execute<{ id: number }>(
    sql`SELECT id FROM invitations WHERE email = ${email} AND status = 'pending'`,
  );
  return res.rows.map((r) => Number(r.id));
}

describe('invitations page', () => {
  it('GET: the forms and the pending list, no-store, scripts from this origin only', async () => {
    const res = await getPage(h.app, ops, page);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('<h1>Invitations</h1>');
    expect(res.body).toContain('<label for="invite-email">Email address</label>');
    expect(res.body).toContain('<label for="invite-list">Email addresses, one per line</label>');
    expect(res.body).toContain('aria-current="page">Invitations</a>');
  });

  it('invites one person: 303 with a notice, the email arrives, the row is listed', async () => {
    const res = await postForm(
      h.app,
      ops,
      page,
      { email: 'Page.One@Example.com', first_name: 'Pat' },
      await csrf(ops),
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${page}?notice=invited`);
    await h.smtp.waitFor((m) => m.to.includes('page.one@example.com'));
    const listed = await getPage(h.app, ops, String(res.headers.location));
    expect(listed.body).toContain('Invitation sent.');
    expect(listed.body).toContain('>page.one@example.com</td>');
    expect(listed.body).toContain('by Olga Ops');
  });

  it('a refused invite re-renders the form with the message on the field (422), nothing sent', async () => {
    await emailsSettled(h);
    const before = await snapshotDb(h.t.deps);
    const res = await postForm(
      h.app,
      ops,
      page,
      { email: 'not-an-email', first_name: 'Kim' },
      await csrf(ops),
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Error: Invalid email format');
    expect(res.body).toContain('href="#invite-email"');
    expect(res.body).toMatch(/id="invite-email" name="email" value="not-an-email"[^>]*aria-invalid="true"/);
    expect(res.body).toContain('value="Kim"');
    expect(await snapshotDb(h.t.deps)).toEqual(before);
  });

  it('a pasted list: each line’s outcome; refused lines stay in the box', async () => {
    const list = [
      'list.a@example.com',
      'not-an-email',
      '',
      'list.b@example.com, Bea, Bee',
      'LIST.A@example.com',
    ].join('\n');
    const res = await postForm(h.app, ops, `${page}/list`, { list }, await csrf(ops));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Sent 2 of 4');
    expect(res.body).toContain('Line 1: list.a@example.com — sent');
    expect(res.body).toContain(
      'Line 2: not-an-email — <strong class="field-error">Error: Invalid email format</strong>',
    );
    expect(res.body).toContain('Line 4: list.b@example.com — sent');
    expect(res.body).toContain(
      'Line 5: LIST.A@example.com — <strong class="field-error">Error: An invitation has already been sent to this email</strong>',
    );
    expect(res.body).toMatch(
      /<textarea id="invite-list"[^>]*>not-an-email\nLIST\.A@example\.com<\/textarea>/,
    );
    expect(await pending('list.a@example.com')).toHaveLength(1);
    const b = await h.t.deps.db.execute<{ first_name: string; last_name: string }>(
      sql`SELECT first_name, last_name FROM invitations WHERE email = 'list.b@example.com'`,
    );
    expect(b.rows[0]).toEqual({ first_name: 'Bea', last_name: 'Bee' });
    await h.smtp.waitFor((m) => m.to.includes('list.b@example.com'));
  });

  it.each([
    ['an empty list', '\n  \n', 'Paste at least one email address'],
    [
      '201 lines',
      Array.from({ length: 201 }, (_, i) => `many${i}@example.com`).join('\n'),
      'Paste at most 200 addresses at a time',
    ],
  ])('%s → 422, nothing sent', async (_name, list, message) => {
    await emailsSettled(h);
    const before = await snapshotDb(h.t.deps);
    const res = await postForm(h.app, ops, `${page}/list`, { list }, await csrf(ops));
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(`Error: ${message}`);
    expect(await snapshotDb(h.t.deps)).toEqual(before);
  });

  it('Resend sends a fresh link; Revoke removes it from the list', async () => {
    await postForm(h.app, ops, page, { email: 'buttons@example.com' }, await csrf(ops));
    const [id] = await pending('buttons@example.com');
    const listed = await getPage(h.app, ops, page);
    expect(listed.body).toContain(`action="${page}/${id}/resend"`);
    expect(listed.body).toContain('aria-label="Revoke the invitation to buttons@example.com"');
    const mails = () => h.smtp.received.filter((m) => m.to.includes('buttons@example.com'));
    await h.smtp.waitFor(() => mails().length === 1);
    const resent = await postForm(h.app, ops, `${page}/${id}/resend`, {}, csrfOf(listed.body));
    expect(resent.statusCode).toBe(303);
    expect(resent.headers.location).toBe(`${page}?notice=resent`);
    await h.smtp.waitFor(() => mails().length === 2);
    expect(tokenIn(mails()[1]!)).not.toBe(tokenIn(mails()[0]!));
    const revoked = await postForm(h.app, ops, `${page}/${id}/revoke`, {}, await csrf(ops));
    expect(revoked.statusCode).toBe(303);
    const after = await getPage(h.app, ops, `${page}?notice=revoked`);
    expect(after.body).toContain('Invitation revoked');
    expect(after.body).not.toContain('>buttons@example.com</td>');
    const again = await postForm(h.app, ops, `${page}/${id}/revoke`, {}, await csrf(ops));
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('This invitation is no longer pending');
  });

  it('refusals change nothing: read_only (403), no CSRF (403), another event’s invitation (404)', async () => {
    const invC = await h.t.deps.db.execute<{ id: number }>(sql`
      INSERT INTO invitations (event_id, email, token_digest, expires_at)
      VALUES (${h.world.events.C.id}, 'foreign@example.com', 'digest-foreign', now() + interval '1 day') RETURNING id`);
    const [mine] = await pending('page.one@example.com');
    await emailsSettled(h);
    const readOnly = await signedInBrowser(h.t.deps, h.world.users.readOnly.id);
    const token = await csrf(ops);
    const readOnlyCsrf = csrfOf((await getPage(h.app, readOnly, '/')).body);
    const before = await snapshotDb(h.t.deps);
    const cases: [Browser, string, Record<string, string>, string | undefined, number][] = [
      [readOnly, page, { email: 'ro@example.com' }, readOnlyCsrf, 403],
      [readOnly, `${page}/list`, { list: 'ro@example.com' }, readOnlyCsrf, 403],
      [readOnly, `${page}/${mine}/revoke`, {}, readOnlyCsrf, 403],
      [ops, page, { email: 'nocsrf@example.com' }, undefined, 403],
      [ops, `${page}/${mine}/revoke`, {}, 'forged', 403],
      [ops, `${page}/${invC.rows[0]!.id}/revoke`, {}, token, 404],
      [ops, `${page}/abc/resend`, {}, token, 404],
    ];
    for (const [b, url, fields, c, status] of cases) {
      const res = await postForm(h.app, b, url, fields, c);
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    expect((await getPage(h.app, readOnly, page)).statusCode).toBe(403);
    expect(await snapshotDb(h.t.deps)).toEqual(before);
  }, 120_000);

  it('a guardian’s Resend button: 303 to the participant page, a fresh portal link emailed; read_only refused', async () => {
    const pe = h.world.regs.minorA.id;
    const gus = await h.t.deps.db.execute<{ id: number }>(
      sql`SELECT id FROM guardians WHERE registration_id = ${pe} AND name = 'Gus Guardian'`,
    );
    const url = `/staff/events/${h.world.events.A.id}/participants/${pe}/guardians/${gus.rows[0]!.id}/resend`;
    const readOnly = await signedInBrowser(h.t.deps, h.world.users.readOnly.id);
    await emailsSettled(h);
    const before = await snapshotDb(h.t.deps);
    const refused = await postForm(
      h.app,
      readOnly,
      url,
      {},
      csrfOf((await getPage(h.app, readOnly, '/')).body),
    );
    expect(refused.statusCode).toBe(403);
    expect(await snapshotDb(h.t.deps)).toEqual(before);
    const res = await postForm(h.app, ops, url, {}, await csrf(ops));
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(
      `/staff/events/${h.world.events.A.id}/participants/${pe}?done=guardian_link#guardian-links`,
    );
    const mail = await h.smtp.waitFor((m) => m.to.includes('gus.guardian@example.com'));
    expect(mail.text).toContain('/guardian/accept?token=');
  });
});
