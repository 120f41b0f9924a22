/**
 * GET /events/{e}/scans?since= (docs/decisions.md "Check-in") under concurrent writes: the mobile app's scan
 * sync (pages while `has_more`, `synced_at` passed back verbatim as `since`, stop when it does not
 * advance) receives every stored scan exactly once, and every cursor is a plain ISO 8601 UTC
 * timestamp with microseconds. Writes: group-commit batches (concurrent POST /scans), bulk replays,
 * single transactions of hundreds of scans sharing one created_at (pages of 500 ending inside
 * them) and, on PostgreSQL, a transaction that commits after a later one (out of order).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { type AppMethod, appInject } from '../support/mobile-app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let B: number;
let regs: number[] = [];

const PLAIN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  B = world.events.B.id;
  regs = await t.deps.db.transaction(async (tx) => {
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) {
      const reg = await addRegistration(tx, {
        eventId: B,
        email: `cursor${i}@scan.test`,
        firstName: `Cursor${i}`,
        lastName: 'Sync',
        preferredName: null,
        dateOfBirth: '1990-01-01',
        status: 'complete',
      });
      ids.push(reg.id);
    }
    return ids;
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const appRequest = (method: AppMethod, url: string, body?: unknown) =>
  appInject(app, world.users.admin.mobile, method, url, body);

type Page = { scans: { id: number; created_at: string }[]; has_more: boolean; synced_at: string };

/** What the app's scan sync keeps: every page, every cursor, how often each scan id arrived. */
class Device {
  readonly pages: Page[] = [];
  readonly delivered = new Map<number, number>();
  constructor(public cursor: string) {}

  /** One incremental sync as the app runs it (at most 100 pages). */
  async sync(): Promise<void> {
    for (let page = 0; page < 100; page++) {
      const res = await appRequest('GET', `/events/${B}/scans?since=${encodeURIComponent(this.cursor)}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as Page;
      this.pages.push(body);
      for (const s of body.scans) this.delivered.set(s.id, (this.delivered.get(s.id) ?? 0) + 1);
      if (!body.synced_at) return;
      const advanced = body.synced_at !== this.cursor;
      this.cursor = body.synced_at;
      if (!body.has_more || !advanced) return;
    }
  }
}

async function bootstrap(): Promise<Device> {
  const res = await appRequest('GET', `/events/${B}/scans`);
  expect(res.statusCode).toBe(200);
  return new Device(res.json().synced_at);
}

/** `n` scans of `of` written by ONE statement (one transaction): they share created_at. */
async function batchOf(n: number, tag: string, of: number[] = regs): Promise<void> {
  await t.deps.db.execute(
    sql`INSERT INTO scans (event_id, registration_id, scan_context_id, outcome, scanned_at, source, client_scan_id)
        SELECT ${B}, (${sql.raw(`ARRAY[${of.join(',')}]`)})[1 + g % ${of.length}], ${world.contexts.checkInB},
               'already_scanned', now(), 'qr', ${tag} || g
          FROM generate_series(1, ${n}) g`,
  );
}

/** The event's scans created after `cursor`, as stored. */
async function storedAfter(cursor: string): Promise<number[]> {
  const res = await t.deps.db.execute<{ id: number }>(
    sql`SELECT id::int AS id FROM scans WHERE event_id = ${B} AND created_at > ${cursor}::timestamptz ORDER BY id`,
  );
  return res.rows.map((r) => Number(r.id));
}

/** Every scan created after the device's first cursor arrived exactly once; every cursor is plain. */
async function expectExactlyOnce(device: Device, first: string, atLeast: number): Promise<void> {
  const stored = await storedAfter(first);
  expect(stored.length).toBeGreaterThanOrEqual(atLeast);
  const repeated = [...device.delivered].filter(([, n]) => n > 1).map(([id]) => id);
  expect(repeated).toEqual([]);
  expect([...device.delivered.keys()].sort((a, b) => a - b)).toEqual(stored);
  for (const page of device.pages) {
    expect(page.synced_at).toMatch(PLAIN);
    // A page that says there is more ends at its last scan's created_at (the app's rule).
    if (page.has_more) expect(page.synced_at).toBe(page.scans.at(-1)!.created_at);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30)); // past the high-water mark

describe('scan sync cursor', () => {
  it('pages of 500 never end inside a transaction’s scans: cut before it, or the whole instant', async () => {
    const device = await bootstrap();
    const first = device.cursor;
    for (const [n, tag] of [
      [300, 'a'],
      [400, 'b'],
      [700, 'c'],
      [120, 'd'],
    ] as const) {
      await batchOf(n, `mid-${tag}`);
    }
    await settle();
    await device.sync();
    // 300 + 400: the 500th row is inside the 400 → the page ends after the 300. 400 + 700: ends
    // after the 400. 700 alone: the whole instant. Then the last 120 and the high-water mark.
    expect(device.pages.map((p) => [p.scans.length, p.has_more])).toEqual([
      [300, true],
      [400, true],
      [700, true],
      [120, false],
    ]);
    for (const page of device.pages) expect(new Set(page.scans.map((s) => s.created_at)).size).toBe(1);
    await expectExactlyOnce(device, first, 1520);
  }, 60_000);

  it('concurrent group-commit batches, bulk replays and big transactions: every scan once', async () => {
    const device = await bootstrap();
    const first = device.cursor;
    let writing = true;
    const poller = (async () => {
      while (writing) {
        await device.sync();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const singles = (async () => {
      for (let round = 0; round < 15; round++) {
        const answers = await Promise.all(
          regs.map((reg, i) =>
            appRequest('POST', `/events/${B}/scans`, {
              participant_id: reg,
              scan_context_id: world.contexts.checkInB,
              client_scan_id: `cc-${round}-${i}`,
              source: 'qr',
              scanned_at: new Date().toISOString(),
            }),
          ),
        );
        expect(answers.map((a) => a.statusCode)).toEqual(regs.map(() => 200));
      }
    })();
    const bulks = (async () => {
      for (let round = 0; round < 2; round++) {
        const res = await appRequest('POST', `/events/${B}/scans/bulk`, {
          scans: Array.from({ length: 300 }, (_, i) => ({
            participant_id: regs[i % regs.length],
            client_scan_id: `cb-${round}-${i}`,
            scanned_at: new Date().toISOString(),
          })),
        });
        expect(res.statusCode).toBe(200);
      }
    })();
    const bigs = (async () => {
      for (const n of [650, 480, 900]) {
        await batchOf(n, `big-${n}-`);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    await Promise.all([singles, bulks, bigs]);
    writing = false;
    await poller;
    await settle();
    await device.sync();
    await expectExactlyOnce(device, first, 15 * 40 + 600 + 2030);
  }, 180_000);

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'a transaction that commits after a later one is neither skipped nor repeated (PostgreSQL)',
    async () => {
      const device = await bootstrap();
      const first = device.cursor;
      const connect = async () => {
        const c = new pg.Client({ connectionString: t.deps.config.databaseUrl, options: '-c TimeZone=UTC' });
        await c.connect();
        return c;
      };
      const early = await connect();
      const late = await connect();
      // A scan bumps its registration's updated_at (a row lock until commit): the open transaction
      // and the others write scans of different registrations.
      const [mine, others] = [regs.slice(0, 20), regs.slice(20)];
      const insert = (c: pg.Client, n: number, tag: string, of: number[]) =>
        c.query(
          `INSERT INTO scans (event_id, registration_id, scan_context_id, outcome, scanned_at, source, client_scan_id)
           SELECT $1, ($2::int[])[1 + g % array_length($2::int[], 1)], $3, 'already_scanned', now(), 'qr', $4 || g
             FROM generate_series(1, $5::int) g`,
          [B, of, world.contexts.checkInB, tag, n],
        );
      try {
        await early.query('BEGIN');
        const started = (
          await early.query<{ at: string }>(`SELECT to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at`)
        ).rows[0]!.at;
        await insert(early, 350, 'ooo-early-', mine);
        await new Promise((resolve) => setTimeout(resolve, 10));
        // A later transaction commits first, with more than a page of scans.
        await late.query('BEGIN');
        await insert(late, 620, 'ooo-late-', others);
        await late.query('COMMIT');
        await batchOf(200, 'ooo-auto-', others);
        await settle();
        await device.sync();
        // While the early transaction is open the cursor never passes its start.
        expect(device.cursor < started).toBe(true);
        expect(device.delivered.size).toBe(0);
        await early.query('COMMIT');
        await settle();
        await device.sync();
        await expectExactlyOnce(device, first, 1170);
        expect(device.delivered.size).toBe(1170);
      } finally {
        await early.end();
        await late.end();
      }
    },
    60_000,
  );
});
