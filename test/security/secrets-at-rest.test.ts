/**
 * Secrets at rest (quality.md Security: "After the suite, a scan of a database dump and all logs
 * finds 0 issued secrets"; docs/decisions.md "Credentials and roles", "shown once").
 *
 * One app with a debug-level pino logger writing to memory (the production redaction paths), a real
 * SMTP server and the job worker. The test issues every credential kind, presents each secret in
 * the Authorization header (allowed, forbidden and mistyped), rotates and signs out a mobile token,
 * revokes keys by secret (one with a typo), registers push tokens, signs in by emailed code through
 * the OAuth pages, and lets the worker deliver every queued email. Then it dumps every row of every
 * table of every schema (public, pgboss, drizzle, …) plus every captured log line and every email,
 * and looks for each secret in several encodings.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startWorker } from '../../src/jobs/runner.js';
import { digestSecret } from '../../src/lib/secrets.js';
import { REDACT_PATHS } from '../../src/logger.js';
import { createUser, grantEventRole, grantSeriesRole } from '../../src/modules/accounts/users.service.js';
import {
  issueEventKey,
  issueGlobalToken,
  issueLegacyEventKey,
  issueMobileToken,
  issueSeriesKey,
} from '../../src/modules/credentials/issue.service.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { ensureDefaultClients } from '../../src/modules/signin/clients.service.js';
import { createDeps } from '../../src/server.js';
import { bearer } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { breakChecksum } from '../support/world.js';

const P = '/api/v1';

let database: TestDatabase;
let deps: Awaited<ReturnType<typeof createDeps>>;
let app: FastifyInstance;
let smtp: TestSmtp;
const logs: string[] = [];

/** Every secret the flows issued or presented, by label. Sign-in codes are matched as whole words. */
const secrets = new Map<string, string>();
const codes = new Map<string, string>();
let ipCounter = 0;
const nextIp = () => `10.77.0.${++ipCounter}`;

beforeAll(async () => {
  smtp = await startSmtp();
  database = await createTestDatabase();
  const logger = pino(
    { level: 'debug', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    {
      write(line: string) {
        logs.push(line);
      },
    },
  );
  const config = loadConfig({ ...database.env, SMTP_URL: smtp.url, LOG_LEVEL: 'debug' });
  deps = await createDeps(config, { logger, database: await database.open(config) });
  await ensureDefaultClients(deps.db);
  await startWorker(deps, { pollingIntervalSeconds: 0.5 });
  app = await buildApp(deps);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await deps?.close();
  await database?.drop();
  await smtp?.close();
});

function remember(label: string, secret: string): string {
  secrets.set(label, secret);
  return secret;
}

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, secret?: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    remoteAddress: nextIp(),
    headers: bearer(secret),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** The forms of one secret that must not appear anywhere. */
function encodings(secret: string): string[] {
  const utf8 = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([
    secret,
    encodeURIComponent(secret),
    [...utf8].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    JSON.stringify(secret).slice(1, -1),
    utf8.toString('base64'),
    utf8.toString('base64').replace(/=+$/, ''),
    utf8.toString('base64url'),
    utf8.toString('hex'),
    utf8.toString('hex').toUpperCase(),
    [...secret].reverse().join(''),
  ]);
  // Prefixed secrets (`mst_[gsem]_` + random + 6 checksum chars): the random body alone, and
  // without the checksum (a log that cut off prefix or checksum still leaks them).
  const prefixed = /^mst_[gsem]_([0-9A-Za-z]{32,43})[0-9A-Za-z]{6}$/.exec(secret);
  if (prefixed) {
    forms.add(prefixed[1]!);
    forms.add(secret.slice(0, -6));
  }
  // base64url of 32 random bytes (the PKCE verifier): the same bytes in other encodings.
  if (/^[A-Za-z0-9_-]{43}$/.test(secret)) {
    const raw = Buffer.from(secret, 'base64url');
    forms.add(raw.toString('hex'));
    forms.add(raw.toString('base64'));
    forms.add(raw.toString('base64').replace(/=+$/, ''));
  }
  // Legacy keys are hex: the same bytes as base64, and the other letter case.
  if (/^[0-9a-f]{32,64}$/.test(secret) && secret.length % 2 === 0) {
    const raw = Buffer.from(secret, 'hex');
    forms.add(raw.toString('base64'));
    forms.add(raw.toString('base64url'));
    forms.add(secret.toUpperCase());
  }
  return [...forms];
}

/** Finds every (label, encoding) of the remembered secrets in `text`. */
function leaks(text: string, opts: { codes: boolean }): string[] {
  const found: string[] = [];
  for (const [label, secret] of secrets) {
    for (const form of encodings(secret)) if (text.includes(form)) found.push(`${label} as ${form}`);
  }
  if (opts.codes) {
    for (const [label, code] of codes) {
      // A 6-digit code as a whole word (not inside a longer number or a timestamp's fraction).
      if (new RegExp(`(?<![0-9A-Za-z.])${code}(?![0-9A-Za-z])`).test(text)) found.push(`${label} (${code})`);
    }
  }
  return found;
}

/** Every row of every table of every schema (public, pgboss, drizzle, …) as JSON text. */
async function databaseDump(): Promise<{ text: string; tables: string[] }> {
  const pool = deps.database.pool;
  const { rows } = await pool.query<{ s: string; t: string }>(
    `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
      ORDER BY 1, 2`,
  );
  const quote = (id: string) => `"${id.replaceAll('"', '""')}"`;
  const parts: string[] = [];
  for (const { s, t } of rows) {
    const res = await pool.query<{ row: string }>(
      `SELECT to_jsonb(x)::text AS row FROM ${quote(s)}.${quote(t)} x`,
    );
    for (const r of res.rows) parts.push(`${s}.${t} ${r.row}`);
  }
  return { text: parts.join('\n'), tables: rows.map((r) => `${r.s}.${r.t}`) };
}

async function waitForEmails(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const res = await deps.database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM email_log WHERE status <> 'sent'`,
    );
    if (res.rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('queued emails were not all sent');
}

describe('no issued secret is stored or logged', () => {
  it('after issuing, presenting, rotating, revoking and signing in, the dump, logs and emails hold none', async () => {
    // ---- issue every kind --------------------------------------------------------------------
    const w = await deps.db.transaction(async (tx) => {
      const admin = await createUser(tx, { email: 'admin@muster.test', name: 'Admin', globalAdmin: true });
      const ops = await createUser(tx, { email: 'ops@muster.test', name: 'Ops' });
      const owner = await createUser(tx, { email: 'owner@muster.test', name: 'Owner' });
      const s = await createSeries(tx, { name: 'Scan Series', slug: 'scan-series' });
      const e = await createEventRecord(tx, {
        seriesId: s.id,
        name: 'Scan Event',
        slug: 'scan-event',
        supportEmail: 'help@muster.example',
        startsAt: '2027-07-01T09:00:00Z',
      });
      await grantEventRole(tx, ops.id, e.id, 'ops');
      await grantEventRole(tx, owner.id, e.id, 'event_admin');
      await grantSeriesRole(tx, owner.id, s.id, 'owner');
      const k = {
        mobile: await issueMobileToken(tx, ops.id, { deviceName: 'Scanner' }),
        mobileToRotate: await issueMobileToken(tx, ops.id, { deviceName: 'Rotating phone' }),
        adminMobile: await issueMobileToken(tx, admin.id),
        global: await issueGlobalToken(tx, admin.id, { name: 'Full' }),
        scoped: await issueGlobalToken(tx, admin.id, { name: 'Bans only', scopes: ['bans:write'] }),
        globalToRevoke: await issueGlobalToken(tx, admin.id, { name: 'Leaked global' }),
        series: await issueSeriesKey(tx, s.id, { name: 'Series key', ownerUserId: owner.id }),
        seriesToRevoke: await issueSeriesKey(tx, s.id, { name: 'Leaked series key', ownerUserId: null }),
        event: await issueEventKey(tx, e.id, { name: 'Event key', ownerUserId: owner.id }),
        eventToRevoke: await issueEventKey(tx, e.id, { name: 'Leaked event key', ownerUserId: owner.id }),
        eventTypo: await issueEventKey(tx, e.id, { name: 'Typo target', ownerUserId: owner.id }),
        legacyToRevoke: await issueLegacyEventKey(tx, e.id, 'Leaked legacy key'),
      };
      return { eventId: e.id, k };
    });
    for (const [label, issued] of Object.entries(w.k)) remember(label, issued.secret);
    const { k } = w;

    // ---- present them: allowed, forbidden, refused ---------------------------------------------
    const presented: [string | undefined, 'GET' | 'POST', string, number][] = [
      [k.mobile.secret, 'GET', `${P}/me`, 200],
      [k.mobile.secret, 'GET', `${P}/events/${w.eventId}/participants`, 200],
      [k.global.secret, 'GET', `${P}/me`, 200],
      [k.global.secret, 'GET', `${P}/bans`, 200],
      [k.scoped.secret, 'GET', `${P}/me`, 403],
      [k.series.secret, 'GET', `${P}/series`, 200],
      [k.series.secret, 'GET', `${P}/series/current/events`, 200],
      [k.series.secret, 'GET', `${P}/me`, 403],
      [k.event.secret, 'GET', `${P}/events/${w.eventId}/participants/roster`, 200],
      [k.event.secret, 'GET', `${P}/events/${w.eventId}/participants`, 403],
      [k.legacyToRevoke.secret, 'GET', `${P}/events/${w.eventId}/participants/roster`, 200],
      [breakChecksum(k.series.secret), 'GET', `${P}/series`, 401],
      [k.event.secret, 'POST', `${P}/session/refresh`, 403],
      [k.global.secret, 'POST', `${P}/session/refresh`, 403],
    ];
    for (const [secret, method, url, status] of presented) {
      const res = await call(method, url, secret);
      expect(res.statusCode, `${method} ${url}`).toBe(status);
    }
    remember('seriesTypo', breakChecksum(k.series.secret));

    // ---- rotate and sign out -------------------------------------------------------------------
    const refreshed = await call('POST', `${P}/session/refresh`, k.mobileToRotate.secret);
    expect(refreshed.statusCode).toBe(200);
    const rotated = remember('rotated', (refreshed.json() as { token: string }).token);
    expect((await call('GET', `${P}/me`, k.mobileToRotate.secret)).statusCode).toBe(401);
    expect((await call('GET', `${P}/me`, rotated)).statusCode).toBe(200);
    expect((await call('DELETE', `${P}/session`, rotated)).statusCode).toBe(200);

    // ---- push tokens -----------------------------------------------------------------------------
    expect(
      (await call('POST', `${P}/push_tokens`, k.mobile.secret, { token: 'ExponentPushToken[scan-device]' }))
        .statusCode,
    ).toBe(201);
    expect(
      (
        await call(
          'DELETE',
          `${P}/push_tokens/${encodeURIComponent('ExponentPushToken[scan-device]')}`,
          k.mobile.secret,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await call('POST', `${P}/push_tokens`, k.adminMobile.secret, { token: 'a'.repeat(64) })).statusCode,
    ).toBe(201);

    // ---- revoke by secret (one with a typo, one mobile token, garbage) ---------------------------
    const typo = remember('eventTypoPresented', breakChecksum(k.eventTypo.secret));
    for (const [secret, success] of [
      [k.eventToRevoke.secret, true],
      [k.seriesToRevoke.secret, true],
      [k.legacyToRevoke.secret, true],
      [k.globalToRevoke.secret, true],
      [typo, false],
      [k.mobile.secret, false],
      [`  ${k.eventTypo.secret.slice(0, 20)}`, false],
    ] as const) {
      const res = await call('POST', `${P}/tokens/revoke`, undefined, { token: secret });
      expect(res.statusCode).toBe(200);
      expect((res.json() as { success: boolean }).success).toBe(success);
    }
    expect(
      (await call('GET', `${P}/events/${w.eventId}/participants/roster`, k.legacyToRevoke.secret)).statusCode,
    ).toBe(401);

    // ---- sign in by emailed code (OAuth pages → POST /session) -----------------------------------
    const verifier = remember('codeVerifier', randomBytes(32).toString('base64url'));
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const client = {
      response_type: 'code',
      client_id: 'muster-mobile',
      redirect_uri: 'muster://oauth/callback',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'scan-state',
    };
    const form = (fields: Record<string, string>) => ({
      remoteAddress: nextIp(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams(fields).toString(),
    });
    const page = await app.inject({
      method: 'GET',
      url: `${P}/oauth/authorize?${new URLSearchParams(client).toString()}`,
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    const sent = await app.inject({
      method: 'POST',
      url: `${P}/oauth/authorize/email`,
      ...form({ ...client, email: 'ops@muster.test' }),
    });
    expect(sent.statusCode).toBe(200);
    const requestId = /name="request_id" value="([^"]+)"/.exec(sent.body)?.[1];
    expect(requestId).toBeDefined();
    const mail = await smtp.waitFor(
      (m) => m.to.includes('ops@muster.test') && /sign-in code/.test(m.subject),
    );
    const code = /Your sign-in code is (\d{6})/.exec(mail.text)![1]!;
    codes.set('signInCode', code);
    const verified = await app.inject({
      method: 'POST',
      url: `${P}/oauth/authorize/verify`,
      ...form({ request_id: requestId!, code }),
    });
    expect(verified.statusCode).toBe(302);
    const location = new URL(verified.headers.location as string);
    const authCode = remember('authorizationCode', location.searchParams.get('code')!);
    const session = await call('POST', `${P}/session`, undefined, {
      code: authCode,
      redirect_uri: client.redirect_uri,
      code_verifier: verifier,
      device_name: 'Signed-in phone',
    });
    expect(session.statusCode, session.body).toBe(200);
    const signedIn = remember('signedIn', (session.json() as { token: string }).token);
    expect((await call('GET', `${P}/me`, signedIn)).statusCode).toBe(200);

    // ---- deliver every queued email ---------------------------------------------------------------
    await waitForEmails();
    const revokedMails = smtp.received.filter((m) => m.subject.startsWith('Muster API key revoked'));
    expect(revokedMails.length).toBeGreaterThanOrEqual(4);

    // ---- scan ---------------------------------------------------------------------------------------
    const dump = await databaseDump();
    // Controls: the dump covers the queue and the credential tables, the logs hold the requests,
    // and the scanner does find a secret where one is.
    expect(dump.tables).toEqual(
      expect.arrayContaining(['public.mobile_tokens', 'pgboss.job', 'public.email_log']),
    );
    expect(dump.text).toContain(digestSecret(k.mobile.secret));
    expect(dump.text).toContain('credentials.revoke_by_secret');
    const logText = logs.join('\n');
    expect(logs.length).toBeGreaterThan(50);
    expect(logText).toContain('/api/v1/tokens/revoke');
    expect(logText).toContain('/api/v1/session/refresh');
    expect(leaks(`x ${k.series.secret} y`, { codes: false })).toContain(`series as ${k.series.secret}`);
    const verifierHex = Buffer.from(verifier, 'base64url').toString('hex');
    expect(leaks(`x ${verifierHex} y`, { codes: false })).toEqual([`codeVerifier as ${verifierHex}`]);
    const mobileBody = k.mobile.secret.slice(6, 49);
    expect(leaks(`x ${mobileBody} y`, { codes: false })).toEqual([`mobile as ${mobileBody}`]);
    expect(leaks(`code: ${code}.`, { codes: true })).toEqual([`signInCode (${code})`]);

    expect(leaks(dump.text, { codes: true }), 'database dump').toEqual([]);
    expect(leaks(logText, { codes: true }), 'logs').toEqual([]);
    // Emails legitimately carry the sign-in code; nothing else.
    const emailText = smtp.received.map((m) => `${m.subject}\n${m.raw}`).join('\n');
    expect(leaks(emailText, { codes: false }), 'emails').toEqual([]);
  }, 120_000);
});
