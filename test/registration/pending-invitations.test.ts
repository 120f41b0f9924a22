/**
 * Pending invitations over HTTP with a real SMTP server (docs/organiser-api.md "Invitations"):
 * list (fields, paging, search), resend (fresh link, old one dead, lapsed renewed), revoke (link
 * dead, re-invite allowed), exact statuses, audit entries, and refusals that change nothing.
 * The guardian resend: guardian-resend.test.ts.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banEmails, bans } from '../../src/db/schema/index.js';
import {
  auditRows,
  call,
  expectRefusedUnchanged,
  P,
  type RegHarness,
  startRegHarness,
  tokenIn,
} from './harness.js';

let h: RegHarness;
let base: string;
let key: string;

beforeAll(async () => {
  h = await startRegHarness();
  base = `${P}/events/${h.world.events.A.id}`;
  key = h.world.secrets.eventAdmin!;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function invite(email: string, first_name?: string): Promise<{ id: number; token: string }> {
  const res = await call(h.app, 'POST', `${base}/participants`, key, { email, first_name });
  expect(res.statusCode, res.body).toBe(201);
  const mail = await h.smtp.waitFor((m) => m.to.includes(email));
  const row = await h.t.deps.db.execute<{ id: number }>(
    sql`SELECT id FROM invitations WHERE email = ${email} AND status = 'pending'`,
  );
  return { id: Number(row.rows[0]!.id), token: tokenIn(mail) };
}

const claim = (token: string) =>
  call(h.app, 'POST', `${P}/invitations/claim`, undefined, { invitation_token: token });

const auditOf = (action: string) => auditRows(h, action);
const refusedUnchanged = (method: 'GET' | 'POST', url: string, status: number, error: string) =>
  expectRefusedUnchanged(h, method, url, key, status, error);

describe('GET /events/{e}/invitations', () => {
  it('lists pending invitations newest first with their fields, paged and searchable', async () => {
    const a = await invite('list.one@example.com', 'Lena');
    const b = await invite('list.two@example.com');
    const c = await invite('list.three@example.com');
    const res = await call(h.app, 'GET', `${base}/invitations?q=list.&limit=2`, key);
    expect(res.statusCode).toBe(200);
    const page = res.json() as { invitations: Record<string, unknown>[]; next_before: string | null };
    expect(page.invitations.map((i) => i.id)).toEqual([c.id, b.id]);
    expect(page.next_before).toBe(String(b.id));
    const next = (
      await call(h.app, 'GET', `${base}/invitations?q=list.&limit=2&before=${page.next_before}`, key)
    ).json();
    expect(next.invitations.map((i: { id: number }) => i.id)).toEqual([a.id]);
    expect(next.next_before).toBeNull();
    const first = next.invitations[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        'created_at',
        'email',
        'expired',
        'expires_at',
        'first_name',
        'id',
        'invited_by',
        'last_name',
        'sent_at',
        'status',
      ].sort(),
    );
    expect(first).toMatchObject({
      email: 'list.one@example.com',
      first_name: 'Lena',
      last_name: null,
      status: 'pending',
      expired: false,
      invited_by: 'Evan Eventadmin',
    });
    const byName = (await call(h.app, 'GET', `${base}/invitations?q=LENA`, key)).json();
    expect(byName.invitations.map((i: { id: number }) => i.id)).toEqual([a.id]);
  });

  it.each([
    ['limit=0', 'querystring/limit must be >= 1'],
    ['before=abc', 'querystring/before must match pattern "^[0-9]{1,9}$"'],
    ['sort=email', 'querystring: unknown field sort'],
  ])('?%s → 422', async (qs) => {
    const res = await call(h.app, 'GET', `${base}/invitations?${qs}`, key);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json())).toEqual(['error']);
  });
});

describe('POST /events/{e}/invitations/{id}/resend', () => {
  it('emails a fresh link; the old link stops working; audited', async () => {
    const { id, token } = await invite('resend.me@example.com');
    const res = await call(h.app, 'POST', `${base}/invitations/${id}/resend`, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().invitation).toMatchObject({
      id,
      email: 'resend.me@example.com',
      status: 'pending',
      expired: false,
    });
    const mails = () => h.smtp.received.filter((m) => m.to.includes('resend.me@example.com'));
    await h.smtp.waitFor(() => mails().length === 2);
    const fresh = tokenIn(mails()[1]!);
    expect(fresh).not.toBe(token);
    expect((await claim(token)).statusCode).toBe(422);
    expect((await claim(fresh)).statusCode).toBe(200);
    expect((await auditOf('invitations.resend')).at(-1)).toEqual({
      target_id: String(id),
      metadata: { invitation_id: id, email: 'resend.me@example.com', renewed: false },
      credential_kind: 'mobile',
    });
  });

  it('renews a lapsed invitation: listed as expired, resent for another 30 days', async () => {
    const { id } = await invite('lapsed@example.com');
    await h.t.deps.db.execute(
      sql`UPDATE invitations SET expires_at = now() - interval '1 day' WHERE id = ${id}`,
    );
    const listed = (await call(h.app, 'GET', `${base}/invitations?q=lapsed@`, key)).json();
    expect(listed.invitations[0]).toMatchObject({ id, expired: true });
    const res = await call(h.app, 'POST', `${base}/invitations/${id}/resend`, key);
    expect(res.statusCode).toBe(200);
    expect(res.json().invitation.expired).toBe(false);
    const days = await h.t.deps.db.execute<{ d: number }>(
      sql`SELECT round(extract(epoch FROM expires_at - now()) / 86400)::int AS d FROM invitations WHERE id = ${id}`,
    );
    expect(days.rows[0]!.d).toBe(30);
    expect((await auditOf('invitations.resend')).at(-1)!.metadata.renewed).toBe(true);
    await h.smtp.waitFor(
      (m) =>
        m.to.includes('lapsed@example.com') &&
        h.smtp.received.filter((x) => x.to.includes('lapsed@example.com')).length === 2,
    );
  });

  it('refusals change nothing: unknown, malformed, another event, banned, registered', async () => {
    const other = await call(
      h.app,
      'POST',
      `${P}/events/${h.world.events.B.id}/participants`,
      h.world.secrets.seriesOwner,
      {
        email: 'other.event@example.com',
      },
    );
    expect(other.statusCode).toBe(201);
    const otherId = (
      await h.t.deps.db.execute<{ id: number }>(
        sql`SELECT id FROM invitations WHERE email = 'other.event@example.com'`,
      )
    ).rows[0]!.id;
    await refusedUnchanged('POST', `${base}/invitations/99999999/resend`, 404, 'Invitation not found');
    await refusedUnchanged('POST', `${base}/invitations/abc/resend`, 404, 'Invitation not found');
    await refusedUnchanged('POST', `${base}/invitations/${otherId}/resend`, 404, 'Invitation not found');
    const banned = await invite('later.banned@example.com');
    await h.t.deps.db.transaction(async (tx) => {
      const [ban] = await tx.insert(bans).values({ reason: 'test' }).returning();
      await tx.insert(banEmails).values({ banId: ban!.id, email: 'later.banned@example.com' });
    });
    await refusedUnchanged(
      'POST',
      `${base}/invitations/${banned.id}/resend`,
      422,
      'This email is banned from events',
    );
    await h.t.deps.db.execute(sql`INSERT INTO invitations (event_id, email, token_digest, expires_at)
      VALUES (${h.world.events.A.id}, 'alice.anderson@example.com', 'digest-registered', now() + interval '1 day')`);
    const reg = await h.t.deps.db.execute<{ id: number }>(
      sql`SELECT id FROM invitations WHERE email = 'alice.anderson@example.com'`,
    );
    await refusedUnchanged(
      'POST',
      `${base}/invitations/${reg.rows[0]!.id}/resend`,
      409,
      'This email is already registered for this event',
    );
  }, 120_000);
});

describe('POST /events/{e}/invitations/{id}/revoke', () => {
  it('revokes: the link stops working, the list drops it, the address may be invited again', async () => {
    const { id, token } = await invite('revoke.me@example.com');
    const res = await call(
      h.app,
      'POST',
      `${P}/events/${h.world.events.A.slug}/invitations/${id}/revoke`,
      key,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().invitation).toMatchObject({ id, status: 'revoked' });
    expect((await claim(token)).statusCode).toBe(422);
    const listed = (await call(h.app, 'GET', `${base}/invitations?q=revoke.me`, key)).json();
    expect(listed.invitations).toEqual([]);
    expect((await auditOf('invitations.revoke')).at(-1)).toMatchObject({ target_id: String(id) });
    await refusedUnchanged(
      'POST',
      `${base}/invitations/${id}/revoke`,
      409,
      'This invitation is no longer pending',
    );
    await refusedUnchanged(
      'POST',
      `${base}/invitations/${id}/resend`,
      409,
      'This invitation is no longer pending',
    );
    await invite('revoke.me@example.com');
  });
});
