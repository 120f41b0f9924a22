/**
 * Retention (src/modules/retention): processed webhook dedupe rows and scan-feed entries older than
 * MUSTER_RETENTION_DAYS go; newer ones, and unprocessed webhook rows, stay; cached participant
 * texts no read serves go once a day old; the worker registers the daily schedule.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_CRON, startWorker } from '../../src/jobs/runner.js';
import { pruneRetention } from '../../src/modules/retention/retention.service.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld } from '../support/world.js';

let t: TestApp;
let eventId: number;
let regId: number;

beforeAll(async () => {
  t = await startTestApp();
  const world = await buildWorld(t.deps);
  eventId = world.events.A.id;
  regId = world.regs.adultA.id;
});
afterAll(async () => t?.close());

async function seed(): Promise<void> {
  await t.deps.db.execute(sql`
    INSERT INTO webhook_events (provider, event_id, event_type, payload, created_at, processed_at) VALUES
      ('email', 'old-processed', 'Bounce', '{}', now() - interval '40 days', now() - interval '40 days'),
      ('email', 'old-unprocessed', 'Bounce', '{}', now() - interval '40 days', NULL),
      ('email', 'new-processed', 'Bounce', '{}', now() - interval '2 days', now() - interval '2 days')`);
  await t.deps.db.execute(sql`
    INSERT INTO scan_feed (event_id, kind, scan_id, scan_context_id, payload, created_at) VALUES
      (${eventId}, 'scan', 1, 1, '{"id":1}', now() - interval '40 days'),
      (${eventId}, 'scan', 2, 1, '{"id":2}', now() - interval '2 days')`);
}

async function remaining(): Promise<{ webhooks: string[]; feed: number[] }> {
  const w = await t.deps.db.execute<{ event_id: string }>(
    sql`SELECT event_id FROM webhook_events ORDER BY event_id`,
  );
  const f = await t.deps.db.execute<{ scan_id: number }>(
    sql`SELECT scan_id::int FROM scan_feed ORDER BY scan_id`,
  );
  return { webhooks: w.rows.map((r) => r.event_id), feed: f.rows.map((r) => r.scan_id) };
}

describe('retention prune', () => {
  it('deletes what is past the window and nothing else', async () => {
    await seed();
    const everything = await remaining();

    // A 50-day window keeps the 40-day-old rows.
    const wide = { ...t.deps, config: { ...t.deps.config, retentionDays: 50 } };
    expect(await pruneRetention(wide)).toEqual({ webhook_events: 0, scan_feed: 0, participant_json: 0 });
    expect(await remaining()).toEqual(everything);

    // The default 30 days: the old processed webhook row and the old feed entry go.
    expect(t.deps.config.retentionDays).toBe(30);
    expect(await pruneRetention(t.deps)).toEqual({ webhook_events: 1, scan_feed: 1, participant_json: 0 });
    expect(await remaining()).toEqual({
      webhooks: everything.webhooks.filter((id) => id !== 'old-processed'),
      feed: everything.feed.filter((id) => id !== 1),
    });
    // Running again deletes nothing more.
    expect(await pruneRetention(t.deps)).toEqual({ webhook_events: 0, scan_feed: 0, participant_json: 0 });
  });

  it('deletes cached participant texts no read serves once a day old, and keeps the current ones', async () => {
    // A current text (kept, however old), a text of an older updated_at, fences (no text) of deleted
    // registrations a day old and just now; the trigger's fences of the world's writes are recent.
    await t.deps.db.execute(sql`
      INSERT INTO participant_json (registration_id, tier, version, updated_at, j)
      SELECT v.id, v.tier, v.version, r.updated_at - v.ago, v.j
        FROM registrations r, (VALUES (${regId}::int, 'p', 'v', interval '0 days', '{"current":1}'),
                                      (${regId}::int, 'ps', 'v', interval '2 days', '{"stale":1}')) v(id, tier, version, ago, j)
       WHERE r.id = ${regId}
      UNION ALL SELECT -1, '-', '', now() - interval '25 hours', ''
      UNION ALL SELECT -2, '-', '', now(), ''
      ON CONFLICT (registration_id, tier) DO UPDATE SET version = EXCLUDED.version, updated_at = EXCLUDED.updated_at, j = EXCLUDED.j`);
    const before = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM participant_json`,
    );
    expect(await pruneRetention(t.deps)).toEqual({ webhook_events: 0, scan_feed: 0, participant_json: 2 });
    const left = await t.deps.db.execute<{ id: number; tier: string; j: string }>(
      sql`SELECT registration_id AS id, tier, j FROM participant_json WHERE registration_id IN (${regId}, -1, -2) AND j <> ''
          UNION ALL SELECT registration_id, tier, j FROM participant_json WHERE registration_id < 0 ORDER BY 1, 2`,
    );
    expect(left.rows).toEqual([
      { id: -2, tier: '-', j: '' },
      { id: regId, tier: 'p', j: '{"current":1}' },
    ]);
    const after = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM participant_json`,
    );
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n - 2);
  });

  it('is scheduled daily by the worker', async () => {
    await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
    const schedules = (await t.deps.jobs.boss.getSchedules()) as {
      name: string;
      cron: string;
      timezone: string;
    }[];
    // (The worker also schedules the hourly reminder job: test/email/reminders.test.ts.)
    expect(schedules.filter((s) => s.name === 'retention-prune')).toEqual([
      expect.objectContaining({ name: 'retention-prune', cron: RETENTION_CRON }),
    ]);
  });
});
