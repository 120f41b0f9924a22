/**
 * POST /tokens/revoke (spec "POST /tokens/revoke", "Authentication" rule 3; docs/decisions.md "Account and sessions";
 * quality.md "rate limits on /tokens/revoke"): revocation by the key's own secret, the no-oracle
 * answers, notification emails read back from a real SMTP server (owner; owner gone → series
 * owners / event admins + series owners, each address once), audit, the per-IP rate limit, and that
 * refused requests change nothing.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, emailLog, events, users } from '../../src/db/schema/index.js';
import { startWorker } from '../../src/jobs/runner.js';
import { generateApiSecret, generateLegacyEventKey, generateMobileToken } from '../../src/lib/secrets.js';
import { createUser, grantEventRole, grantSeriesRole } from '../../src/modules/accounts/users.service.js';
import {
  issueEventKey,
  issueGlobalToken,
  issueLegacyEventKey,
  issueMobileToken,
  issueSeriesKey,
} from '../../src/modules/credentials/issue.service.js';
import { REVOKE_RATE_LIMIT } from '../../src/modules/credentials/revoke.schemas.js';
import {
  createEventRecord,
  createSeries,
  type EventRow,
  type SeriesRow,
} from '../../src/modules/events/records.service.js';
import { bearer, get, startTestApp, type TestApp } from '../support/app.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { breakChecksum } from '../support/world.js';
import { DAY, ipSequence, P, stateOf } from './helpers.js';

let t: TestApp;
let smtp: TestSmtp;
const nextIp = ipSequence(1);

interface Fixture {
  S: SeriesRow;
  E: EventRow;
  /** Another event of the same series, with no event admins. */
  E2: EventRow;
  owner1: { id: number; email: string };
  owner2: { id: number; email: string };
  eventAdmin: { id: number; email: string };
  keyOwner: { id: number; email: string };
  admin: { id: number; email: string };
}
let f: Fixture;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Muster <no-reply@muster.example>' });
  await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
  f = await t.deps.db.transaction(async (tx) => {
    const mk = async (email: string, name: string, globalAdmin = false) => {
      const u = await createUser(tx, { email, name, globalAdmin });
      return { id: u.id, email: u.email };
    };
    const owner1 = await mk('owner.one@muster.test', 'Owner One');
    const owner2 = await mk('owner.two@muster.test', 'Owner Two');
    const organizer = await mk('organizer@muster.test', 'Organizer');
    const eventAdmin = await mk('event.admin@muster.test', 'Event Admin');
    const ops = await mk('ops@muster.test', 'Ops');
    const keyOwner = await mk('key.owner@muster.test', 'Key Owner');
    const admin = await mk('admin@muster.test', 'Admin', true);
    const S = await createSeries(tx, { name: 'Revoke Series', slug: 'revoke-series' });
    const E = await createEventRecord(tx, {
      seriesId: S.id,
      name: 'Revoke Event',
      slug: 'revoke-event',
      supportEmail: 'help@muster.example',
    });
    const E2 = await createEventRecord(tx, {
      seriesId: S.id,
      name: 'Quiet Event',
      slug: 'quiet-event',
      supportEmail: 'help@muster.example',
    });
    await grantSeriesRole(tx, owner1.id, S.id, 'owner');
    await grantSeriesRole(tx, owner2.id, S.id, 'owner');
    await grantSeriesRole(tx, organizer.id, S.id, 'organizer'); // organizers are not notified
    await grantEventRole(tx, owner1.id, E.id, 'event_admin'); // also a series owner: one email
    await grantEventRole(tx, eventAdmin.id, E.id, 'event_admin');
    await grantEventRole(tx, ops.id, E.id, 'ops'); // not notified
    return { S, E, E2, owner1, owner2, eventAdmin, keyOwner, admin };
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

function revoke(payload: unknown, opts: { ip?: string; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `${P}/tokens/revoke`,
    remoteAddress: opts.ip ?? nextIp(),
    ...(payload === undefined
      ? {}
      : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    headers: { 'content-type': 'application/json', ...(opts.headers ?? {}) },
  });
}

/**
 * The database and queue once the worker is idle: `stateOf` after every queued email was sent, so
 * a background delivery (email_log status) is not mistaken for a change made by the request.
 */
async function settledState() {
  for (let i = 0; i < 200; i++) {
    const res = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM email_log WHERE status <> 'sent'`,
    );
    if (res.rows[0]!.n === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return stateOf(t.deps);
}

/** A user who owns credentials and is then deleted (owner_user_id becomes NULL). */
async function leaver(name: string) {
  const [u] = await t.deps.db
    .insert(users)
    .values({ email: `${name}@muster.test`, name })
    .returning({ id: users.id });
  return {
    id: u!.id,
    remove: () => t.deps.db.delete(users).where(eq(users.id, u!.id)),
  };
}

/** The recipients of `key_revoked` emails about the key named `keyName`, from email_log and from SMTP. */
async function notified(keyName: string, expected: string[]) {
  const subject = `Muster API key revoked: ${keyName}`;
  const logged = await t.deps.db
    .select({ to: emailLog.toEmail, template: emailLog.template })
    .from(emailLog)
    .where(eq(emailLog.subject, subject));
  expect(logged.map((r) => r.to).sort(), 'email_log recipients').toEqual([...expected].sort());
  expect(new Set(logged.map((r) => r.template))).toEqual(new Set(expected.length ? ['key_revoked'] : []));
  for (const to of expected) await smtp.waitFor((m) => m.subject === subject && m.to.includes(to));
  // Every queued email has been attempted once the log rows are all `sent`.
  for (let i = 0; i < 100; i++) {
    const pending = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM email_log WHERE subject = ${subject} AND status <> 'sent'`,
    );
    if (pending.rows[0]!.n === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const mails = smtp.received.filter((m) => m.subject === subject);
  expect(mails.flatMap((m) => m.to).sort(), 'SMTP recipients').toEqual([...expected].sort());
  return mails;
}

async function auditOf(targetType: string, targetId: number) {
  return t.deps.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'credentials.revoke_by_secret'),
        eq(auditLog.targetType, targetType),
        eq(auditLog.targetId, String(targetId)),
      ),
    );
}

const SUCCESS_FALSE = { success: false };

describe('revoking each kind by its secret', () => {
  it('series key with a live owner: 200 {success:true, key_name, owner_email}; 401 afterwards; the owner is emailed', async () => {
    const key = await t.deps.db.transaction((tx) =>
      issueSeriesKey(tx, f.S.id, { name: 'Series key one', ownerUserId: f.keyOwner.id }),
    );
    expect((await get(t.app, `${P}/series`, key.secret)).statusCode).toBe(200);

    const res = await revoke({ token: key.secret });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      key_name: 'Series key one',
      owner_email: 'key.owner@muster.test',
    });

    for (const url of [`${P}/series`, `${P}/series/current/events`, `${P}/series/${f.S.slug}`]) {
      const after = await get(t.app, url, key.secret);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ error: 'Unauthorized' });
    }
    // Already revoked: indistinguishable from unknown, and nothing changes.
    const before = await settledState();
    const again = await revoke({ token: key.secret });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(SUCCESS_FALSE);
    expect(await stateOf(t.deps)).toEqual(before);

    const [mail] = await notified('Series key one', ['key.owner@muster.test']);
    expect(mail!.from).toBe('no-reply@muster.example');
    expect(mail!.text).toContain(
      'The series API key "Series key one" (series "Revoke Series") was revoked on',
    );
    expect(mail!.raw).not.toContain(key.secret);

    const audits = await auditOf('series_key', key.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorUserId: null,
      credentialKind: null,
      seriesId: f.S.id,
      eventId: null,
      metadata: {
        key_kind: 'series_key',
        key_id: key.id,
        key_name: 'Series key one',
        owner_user_id: f.keyOwner.id,
        notified: ['key.owner@muster.test'],
        ip: expect.any(String),
      },
    });
    expect(JSON.stringify(audits)).not.toContain(key.secret);
  });

  it('event key with a live owner: the owner only (not the event admins)', async () => {
    const key = await t.deps.db.transaction((tx) =>
      issueEventKey(tx, f.E.id, { name: 'Event key one', ownerUserId: f.keyOwner.id }),
    );
    const roster = `${P}/events/${f.E.id}/participants/roster`;
    expect((await get(t.app, roster, key.secret)).statusCode).toBe(200);
    const res = await revoke({ token: key.secret });
    expect(res.json()).toEqual({
      success: true,
      key_name: 'Event key one',
      owner_email: 'key.owner@muster.test',
    });
    expect((await get(t.app, roster, key.secret)).statusCode).toBe(401);
    const [mail] = await notified('Event key one', ['key.owner@muster.test']);
    expect(mail!.text).toContain('The event API key "Event key one" (event "Revoke Event")');
    const [audit] = await auditOf('event_key', key.id);
    expect(audit).toMatchObject({ eventId: f.E.id, seriesId: f.S.id });
  });

  it('global token: revoked, its owner emailed, 401 afterwards', async () => {
    const token = await t.deps.db.transaction((tx) =>
      issueGlobalToken(tx, f.admin.id, { name: 'Ban sync token', scopes: ['bans:write'] }),
    );
    const res = await revoke({ token: token.secret });
    expect(res.json()).toEqual({
      success: true,
      key_name: 'Ban sync token',
      owner_email: 'admin@muster.test',
    });
    const after = await t.app.inject({
      method: 'POST',
      url: `${P}/bans`,
      headers: bearer(token.secret),
      payload: { email: 'x@example.com' },
    });
    expect(after.statusCode).toBe(401);
    const [mail] = await notified('Ban sync token', ['admin@muster.test']);
    expect(mail!.text).toContain('The global API token "Ban sync token" (scopes: bans:write)');
  });

  it('legacy event key: the digest column is cleared; event admins and series owners are emailed, each once', async () => {
    const key = await t.deps.db.transaction((tx) => issueLegacyEventKey(tx, f.E.id, 'Old integration'));
    const roster = `${P}/events/${f.E.id}/participants/roster`;
    expect((await get(t.app, roster, key.secret)).statusCode).toBe(200);
    const res = await revoke({ token: key.secret });
    expect(res.json()).toEqual({ success: true, key_name: 'Old integration', owner_email: null });
    const [row] = await t.deps.db.select().from(events).where(eq(events.id, f.E.id));
    expect(row!.legacyApiKeyDigest).toBeNull();
    expect((await get(t.app, roster, key.secret)).statusCode).toBe(401);
    expect((await revoke({ token: key.secret })).json()).toEqual(SUCCESS_FALSE);
    await notified('Old integration', [
      'event.admin@muster.test',
      'owner.one@muster.test',
      'owner.two@muster.test',
    ]);
    const [audit] = await auditOf('legacy_event_key', f.E.id);
    expect(audit).toMatchObject({ eventId: f.E.id, seriesId: f.S.id });
  });

  it('surrounding whitespace around the secret is ignored', async () => {
    const key = await t.deps.db.transaction((tx) =>
      issueEventKey(tx, f.E2.id, { name: 'Padded key', ownerUserId: f.keyOwner.id }),
    );
    const res = await revoke({ token: `  ${key.secret}\n` });
    expect(res.json()).toEqual({
      success: true,
      key_name: 'Padded key',
      owner_email: 'key.owner@muster.test',
    });
  });
});

describe("owner's account gone: fallback recipients, each address once", () => {
  it('series key → the series owners (not organizers)', async () => {
    const gone = await leaver('series-leaver');
    const key = await t.deps.db.transaction((tx) =>
      issueSeriesKey(tx, f.S.id, { name: 'Orphan series key', ownerUserId: gone.id }),
    );
    await gone.remove();
    const res = await revoke({ token: key.secret });
    expect(res.json()).toEqual({ success: true, key_name: 'Orphan series key', owner_email: null });
    await notified('Orphan series key', ['owner.one@muster.test', 'owner.two@muster.test']);
    const [audit] = await auditOf('series_key', key.id);
    expect(audit!.metadata).toMatchObject({
      owner_user_id: null,
      notified: ['owner.one@muster.test', 'owner.two@muster.test'],
    });
  });

  it('event key → the event admins and the series owners (a user holding both roles once)', async () => {
    const gone = await leaver('event-leaver');
    const key = await t.deps.db.transaction((tx) =>
      issueEventKey(tx, f.E.id, { name: 'Orphan event key', ownerUserId: gone.id }),
    );
    await gone.remove();
    const res = await revoke({ token: key.secret });
    expect(res.json()).toEqual({ success: true, key_name: 'Orphan event key', owner_email: null });
    await notified('Orphan event key', [
      'event.admin@muster.test',
      'owner.one@muster.test',
      'owner.two@muster.test',
    ]);
  });

  it('event key of an event without event admins → the series owners', async () => {
    const gone = await leaver('quiet-leaver');
    const key = await t.deps.db.transaction((tx) =>
      issueEventKey(tx, f.E2.id, { name: 'Quiet orphan key', ownerUserId: gone.id }),
    );
    await gone.remove();
    expect((await revoke({ token: key.secret })).json()).toEqual({
      success: true,
      key_name: 'Quiet orphan key',
      owner_email: null,
    });
    await notified('Quiet orphan key', ['owner.one@muster.test', 'owner.two@muster.test']);
  });

  it('a series without owners: revoked, nobody to email', async () => {
    const lonely = await t.deps.db.transaction((tx) => createSeries(tx, { name: 'Lonely', slug: 'lonely' }));
    const key = await t.deps.db.transaction((tx) =>
      issueSeriesKey(tx, lonely.id, { name: 'Lonely key', ownerUserId: null }),
    );
    expect((await revoke({ token: key.secret })).json()).toEqual({
      success: true,
      key_name: 'Lonely key',
      owner_email: null,
    });
    await notified('Lonely key', []);
  });
});

describe('{success:false}: the same answer for everything else, and nothing changes', () => {
  it.each<[string, () => Promise<unknown>]>([
    ['an unknown series key', async () => ({ token: generateApiSecret('series_key') })],
    ['an unknown event key', async () => ({ token: generateApiSecret('event_key') })],
    ['an unknown global token', async () => ({ token: generateApiSecret('global') })],
    ['an unknown legacy key', async () => ({ token: generateLegacyEventKey() })],
    ['an unknown mobile-format token', async () => ({ token: generateMobileToken() })],
    [
      'a live key with a typo (checksum fails)',
      async () => {
        const key = await t.deps.db.transaction((tx) =>
          issueSeriesKey(tx, f.S.id, { name: 'Typo target', ownerUserId: f.keyOwner.id }),
        );
        return { token: breakChecksum(key.secret) };
      },
    ],
    [
      'a live mobile token (sign out with DELETE /session instead)',
      async () => {
        const tok = await t.deps.db.transaction((tx) => issueMobileToken(tx, f.keyOwner.id));
        return { token: tok.secret };
      },
    ],
    [
      'an expired global token',
      async () => {
        const tok = await t.deps.db.transaction((tx) =>
          issueGlobalToken(tx, f.admin.id, {
            name: 'Expired one',
            expiresAt: new Date(Date.now() - DAY).toISOString(),
          }),
        );
        return { token: tok.secret };
      },
    ],
    ['garbage', async () => ({ token: 'garbage' })],
    ['an empty token', async () => ({ token: '' })],
    ['whitespace', async () => ({ token: '   ' })],
    ['a token over 512 characters', async () => ({ token: 'a'.repeat(513) })],
    ['a number token', async () => ({ token: 12345 })],
    ['a null token', async () => ({ token: null })],
    [
      'a one-element array holding a live key (never coerced)',
      async () => {
        const key = await t.deps.db.transaction((tx) =>
          issueSeriesKey(tx, f.S.id, { name: 'Array target', ownerUserId: f.keyOwner.id }),
        );
        return { token: [key.secret] };
      },
    ],
    ['an object token', async () => ({ token: { secret: 'x' } })],
    ['no token field', async () => ({ secret: 'x' })],
    ['an empty object', async () => ({})],
    ['a JSON array', async () => [1, 2]],
    ['a JSON string', async () => JSON.stringify('just a string')],
    ['a JSON number', async () => 42],
    ['JSON null', async () => null],
    ['JSON true', async () => true],
  ])('%s → 200 {success:false}', async (_name, make) => {
    const payload = await make();
    const before = await settledState();
    const res = await revoke(payload === null ? 'null' : payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(SUCCESS_FALSE);
    expect(res.body).toBe('{"success":false}');
    expect(await stateOf(t.deps)).toEqual(before);
  });

  it('no body at all (with and without a JSON content type) → 200 {success:false}', async () => {
    const a = await revoke(undefined);
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual(SUCCESS_FALSE);
    const b = await t.app.inject({ method: 'POST', url: `${P}/tokens/revoke`, remoteAddress: nextIp() });
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual(SUCCESS_FALSE);
  });

  it('a mobile token is left alive', async () => {
    const tok = await t.deps.db.transaction((tx) => issueMobileToken(tx, f.keyOwner.id));
    expect((await revoke({ token: tok.secret })).json()).toEqual(SUCCESS_FALSE);
    expect((await get(t.app, `${P}/me`, tok.secret)).statusCode).toBe(200);
  });

  it('the Authorization header plays no part', async () => {
    const key = await t.deps.db.transaction((tx) =>
      issueEventKey(tx, f.E2.id, { name: 'Header test key', ownerUserId: f.keyOwner.id }),
    );
    const garbage = await revoke({ token: generateApiSecret('event_key') }, { headers: bearer('garbage') });
    expect(garbage.statusCode).toBe(200);
    expect(garbage.json()).toEqual(SUCCESS_FALSE);
    const res = await revoke({ token: key.secret }, { headers: bearer(key.secret) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, key_name: 'Header test key' });
  });

  it('malformed JSON → 400; a non-JSON content type → 400; an oversized body → 413; nothing changes', async () => {
    const before = await settledState();
    const bad = await revoke('{"token": ');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'Malformed JSON in request body' });
    const text = await t.app.inject({
      method: 'POST',
      url: `${P}/tokens/revoke`,
      remoteAddress: nextIp(),
      headers: { 'content-type': 'text/plain' },
      payload: 'mst_s_whatever',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ error: 'Unsupported or malformed request body; send application/json' });
    const big = await revoke({ token: 'x', pad: 'y'.repeat(20_000) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'Request body is too large' });
    expect(await stateOf(t.deps)).toEqual(before);
  });
});

describe('concurrency and rate limit', () => {
  it('10 parallel revocations of one secret: one success, one email', async () => {
    const key = await t.deps.db.transaction((tx) =>
      issueEventKey(tx, f.E2.id, { name: 'Raced key', ownerUserId: f.keyOwner.id }),
    );
    const responses = await Promise.all(Array.from({ length: 10 }, () => revoke({ token: key.secret })));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const bodies = responses.map((r) => r.json() as { success: boolean });
    expect(bodies.filter((b) => b.success)).toHaveLength(1);
    expect(bodies.filter((b) => !b.success)).toHaveLength(9);
    await notified('Raced key', ['key.owner@muster.test']);
    expect(await auditOf('event_key', key.id)).toHaveLength(1);
  });

  it(`allows ${REVOKE_RATE_LIMIT.max} requests per minute per IP, then 429 with Retry-After; other IPs are unaffected`, async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < REVOKE_RATE_LIMIT.max; i++) {
      const res = await revoke({ token: generateApiSecret('series_key') }, { ip });
      expect(res.statusCode, `request ${i + 1}`).toBe(200);
    }
    const key = await t.deps.db.transaction((tx) =>
      issueSeriesKey(tx, f.S.id, { name: 'Limited key', ownerUserId: f.keyOwner.id }),
    );
    const before = await settledState();
    const limited = await revoke({ token: key.secret }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(Object.keys(limited.json())).toEqual(['error']);
    expect((limited.json() as { error: string }).error).toMatch(/rate limit/i);
    // The refused request did nothing: the key still works.
    expect(await stateOf(t.deps)).toEqual(before);
    expect((await get(t.app, `${P}/series`, key.secret)).statusCode).toBe(200);
    // Malformed JSON from the limited IP is refused by the limit first.
    expect((await revoke('{', { ip })).statusCode).toBe(429);

    const other = await revoke({ token: key.secret }, { ip: '203.0.113.78' });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ success: true, key_name: 'Limited key' });
  });
});
