/**
 * `muster keys revoke` and `muster tokens revoke` (src/cli/commands/revoke.ts), run in-process
 * through commander against a fresh database (embedded folder, or a new PostgreSQL database when
 * DATABASE_URL is set): by id and by secret, `--json` output, audit rows, and the refusals.
 */
import { Readable } from 'node:stream';
import { Command } from 'commander';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerCredentialCommands } from '../../src/cli/commands/credentials.js';
import { registerRevokeCommands } from '../../src/cli/commands/revoke.js';
import {
  auditLog,
  eventApiKeys,
  events,
  globalApiTokens,
  mobileTokens,
  seriesApiKeys,
} from '../../src/db/schema/index.js';
import { createUser } from '../../src/modules/accounts/users.service.js';
import {
  type IssuedSecret,
  issueEventKey,
  issueGlobalToken,
  issueLegacyEventKey,
  issueMobileToken,
  issueSeriesKey,
} from '../../src/modules/credentials/issue.service.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { freshDatabase, type TestDatabase } from '../cli/harness.js';
import { breakChecksum } from '../support/world.js';

let db: TestDatabase;
const savedEnv = { ...process.env };
let ids: { userId: number; adminId: number; seriesId: string; eventId: number };
/** Every credential the tests revoke, issued up front (each database open costs seconds on PGlite). */
let k: Record<
  | 'seriesById'
  | 'eventById'
  | 'legacy'
  | 'eventBySecret'
  | 'seriesFromStdin'
  | 'typo'
  | 'twice'
  | 'globalForKeys'
  | 'globalById'
  | 'mobileById'
  | 'globalBySecret'
  | 'mobileBySecret'
  | 'seriesForTokens',
  IssuedSecret
>;

beforeAll(async () => {
  db = await freshDatabase({ migrate: true });
  for (const key of ['DATABASE_URL', 'MUSTER_DATA_DIR', 'LOG_LEVEL'] as const) {
    if (db.env[key] === undefined) delete process.env[key];
    else process.env[key] = db.env[key];
  }
  ({ ids, k } = await db.query((d) =>
    d.transaction(async (tx) => {
      const user = await createUser(tx, { email: 'keeper@muster.test', name: 'Keeper' });
      const admin = await createUser(tx, { email: 'root@muster.test', name: 'Root', globalAdmin: true });
      const s = await createSeries(tx, { name: 'CLI Series', slug: 'cli-series' });
      const e = await createEventRecord(tx, {
        seriesId: s.id,
        name: 'CLI Event',
        slug: 'cli-event',
        supportEmail: 'help@muster.example',
      });
      const series = (name: string) => issueSeriesKey(tx, s.id, { name, ownerUserId: user.id });
      const event = (name: string) => issueEventKey(tx, e.id, { name, ownerUserId: user.id });
      const global = (name: string) => issueGlobalToken(tx, admin.id, { name });
      return {
        ids: { userId: user.id, adminId: admin.id, seriesId: s.id, eventId: e.id },
        k: {
          seriesById: await series('CLI series key'),
          eventById: await event('CLI event key'),
          legacy: await issueLegacyEventKey(tx, e.id, 'CLI legacy'),
          eventBySecret: await event('By secret'),
          seriesFromStdin: await series('From stdin'),
          typo: await series('Typo'),
          twice: await series('Twice'),
          globalForKeys: await global('G'),
          globalById: await global('Ops token'),
          mobileById: await issueMobileToken(tx, user.id, { deviceName: 'Lost phone' }),
          globalBySecret: await global('By secret'),
          mobileBySecret: await issueMobileToken(tx, user.id),
          seriesForTokens: await series('Not a token'),
        },
      };
    }),
  ));
}, 120_000);

afterAll(async () => {
  process.env = savedEnv;
  await db?.cleanup();
});

afterEach(() => {
  process.exitCode = 0;
});

/** Runs `muster <args>` in-process; returns exit code and what was printed. */
async function muster(
  args: string[],
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const program = new Command().name('muster').exitOverride();
  registerCredentialCommands(program);
  registerRevokeCommands(program);
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  const realStdin = Object.getOwnPropertyDescriptor(process, 'stdin');
  process.stdout.write = ((chunk: string) => {
    stdout += chunk;
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => {
    stderr += chunk;
    return true;
  }) as typeof process.stderr.write;
  if (stdin !== undefined)
    Object.defineProperty(process, 'stdin', { value: Readable.from([stdin]), configurable: true });
  process.exitCode = 0;
  try {
    await program.parseAsync(['node', 'muster', ...args]);
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    if (realStdin) Object.defineProperty(process, 'stdin', realStdin);
  }
  return { code: Number(process.exitCode ?? 0), stdout, stderr };
}

async function json(args: string[], stdin?: string) {
  const run = await muster([...args, '--json'], stdin);
  const lines = run.stdout.split('\n').filter((l) => l.trim());
  expect(lines, run.stderr).toHaveLength(1);
  return { code: run.code, body: JSON.parse(lines[0]!) as Record<string, unknown>, stderr: run.stderr };
}

/** revoked_at of each credential, the legacy digest, the audit rows of `action`: one database open. */
async function stateOf(action: string) {
  return db.query(async (d) => {
    const byId = (rows: { id: number; revokedAt: string | null }[]) =>
      new Map(rows.map((r) => [r.id, r.revokedAt]));
    return {
      series: byId(
        await d.select({ id: seriesApiKeys.id, revokedAt: seriesApiKeys.revokedAt }).from(seriesApiKeys),
      ),
      event: byId(
        await d.select({ id: eventApiKeys.id, revokedAt: eventApiKeys.revokedAt }).from(eventApiKeys),
      ),
      global: byId(
        await d
          .select({ id: globalApiTokens.id, revokedAt: globalApiTokens.revokedAt })
          .from(globalApiTokens),
      ),
      mobile: byId(
        await d.select({ id: mobileTokens.id, revokedAt: mobileTokens.revokedAt }).from(mobileTokens),
      ),
      legacyDigest: (await d.select().from(events).where(eq(events.id, ids.eventId)))[0]!.legacyApiKeyDigest,
      audits: await d.select().from(auditLog).where(eq(auditLog.action, action)),
      emails: (await d.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM email_log`)).rows[0]!.n,
    };
  });
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('muster keys revoke', { timeout: 60_000 }, () => {
  it('by id (series, event, legacy) and by secret (also from stdin): one JSON object each, audited as the CLI', async () => {
    const series = await json(['keys', 'revoke', '--id', String(k.seriesById.id), '--kind', 'series']);
    expect(series.code).toBe(0);
    expect(series.body).toEqual({
      revoked: true,
      kind: 'series_key',
      id: k.seriesById.id,
      name: 'CLI series key',
      owner_email: 'keeper@muster.test',
      series_id: ids.seriesId,
      event_id: null,
      revoked_at: expect.stringMatching(ISO),
      via: 'id',
    });

    const text = await muster(['keys', 'revoke', '--id', String(k.eventById.id), '--kind', 'event']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `Revoked event API key "CLI event key" (id ${k.eventById.id}) of event "CLI Event" (id ${ids.eventId})`,
    );

    const legacy = await json(['keys', 'revoke', '--id', String(ids.eventId), '--kind', 'legacy']);
    expect(legacy.code).toBe(0);
    expect(legacy.body).toMatchObject({
      kind: 'legacy_event_key',
      id: ids.eventId,
      name: 'CLI legacy',
      owner_email: null,
    });

    const bySecret = await json(['keys', 'revoke', '--secret', k.eventBySecret.secret]);
    expect(bySecret.code).toBe(0);
    expect(bySecret.body).toMatchObject({ kind: 'event_key', id: k.eventBySecret.id, via: 'secret' });

    const fromStdin = await json(['keys', 'revoke', '--secret', '-'], `${k.seriesFromStdin.secret}\n`);
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.body).toMatchObject({ kind: 'series_key', id: k.seriesFromStdin.id, via: 'secret' });

    const state = await stateOf('keys.revoke');
    expect(state.series.get(k.seriesById.id)).not.toBeNull();
    expect(state.series.get(k.seriesFromStdin.id)).not.toBeNull();
    expect(state.event.get(k.eventById.id)).not.toBeNull();
    expect(state.event.get(k.eventBySecret.id)).not.toBeNull();
    expect(state.legacyDigest).toBeNull();
    expect(state.series.get(k.typo.id)).toBeNull();
    expect(state.audits.map((a) => [a.targetType, Number(a.targetId), a.metadata.via]).sort()).toEqual(
      [
        ['event_key', k.eventById.id, 'id'],
        ['event_key', k.eventBySecret.id, 'secret'],
        ['legacy_event_key', ids.eventId, 'id'],
        ['series_key', k.seriesById.id, 'id'],
        ['series_key', k.seriesFromStdin.id, 'secret'],
      ].sort(),
    );
    for (const a of state.audits) expect(a).toMatchObject({ credentialKind: 'cli', actorUserId: null });
    expect(JSON.stringify(state.audits)).not.toContain(k.eventBySecret.secret);
    expect(state.emails).toBe(0); // operator revocations are audited only
  });

  it.each<[string, () => string[], string]>([
    ['neither --id nor --secret', () => [], 'Give exactly one of --id or --secret'],
    [
      'both --id and --secret',
      () => ['--id', '1', '--kind', 'series', '--secret', 'x'],
      'Give exactly one of --id or --secret',
    ],
    ['--id without --kind', () => ['--id', '1'], '--id needs --kind series|event|legacy'],
    ['a bad --kind', () => ['--id', '1', '--kind', 'global'], '--id needs --kind series|event|legacy'],
    [
      '--kind with --secret',
      () => ['--secret', 'x', '--kind', 'series'],
      '--kind applies to --id only; a secret names its own kind',
    ],
    [
      'a mistyped secret',
      () => ['--secret', breakChecksum(k.typo.secret)],
      'That is not a Muster API key secret (format or checksum is wrong)',
    ],
    [
      'a global token secret',
      () => ['--secret', k.globalForKeys.secret],
      'That secret is a global API token: use muster tokens revoke',
    ],
    ['a missing id', () => ['--id', '999999', '--kind', 'event'], 'No event API key with id 999999'],
  ])('%s → exit 1 with the reason', async (_name, args, error) => {
    const { code, body, stderr } = await json(['keys', 'revoke', ...args()]);
    expect(code).toBe(1);
    expect(body).toEqual({ error });
    expect(stderr).toBe(`Error: ${error}\n`);
  });

  it('revoking twice exits 1 (by id, by secret, legacy)', async () => {
    expect((await json(['keys', 'revoke', '--secret', k.twice.secret])).code).toBe(0);
    const again = await json(['keys', 'revoke', '--secret', k.twice.secret]);
    expect(again).toMatchObject({
      code: 1,
      body: { error: 'No active key has that secret (unknown or already revoked)' },
    });
    const byId = await json(['keys', 'revoke', '--id', String(k.twice.id), '--kind', 'series']);
    expect(byId).toMatchObject({
      code: 1,
      body: { error: `Series API key ${k.twice.id} is already revoked` },
    });
    const legacy = await json(['keys', 'revoke', '--id', String(ids.eventId), '--kind', 'legacy']);
    expect(legacy.code).toBe(1);
    expect(legacy.body).toEqual({
      error: `Event ${ids.eventId} has no legacy event key (never issued, or already revoked)`,
    });
  });
});

describe('muster tokens revoke', { timeout: 60_000 }, () => {
  it('--id: a global token (default kind) or, with --kind mobile, a mobile token; --secret: either', async () => {
    const g = await json(['tokens', 'revoke', '--id', String(k.globalById.id)]);
    expect(g.code).toBe(0);
    expect(g.body).toMatchObject({
      kind: 'global',
      id: k.globalById.id,
      name: 'Ops token',
      owner_email: 'root@muster.test',
    });
    const m = await json(['tokens', 'revoke', '--id', String(k.mobileById.id), '--kind', 'mobile']);
    expect(m.code).toBe(0);
    expect(m.body).toMatchObject({
      kind: 'mobile',
      id: k.mobileById.id,
      name: 'Lost phone',
      owner_email: 'keeper@muster.test',
    });
    const gs = await json(['tokens', 'revoke', '--secret', k.globalBySecret.secret]);
    expect(gs.body).toMatchObject({ kind: 'global', id: k.globalBySecret.id, via: 'secret' });
    const ms = await json(['tokens', 'revoke', '--secret', k.mobileBySecret.secret]);
    expect(ms.body).toMatchObject({ kind: 'mobile', id: k.mobileBySecret.id, via: 'secret' });

    const state = await stateOf('tokens.revoke');
    for (const t of [k.globalById, k.globalBySecret]) expect(state.global.get(t.id)).not.toBeNull();
    for (const t of [k.mobileById, k.mobileBySecret]) expect(state.mobile.get(t.id)).not.toBeNull();
    expect(state.audits).toHaveLength(4);

    const again = await json(['tokens', 'revoke', '--id', String(k.globalById.id)]);
    expect(again.body).toEqual({ error: `Global API token ${k.globalById.id} is already revoked` });
  });

  it.each<[string, () => string[], string]>([
    [
      'an API key secret',
      () => ['--secret', k.seriesForTokens.secret],
      'That secret is a series or event API key: use muster keys revoke',
    ],
    [
      'a missing mobile token',
      () => ['--id', '999999', '--kind', 'mobile'],
      'No mobile token with id 999999',
    ],
    ['a bad --kind', () => ['--id', '1', '--kind', 'series'], '--kind must be global or mobile'],
    ['garbage', () => ['--secret', 'garbage'], 'That is not a Muster token (format or checksum is wrong)'],
  ])('%s → exit 1 with the reason', async (_name, args, error) => {
    const { code, body } = await json(['tokens', 'revoke', ...args()]);
    expect(code).toBe(1);
    expect(body).toEqual({ error });
  });
});
