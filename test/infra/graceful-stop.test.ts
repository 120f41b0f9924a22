/**
 * SIGTERM under load (docs/operations.md "Stopping"): 50 scans in flight through a real `muster serve`
 * process, then SIGTERM. Every response that arrived is a 200 whose scan is stored (nothing
 * answered and lost, nothing refused that the server had read), and the process exits 0 within the
 * 10 s stop deadline. PostgreSQL only (the database is read while and after the process runs).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, runJson, type TestDatabase } from '../cli/harness.js';
import { checkInContext, killAll, startMuster } from '../support/processes.js';

afterAll(killAll);
const onPostgres = Boolean(process.env.DATABASE_URL);
const IN_FLIGHT = 50;

describe.skipIf(!onPostgres)('graceful stop', { timeout: 300_000 }, () => {
  let db: TestDatabase;
  let token = '';
  let eventId = 0;
  let registrationIds: number[] = [];
  beforeAll(async () => {
    db = await freshDatabase();
    // Twice as many as scanned: the door refuses the demo's withdrawn and rejected people (409).
    const demo = await runJson(db, ['seed', '--participants', String(2 * IN_FLIGHT), '--seed', '5']);
    token = (demo.credentials as Record<string, string>).admin_mobile_token!;
    eventId = demo.event_id as number;
    registrationIds = await db.query(async (d) => {
      const { rows } = await d.execute<{ id: number }>(
        sql.raw(
          `SELECT r.id FROM registrations r JOIN events e ON e.id = r.event_id
          WHERE e.slug = 'demo-event' AND r.status = 'complete' ORDER BY r.id LIMIT ${IN_FLIGHT}`,
        ),
      );
      return rows.map((r) => r.id);
    });
    expect(registrationIds).toHaveLength(IN_FLIGHT);
  }, 180_000);
  afterAll(async () => {
    await db?.cleanup();
  });

  // Both topologies: `serve` with the job worker inside (the default) and HTTP-only `serve` (with
  // separate `muster worker`s). Sockets on which no request reached the app are closed once the
  // requests in progress are answered (http/closing.ts), so neither waits out the deadline.

  it.each([
    ['with the in-process job worker (the default)', 'true'],
    ['HTTP-only (separate workers)', 'false'],
  ])(
    'answers the scans already sent, stores each answered scan, and exits 0 within 10 s of SIGTERM: %s',
    async (_name, worker) => {
      const server = startMuster(['serve', '--json'], { ...db.env, MUSTER_WORKER: worker });
      const { url } = (await server.started()) as { url: string };
      const context = await checkInContext(url, eventId, token);
      const sent = registrationIds.map((id, i) =>
        fetch(`${url}/events/${eventId}/scans`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            participant_id: String(id),
            scan_context_id: context,
            client_scan_id: `stop-${i}`,
          }),
        }).then(
          async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown>, i }),
          () => null, // refused or reset before the server read it: no answer, so nothing to check
        ),
      );
      // Stop while the scans are in flight: after the first answer arrives, the rest are still queued.
      await Promise.race(sent);
      const stop = server.stop('SIGTERM');
      const answers = (await Promise.all(sent)).filter((a) => a !== null);
      const { code, ms } = await stop;

      expect(code, server.stderr()).toBe(0);
      expect(ms).toBeLessThan(10_000);
      expect(answers.length).toBeGreaterThan(0);
      for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
      const stored = await db.query(async (d) => {
        const { rows } = await d.execute<{ client_scan_id: string }>(
          sql.raw(`SELECT client_scan_id FROM scans WHERE client_scan_id LIKE 'stop-%'`),
        );
        return new Set(rows.map((r) => r.client_scan_id));
      });
      for (const a of answers) expect(stored.has(`stop-${a.i}`)).toBe(true);
      // Nothing half-written: every stored scan has its live-feed entry (written in the same statement).
      const orphans = await db.query(async (d) => {
        const { rows } = await d.execute<{ n: number }>(
          sql.raw(
            `SELECT count(*)::int AS n FROM scans s WHERE s.client_scan_id LIKE 'stop-%'
            AND NOT EXISTS (SELECT 1 FROM scan_feed f WHERE f.scan_id = s.id)`,
          ),
        );
        return rows[0]!.n;
      });
      expect(orphans).toBe(0);
    },
  );
});
