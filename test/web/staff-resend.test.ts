/**
 * Resend from where the problem is (docs/staff-dashboard.md "Resend from where the problem is"), over
 * app.inject with a real SMTP server: guardian link buttons on the participant page and on the
 * overview, an imported registrant's invitation from their page, the pending invitations above the
 * participants table and the words that tell "not started" from "invitation pending"; read_only
 * sees no guardian names; refusals change nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailsSettled, type RegHarness, startRegHarness } from '../registration/harness.js';
import { snapshotDb } from '../support/app.js';
import { addRegistration, type WorldRegistration } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let h: RegHarness;
let ops: Browser;
let readOnly: Browser;
let imported: WorldRegistration;
let eventPath: string;
let minorPath: string;

beforeAll(async () => {
  h = await startRegHarness();
  const A = h.world.events.A.id;
  eventPath = `/staff/events/${A}`;
  minorPath = `${eventPath}/participants/${h.world.regs.minorA.id}`;
  ops = await signedInBrowser(h.t.deps, h.world.users.ops.id);
  readOnly = await signedInBrowser(h.t.deps, h.world.users.readOnly.id);
  imported = await h.t.deps.db.transaction((tx) =>
    addRegistration(tx, {
      eventId: A,
      email: 'imported.person@example.com',
      firstName: 'Ima',
      lastName: 'Ported',
      preferredName: null,
      dateOfBirth: '1990-01-01',
      status: 'invited',
    }),
  );
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const guardianId = async (name: string) =>
  Number(
    (await h.t.deps.db.execute<{ id: number }>(sql`SELECT id FROM guardians WHERE name = ${name}`)).rows[0]!
      .id,
  );

describe('guardian links', () => {
  it('the participant page offers a button per guardian still awaited; it emails a fresh link', async () => {
    const page = await getPage(h.app, ops, minorPath);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Waiting on guardians');
    const gus = await guardianId('Gus Guardian');
    expect(page.body).toContain(`action="${minorPath}/guardians/${gus}/resend"`);
    expect(page.body).toContain('aria-label="Send the link for Gus Guardian"');
    // The guardians table says what a guardian's status means (never a bare "invited").
    expect(page.body).toMatch(/<td>Gus Guardian<\/td>(?:(?!<\/tr>).)*<td>No link sent yet<\/td>/s);
    const after = h.smtp.received.length;
    const res = await postForm(h.app, ops, `${minorPath}/guardians/${gus}/resend`, {}, csrfOf(page.body));
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${minorPath}?done=guardian_link#guardian-links`);
    const mail = await h.smtp.waitFor(
      (m) => m.to.includes('gus.guardian@example.com') && h.smtp.received.indexOf(m) >= after,
    );
    expect(mail.text).toMatch(/\/guardian\/[A-Za-z0-9_-]+/);
    const again = await getPage(h.app, ops, String(res.headers.location));
    expect(again.body).toContain('A new link was emailed to the guardian');
    expect(again.body).toContain('aria-label="Resend the link for Gus Guardian"');
    expect(again.body).toMatch(/<td>Gus Guardian<\/td>(?:(?!<\/tr>).)*<td>Link sent, not yet opened<\/td>/s);
    expect(again.body).not.toMatch(/<td>(pending|invited|accepted)<\/td>/);
  });

  it('an expired link reads "Issue a fresh link"', async () => {
    const gus = await guardianId('Gus Guardian');
    await h.t.deps.db.execute(
      sql`UPDATE guardians SET invite_expires_at = now() - interval '1 day' WHERE id = ${gus}`,
    );
    const page = await getPage(h.app, ops, minorPath);
    expect(page.body).toContain('aria-label="Issue a fresh link for Gus Guardian"');
    expect(page.body).toContain('link expired');
  });

  it('the overview lists the guardians awaited with a resend that comes back to the overview', async () => {
    const page = await getPage(h.app, ops, eventPath);
    expect(page.body).toContain('id="guardians-awaited"');
    expect(page.body).toContain('Gus Guardian');
    const gus = await guardianId('Gus Guardian');
    const res = await postForm(
      h.app,
      ops,
      `${minorPath}/guardians/${gus}/resend`,
      { back: 'overview' },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${eventPath}?done=guardian_link#guardians-awaited`);
    const back = await getPage(h.app, ops, String(res.headers.location));
    expect(back.body).toContain('A new link was emailed to the guardian');
  });

  it('read_only sees the overview without guardian names or invitation counts', async () => {
    const page = await getPage(h.app, readOnly, eventPath);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Gus Guardian');
    expect(page.body).not.toContain('Invitations pending');
  });

  it('a resend the service refuses (registration not awaiting a guardian) changes nothing', async () => {
    await emailsSettled(h);
    const adult = `${eventPath}/participants/${h.world.regs.adultA.id}`;
    const page = await getPage(h.app, ops, adult);
    expect(page.body).not.toContain('Waiting on guardians');
    const before = await snapshotDb(h.t.deps);
    const res = await postForm(h.app, ops, `${adult}/guardians/1/resend`, {}, csrfOf(page.body));
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(await snapshotDb(h.t.deps)).toEqual(before);
  });
});

describe('"not started" and "invitation pending"', () => {
  it('an imported registrant is "Not started" with a button that sends an invitation, then resends it', async () => {
    const path = `${eventPath}/participants/${imported.id}`;
    const page = await getPage(h.app, ops, path);
    expect(page.body).toContain('>Not started</strong>');
    expect(page.body).toContain('No invitation is pending for this person');
    const res = await postForm(h.app, ops, `${path}/invitation`, {}, csrfOf(page.body));
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${path}?done=invitation_sent#invitation`);
    const first = await h.smtp.waitFor((m) => m.to.includes('imported.person@example.com'));
    const sent = await getPage(h.app, ops, String(res.headers.location));
    expect(sent.body).toContain('Invitation pending: sent');
    const again = await postForm(h.app, ops, `${path}/invitation`, {}, csrfOf(sent.body));
    expect(again.headers.location).toBe(`${path}?done=invitation_resent#invitation`);
    await h.smtp.waitFor((m) => m.to.includes('imported.person@example.com') && m !== first);
    const rows = await h.t.deps.db.execute(
      sql`SELECT 1 FROM invitations WHERE email = 'imported.person@example.com' AND status = 'pending'`,
    );
    expect(rows.rows).toHaveLength(1);
  });

  it('a registration that has started cannot be invited (409), nothing changes', async () => {
    await emailsSettled(h);
    const path = `${eventPath}/participants/${h.world.regs.adultA.id}`;
    const page = await getPage(h.app, ops, path);
    expect(page.body).not.toContain('id="invitation"');
    const before = await snapshotDb(h.t.deps);
    const res = await postForm(h.app, ops, `${path}/invitation`, {}, csrfOf(page.body));
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('Only a registration that has not started can be invited');
    expect(await snapshotDb(h.t.deps)).toEqual(before);
  });

  it('the same pending invitation is in the participants table and on the Invitations page', async () => {
    const page = await getPage(h.app, ops, `${eventPath}/invitations`);
    await postForm(
      h.app,
      ops,
      `${eventPath}/invitations`,
      { email: 'pending.one@example.com' },
      csrfOf(page.body),
    );
    const table = await getPage(h.app, ops, `${eventPath}/participants`);
    expect(table.body).toMatch(/Invitations pending: \d+/);
    expect(table.body).toContain('<strong>pending.one@example.com</strong>');
    const searched = await getPage(h.app, ops, `${eventPath}/participants?q=pending.one`);
    expect(searched.body).toContain('pending.one@example.com');
    const filtered = await getPage(h.app, ops, `${eventPath}/participants?status=complete`);
    expect(filtered.body).not.toContain('pending.one@example.com');
    const invitations = await getPage(h.app, ops, `${eventPath}/invitations`);
    expect(invitations.body).toContain('>pending.one@example.com</td>');
    expect(invitations.body).toContain('not started</a>');
    const overview = await getPage(h.app, ops, eventPath);
    expect(overview.body).toMatch(
      /Invitations pending \(emailed, not yet accepted\): <strong><a [^>]+>\d+<\/a>/,
    );
    expect(overview.body).toContain('<span>Not started</span>');
  });
});
