/**
 * Sign-in test harness: a real listening Muster (so OAuth client libraries talk to it over the
 * network), a real SMTP server, the job worker delivering emails, and every log line captured (to
 * prove no secret is logged). Also a tiny browser: form parsing and redirect following.
 */
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { banEmails, bans, type RegistrationStatus, registrations } from '../../src/db/schema/index.js';
import { startWorker } from '../../src/jobs/runner.js';
import { REDACT_PATHS } from '../../src/logger.js';
import {
  createUser,
  grantEventRole,
  grantSeriesRole,
  type UserRow,
} from '../../src/modules/accounts/users.service.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { ensureDefaultClients } from '../../src/modules/signin/clients.service.js';
import { createDeps } from '../../src/server.js';
import { createTestDatabase } from '../support/db.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';

export type Deps = Awaited<ReturnType<typeof createDeps>>;

export interface SigninApp {
  app: FastifyInstance;
  deps: Deps;
  smtp: TestSmtp;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/api/v1` */
  api: string;
  logs: string[];
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (for a MUSTER_BASE_URL known before the app starts). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startSigninApp(
  opts: { env?: Record<string, string>; port?: number } = {},
): Promise<SigninApp> {
  const smtp = await startSmtp();
  const database = await createTestDatabase();
  const logs: string[] = [];
  const logger = pino(
    { level: 'debug', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    {
      write(line: string) {
        logs.push(line);
      },
    },
  );
  const config = loadConfig({
    ...database.env,
    SMTP_URL: smtp.url,
    ...(opts.port ? { PORT: String(opts.port), MUSTER_BASE_URL: `http://127.0.0.1:${opts.port}` } : {}),
    ...opts.env,
  });
  const deps = await createDeps(config, { logger, database: await database.open(config) });
  await ensureDefaultClients(deps.db);
  await ensureDefaultClients(deps.db); // idempotent
  await startWorker(deps, { pollingIntervalSeconds: 0.5 });
  const app = await buildApp(deps);
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    app,
    deps,
    smtp,
    origin,
    api: `${origin}/api/v1`,
    logs,
    async close() {
      await app.close();
      await deps.close();
      await database.drop();
      await smtp.close();
    },
  };
}

export async function makeEvent(deps: Deps, name = 'Signin Camp'): Promise<{ id: number; seriesId: string }> {
  return deps.db.transaction(async (tx) => {
    const series = await createSeries(tx, { name: `${name} Series` });
    const event = await createEventRecord(tx, {
      name,
      seriesId: series.id,
      supportEmail: 'help@muster.example',
      startsAt: '2027-07-01T09:00:00Z',
    });
    return { id: event.id, seriesId: series.id };
  });
}

export async function makeUser(
  deps: Deps,
  email: string,
  opts: { name?: string; globalAdmin?: boolean; opsOf?: number; organizerOf?: string } = {},
): Promise<UserRow> {
  return deps.db.transaction(async (tx) => {
    const user = await createUser(tx, {
      email,
      name: opts.name ?? email.split('@')[0]!,
      globalAdmin: opts.globalAdmin ?? false,
    });
    if (opts.opsOf !== undefined) await grantEventRole(tx, user.id, opts.opsOf, 'ops');
    if (opts.organizerOf !== undefined) await grantSeriesRole(tx, user.id, opts.organizerOf, 'organizer');
    return user;
  });
}

/** A participant on `eventId` with a registration in `status` (as an import or an invitation leaves it). */
export async function makeRegistrant(
  deps: Deps,
  eventId: number,
  email: string,
  status: RegistrationStatus,
  name: { first: string; last: string; preferred?: string } = { first: 'Pat', last: 'Doe' },
): Promise<{ personId: number; registrationId: number }> {
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: number }>(sql`
      INSERT INTO people (email, legal_first_name, legal_last_name, preferred_name)
      VALUES (${email}, ${name.first}, ${name.last}, ${name.preferred ?? null})
      ON CONFLICT ((lower(email))) DO UPDATE SET email = EXCLUDED.email RETURNING id`);
    const person = rows[0];
    const [registration] = await tx
      .insert(registrations)
      .values({ eventId, personId: person!.id, status })
      .returning({ id: registrations.id });
    return { personId: person!.id, registrationId: registration!.id };
  });
}

/** Bans `emails` (one ban), as the CLI or an admin would. */
export async function ban(deps: Deps, emails: string[], createdByUserId: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(bans)
      .values({ reason: 'test', createdByUserId })
      .returning({ id: bans.id });
    await tx.insert(banEmails).values(emails.map((email) => ({ banId: row!.id, email })));
  });
}

/** The values of a page's form fields (`<input name=… value=…>`), first form only unless `action` is given. */
export function formFields(
  html: string,
  action?: string,
): { action: string; fields: Record<string, string> } {
  const forms = [...html.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g)];
  const form = action ? forms.find((f) => htmlDecode(f[1]!).endsWith(action)) : forms[0];
  if (!form) throw new Error(`No form${action ? ` posting to ${action}` : ''} in page:\n${html}`);
  const fields: Record<string, string> = {};
  for (const m of form[2]!.matchAll(/<input ([^>]*)>/g)) {
    const name = /name="([^"]*)"/.exec(m[1]!)?.[1];
    const value = /value="([^"]*)"/.exec(m[1]!)?.[1] ?? '';
    if (name) fields[htmlDecode(name)] = htmlDecode(value);
  }
  return { action: htmlDecode(form[1]!), fields };
}

function htmlDecode(s: string): string {
  return s
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** POSTs a form like a browser (no redirect following). */
export function postForm(
  url: string,
  fields: Record<string, string> | ClientParams,
  accept = 'text/html',
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
    body: new URLSearchParams({ ...fields }).toString(),
    redirect: 'manual',
  });
}

export function getPage(url: string | URL, accept = 'text/html'): Promise<Response> {
  return fetch(url, { headers: { accept }, redirect: 'manual' });
}

/** The 6-digit code of the newest sign-in email to `to` (waits for it). */
export async function codeFor(smtp: TestSmtp, to: string, after = 0): Promise<string> {
  const mail = await smtp.waitFor(
    (m) =>
      m.to.includes(to.toLowerCase()) && smtp.received.indexOf(m) >= after && /sign-in code/.test(m.subject),
  );
  const code = /Your sign-in code is (\d{6})/.exec(mail.text)?.[1];
  if (!code) throw new Error(`No code in email: ${mail.text}`);
  return code;
}

/** Every row of every table (public and the job queue's schema) as text: to prove secrets are absent. */
export async function databaseText(deps: Deps): Promise<string> {
  const pool = deps.database.pool;
  const { rows: tables } = await pool.query<{ s: string; t: string }>(
    `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
      WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { s, t } of tables) {
    const { rows } = await pool.query<{ d: string | null }>(
      `SELECT string_agg(to_jsonb(x)::text, E'\\n') AS d FROM "${s}"."${t}" x`,
    );
    parts.push(rows[0]?.d ?? '');
  }
  return parts.join('\n');
}

/** Whether `secret` occurs in `text` as a whole token (a 6-digit code inside a longer number does not count). */
export function containsSecret(text: string, secret: string): boolean {
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![0-9A-Za-z._~-])${escaped}(?![0-9A-Za-z_~-])`).test(text);
}

export interface ClientParams {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: string;
  state: string;
}

/** A valid authorization request for the default client (challenge of a random verifier). */
export function clientParams(overrides: Partial<ClientParams> = {}): ClientParams {
  return {
    response_type: 'code',
    client_id: 'muster-mobile',
    redirect_uri: 'muster://oauth/callback',
    // base64url(SHA-256("test-verifier-…")): any 43-character value is a well-formed challenge.
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'client-state-123',
    ...overrides,
  };
}

export function authorizeUrl(
  t: SigninApp,
  params: Partial<Record<keyof ClientParams, string | undefined>>,
): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return `${t.api}/oauth/authorize?${q.toString()}`;
}

/** Submits the email form as the sign-in page would; returns the response and the code page's form. */
export async function requestCode(
  t: SigninApp,
  email: string,
  params: ClientParams = clientParams(),
): Promise<{ res: Response; html: string; requestId: string | undefined }> {
  const res = await postForm(`${t.api}/oauth/authorize/email`, { ...params, email });
  const html = await res.text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  return { res, html, requestId };
}

export function verify(
  t: SigninApp,
  requestId: string,
  code: string,
  accept = 'text/html',
): Promise<Response> {
  return postForm(`${t.api}/oauth/authorize/verify`, { request_id: requestId, code }, accept);
}
