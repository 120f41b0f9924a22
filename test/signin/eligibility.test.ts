/**
 * Who gets a code: existing users and registrants (participants.test.ts), but not a banned
 * participant — a user with no global admin, event or series role whose address is on a ban in force. Staff on the ban list
 * keep signing in. The page is identical either way (no account enumeration).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailLog, users } from '../../src/db/schema/index.js';
import {
  ban,
  codeFor,
  makeEvent,
  makeUser,
  requestCode,
  type SigninApp,
  startSigninApp,
  verify,
} from './harness.js';

let t: SigninApp;

beforeAll(async () => {
  t = await startSigninApp();
  const event = await makeEvent(t.deps);
  const admin = await makeUser(t.deps, 'admin@example.org', { globalAdmin: true });
  await makeUser(t.deps, 'banned@example.org');
  await makeUser(t.deps, 'banned-ops@example.org', { opsOf: event.id });
  await makeUser(t.deps, 'banned-organizer@example.org', { organizerOf: event.seriesId });
  await makeUser(t.deps, 'banned-admin@example.org', { globalAdmin: true });
  await makeUser(t.deps, 'revoked-ban@example.org');
  await makeUser(t.deps, 'ok@example.org');
  await ban(
    t.deps,
    [
      'banned@example.org',
      'banned-ops@example.org',
      'banned-organizer@example.org',
      'banned-admin@example.org',
    ],
    admin.id,
  );
  await ban(t.deps, ['revoked-ban@example.org'], admin.id);
  await t.deps.db.execute(
    sql`UPDATE bans SET revoked_at = now() WHERE id = (SELECT ban_id FROM ban_emails WHERE email = 'revoked-ban@example.org')`,
  );
});
afterAll(async () => {
  await t?.close();
});

async function loggedEmailsTo(address: string): Promise<number> {
  const rows = await t.deps.db.select().from(emailLog).where(sql`${emailLog.toEmail} = ${address}`);
  return rows.length;
}

describe('who receives a code', () => {
  it('unknown and banned participant-only addresses: same page, no email, nobody created', async () => {
    const usersBefore = (await t.deps.db.select().from(users)).length;
    const silent = ['ghost@example.org', 'banned@example.org', 'BANNED@example.org '];
    const pages: string[] = [];
    for (const address of silent) {
      const { res, html, requestId } = await requestCode(t, address);
      expect(res.status).toBe(200);
      pages.push(html.replaceAll(requestId!, 'ID').replace(/<strong>[^<]*<\/strong>/, 'EMAIL'));
    }
    const control = await requestCode(t, 'ok@example.org');
    pages.push(control.html.replaceAll(control.requestId!, 'ID').replace(/<strong>[^<]*<\/strong>/, 'EMAIL'));
    expect(new Set(pages).size).toBe(1);

    await codeFor(t.smtp, 'ok@example.org');
    await new Promise((r) => setTimeout(r, 1500));
    for (const address of ['ghost@example.org', 'banned@example.org']) {
      expect(t.smtp.received.filter((m) => m.to.includes(address))).toEqual([]);
      expect(await loggedEmailsTo(address)).toBe(0);
    }
    expect((await t.deps.db.select().from(users)).length).toBe(usersBefore);
  });

  it('a guessed code for an unknown address signs nobody in', async () => {
    const { requestId } = await requestCode(t, 'ghost2@example.org');
    const res = await verify(t, requestId!, '000000', 'application/json');
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it.each([
    'banned-ops@example.org',
    'banned-organizer@example.org',
    'banned-admin@example.org',
    'revoked-ban@example.org',
  ])('%s still gets a code and can sign in', async (address) => {
    const before = t.smtp.received.length;
    const { requestId } = await requestCode(t, address);
    const code = await codeFor(t.smtp, address, before);
    const res = await verify(t, requestId!, code);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^muster:\/\/oauth\/callback\?code=/);
  });
});
