/**
 * The emailed one-time code: 5 attempts then the request is dead (even the right
 * code is refused), 10-minute expiry, single use, malformed input uses no attempt.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInRequests } from '../../src/db/schema/index.js';
import { isoTimestamp } from '../../src/lib/time.js';
import {
  clientParams,
  codeFor,
  makeUser,
  requestCode,
  type SigninApp,
  startSigninApp,
  verify,
} from './harness.js';

let t: SigninApp;

beforeAll(async () => {
  t = await startSigninApp();
  for (const name of ['ada', 'grace', 'alan', 'edsger', 'barbara'])
    await makeUser(t.deps, `${name}@example.org`);
});
afterAll(async () => {
  await t?.close();
});

/** A wrong code guaranteed to differ from `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('emailed code', () => {
  it('the code page carries the request id; the email carries the code and its expiry', async () => {
    const before = t.smtp.received.length;
    const { res, requestId } = await requestCode(t, 'ada@example.org');
    expect(res.status).toBe(200);
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const code = await codeFor(t.smtp, 'ada@example.org', before);
    const mail = t.smtp.received.at(-1)!;
    expect(mail.text).toContain('It expires in 10 minutes');
    const [row] = await t.deps.db
      .select()
      .from(signInRequests)
      .where(sql`${signInRequests.id} = ${requestId}`);
    expect(row).toMatchObject({ method: 'email', email: 'ada@example.org', attempts: 0, consumedAt: null });
    const minutes =
      (Date.parse(isoTimestamp(row!.expiresAt)!) - Date.parse(isoTimestamp(row!.createdAt)!)) / 60_000;
    expect(Math.round(minutes)).toBe(10);
    expect(row!.codeDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.codeDigest).not.toContain(code);

    const ok = await verify(t, requestId!, code);
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toMatch(
      /^muster:\/\/oauth\/callback\?code=[A-Za-z0-9_-]{43}&state=client-state-123$/,
    );

    // Single use: the same code again is refused.
    const again = await verify(t, requestId!, code);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('This code can no longer be used');
  });

  it('5 attempts: after 5 wrong codes the 6th is refused even with the right code', async () => {
    const before = t.smtp.received.length;
    const { requestId } = await requestCode(t, 'grace@example.org');
    const code = await codeFor(t.smtp, 'grace@example.org', before);
    for (let left = 4; left >= 0; left--) {
      const res = await verify(t, requestId!, wrong(code));
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('That code is not correct');
      expect(html).toContain('role="alert"');
      expect(html).toContain('aria-invalid="true"');
      if (left > 0) expect(html).toContain(`${left} attempt${left === 1 ? '' : 's'} left`);
    }
    const sixth = await verify(t, requestId!, code);
    expect(sixth.status).toBe(400);
    expect(sixth.headers.get('location')).toBeNull();
    expect(await sixth.text()).toContain('This code can no longer be used');
    const [row] = await t.deps.db
      .select()
      .from(signInRequests)
      .where(sql`${signInRequests.id} = ${requestId}`);
    expect(row).toMatchObject({ attempts: 5, consumedAt: null });
  });

  it('the right code on the 5th attempt still works', async () => {
    const before = t.smtp.received.length;
    const { requestId } = await requestCode(t, 'alan@example.org');
    const code = await codeFor(t.smtp, 'alan@example.org', before);
    for (let i = 0; i < 4; i++) expect((await verify(t, requestId!, wrong(code))).status).toBe(400);
    const fifth = await verify(t, requestId!, code);
    expect(fifth.status).toBe(302);
  });

  it('parallel guesses cannot exceed 5 attempts', async () => {
    const before = t.smtp.received.length;
    const { requestId } = await requestCode(t, 'barbara@example.org');
    const code = await codeFor(t.smtp, 'barbara@example.org', before);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => verify(t, requestId!, wrong(code), 'application/json')),
    );
    expect(results.every((r) => r.status === 400)).toBe(true);
    const [row] = await t.deps.db
      .select()
      .from(signInRequests)
      .where(sql`${signInRequests.id} = ${requestId}`);
    expect(row!.attempts).toBe(5);
    expect((await verify(t, requestId!, code)).status).toBe(400);
  });

  it('an expired request refuses the right code', async () => {
    const before = t.smtp.received.length;
    const { requestId } = await requestCode(t, 'edsger@example.org');
    const code = await codeFor(t.smtp, 'edsger@example.org', before);
    await t.deps.db.execute(
      sql`UPDATE sign_in_requests SET expires_at = now() - interval '1 second' WHERE id = ${requestId}`,
    );
    const res = await verify(t, requestId!, code);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('This code has expired');
    expect(html).toContain('Start again');
  });

  it('malformed codes use no attempt; unknown request ids are refused', async () => {
    const { requestId } = await requestCode(t, 'nobody-here@example.org');
    for (const bad of ['', '12345', '1234567', 'abcdef']) {
      const res = await verify(t, requestId!, bad);
      expect(res.status).toBe(422);
      const html = await res.text();
      expect(html).toContain('Enter the 6-digit code');
      expect(html).toContain(`value="${requestId}"`);
    }
    const [row] = await t.deps.db
      .select()
      .from(signInRequests)
      .where(sql`${signInRequests.id} = ${requestId}`);
    expect(row!.attempts).toBe(0);

    const spaced = await verify(t, requestId!, '123 456', 'application/json');
    expect(spaced.status).toBe(400); // counted: spaces are ignored, so it is a (wrong) 6-digit code

    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await verify(t, id, '123456', 'application/json');
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'This code can no longer be used. Request a new one.' });
    }
    const invalid = await verify(t, requestId!, '123456', 'application/json');
    expect(invalid.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('the code page is the same for an unknown address', async () => {
    const params = clientParams({ state: 'same' });
    const known = await requestCode(t, 'ada@example.org', params);
    const unknown = await requestCode(t, 'ghost@example.org', params);
    expect(unknown.res.status).toBe(known.res.status);
    const normalise = (html: string, requestId: string, email: string) =>
      html.replaceAll(requestId, 'ID').replaceAll(email, 'EMAIL');
    expect(normalise(unknown.html, unknown.requestId!, 'ghost@example.org')).toBe(
      normalise(known.html, known.requestId!, 'ada@example.org'),
    );
    expect(unknown.res.headers.get('content-security-policy')).toBe(
      known.res.headers.get('content-security-policy'),
    );
  });
});
