/**
 * POST /events/{event_id}/participants (docs/decisions.md "Participants API"): exact statuses and bodies, checks
 * in order, normalisation, the 30-day token stored as a digest, the email from the event's
 * support address read from the SMTP server, concurrency (10 identical invites → one invitation).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banEmails, bans } from '../../src/db/schema/index.js';
import { digestSecret } from '../../src/lib/secrets.js';
import { snapshotDb } from '../support/app.js';
import { addRegistration } from '../support/world.js';
import { BASE_URL, call, emailsSettled, P, type RegHarness, startRegHarness, tokenIn } from './harness.js';

let h: RegHarness;
let url: string;
let key: string;

beforeAll(async () => {
  h = await startRegHarness();
  url = `${P}/events/${h.world.events.A.id}/participants`;
  key = h.world.secrets.eventKeyA!;
  await h.t.deps.db.transaction(async (tx) => {
    const [ban] = await tx.insert(bans).values({ reason: 'test' }).returning();
    await tx.insert(banEmails).values({ banId: ban!.id, email: 'banned@example.com' });
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function invitations(email: string) {
  const res = await h.t.deps.db.execute<{
    status: string;
    token_digest: string;
    first_name: string | null;
    days: number;
    credential_kind: string;
  }>(
    sql`SELECT status, token_digest, first_name, credential_kind,
               round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days
          FROM invitations WHERE email = ${email} ORDER BY id`,
  );
  return res.rows;
}

describe('invite', () => {
  it('201: stores a 30-day token digest and emails the link from the support address', async () => {
    const res = await call(h.app, 'POST', url, key, {
      email: '  Ada.Lovelace@Example.COM ',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      success: true,
      message: 'Invitation sent to ada.lovelace@example.com',
      event: 'Summit Alpha',
    });
    const rows = await invitations('ada.lovelace@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'pending',
      first_name: 'Ada',
      days: 30,
      credential_kind: 'event_key',
    });
    const mail = await h.smtp.waitFor((m) => m.to.includes('ada.lovelace@example.com'));
    expect(mail.from).toBe('alpha@muster.example');
    expect(mail.subject).toBe("You're invited to register for Summit Alpha");
    const token = tokenIn(mail);
    expect(mail.text).toContain(`${BASE_URL}/register/accept?token=${token}`);
    expect(mail.text).not.toContain('/api/');
    expect(rows[0]!.token_digest).toBe(digestSecret(token));
    const dump = await h.t.deps.db.execute<{ d: string }>(
      sql`SELECT string_agg(to_jsonb(i)::text, '') AS d FROM invitations i`,
    );
    expect(dump.rows[0]!.d).not.toContain(token);
  });

  it('accepts the slug and the UUID; users with participants access and series keys may invite', async () => {
    const A = h.world.events.A;
    for (const [segment, secret, email] of [
      [A.slug, h.world.secrets.seriesKeyS1, 'slug@example.com'],
      [A.uuid, h.world.secrets.ops, 'uuid@example.com'],
      [String(A.id), h.world.secrets.legacyKeyA, 'legacy@example.com'],
    ] as const) {
      const res = await call(h.app, 'POST', `${P}/events/${segment}/participants`, secret, { email });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({
        success: true,
        message: `Invitation sent to ${email}`,
        event: 'Summit Alpha',
      });
    }
  });

  it.each([
    [{}, 422, 'Email is required'],
    [{ email: '   ' }, 422, 'Email is required'],
    [{ email: 'not-an-email' }, 422, 'Invalid email format'],
    [{ email: 'two@@example' }, 422, 'Invalid email format'],
    [{ email: ' BANNED@example.com' }, 422, 'This email is banned from events'],
    [{ email: 'alice.anderson@example.com' }, 409, 'This email is already registered for this event'],
    [{ email: 'wanda.withdrawn@example.com' }, 409, 'This email is already registered for this event'],
    [{ email: 'x@example.com', role: 'admin' }, 422, 'body: unknown field role'],
    [{ email: 42 }, 422, 'body.email must be string'],
  ])('%j → %i %s', async (body, status, error) => {
    await emailsSettled(h);
    const before = await snapshotDb(h.t.deps);
    const res = await call(h.app, 'POST', url, key, body);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ success: false, error });
    expect(await snapshotDb(h.t.deps)).toEqual(before);
  });

  it('checks run in order: a banned malformed address is "Invalid email format"', async () => {
    const res = await call(h.app, 'POST', url, key, { email: 'banned@' });
    expect(res.json()).toEqual({ success: false, error: 'Invalid email format' });
  });

  it('409 for a second invitation; a lapsed one no longer blocks', async () => {
    expect((await call(h.app, 'POST', url, key, { email: 'twice@example.com' })).statusCode).toBe(201);
    const again = await call(h.app, 'POST', url, key, { email: 'Twice@example.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      success: false,
      error: 'An invitation has already been sent to this email',
    });
    await h.t.deps.db.execute(
      sql`UPDATE invitations SET expires_at = now() - interval '1 day' WHERE email = 'twice@example.com'`,
    );
    expect((await call(h.app, 'POST', url, key, { email: 'twice@example.com' })).statusCode).toBe(201);
    expect((await invitations('twice@example.com')).map((r) => r.status)).toEqual(['expired', 'pending']);
  });

  it('an imported `invited` registration may be invited', async () => {
    await h.t.deps.db.transaction((tx) =>
      addRegistration(tx, {
        eventId: h.world.events.A.id,
        email: 'imported@example.com',
        firstName: 'Imogen',
        lastName: 'Ported',
        preferredName: null,
        dateOfBirth: null,
        status: 'invited',
      }),
    );
    const res = await call(h.app, 'POST', url, key, { email: 'imported@example.com' });
    expect(res.statusCode).toBe(201);
  });

  it('10 identical invites in parallel → one invitation, one email', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(h.app, 'POST', url, key, { email: 'race@example.com' })),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await invitations('race@example.com')).toHaveLength(1);
    const log = await h.t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM email_log WHERE to_email = 'race@example.com'`,
    );
    expect(log.rows[0]!.n).toBe(1);
  }, 60_000);

  it('401 keeps the exact envelope; 403/404 carry success:false', async () => {
    const none = await call(h.app, 'POST', url, undefined, { email: 'a@example.com' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: 'Unauthorized' });
    const foreign = await call(h.app, 'POST', url, h.world.secrets.eventKeyB, { email: 'a@example.com' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ success: false, error: 'This API key cannot access this event' });
    const missing = await call(h.app, 'POST', `${P}/events/no-such-event/participants`, key, {
      email: 'a@example.com',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ success: false, error: 'Event not found' });
  });
});
