/**
 * The embedded default (`npm start`): the first start seeds the demo and prints its credentials;
 * after the server is killed (SIGKILL: no clean-up, its folder lock left behind) a restart right away
 * is not refused as "in use by another Muster process" (the lock's owner is gone), the demo is not
 * seeded or printed again, and every scan acknowledged before the kill is there.
 * Embedded database only (skipped with DATABASE_URL).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockOwnerIsGone } from '../../src/db/embedded/embedded.js';
import { checkInContext, killAll, startMuster } from '../support/processes.js';

afterAll(killAll);
const onPostgres = Boolean(process.env.DATABASE_URL);
const dir = mkdtempSync(path.join(tmpdir(), 'muster-restart-'));
const env = { ...process.env, DATABASE_URL: '', MUSTER_DATA_DIR: dir };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(onPostgres)('embedded restart after SIGKILL', { timeout: 600_000 }, () => {
  it('starts again at once with the acknowledged data intact', async () => {
    const first = startMuster(['serve', '--json'], env);
    const started = (await first.started(400_000)) as {
      url: string;
      demo: { credentials: Record<string, string>; event_slug: string; event_id: number } | null;
    };
    expect(started.demo?.event_slug).toBe('demo-event'); // first start of the embedded default
    const event = started.demo!.event_id;
    const auth = { authorization: `Bearer ${started.demo!.credentials.admin_mobile_token}` };
    const participants = (await (
      await fetch(`${started.url}/events/${event}/participants`, { headers: auth })
    ).json()) as { participants: { participant_event_id: number; status: string }[] };
    const context = await checkInContext(started.url, event, started.demo!.credentials.admin_mobile_token!);
    const acknowledged: string[] = [];
    // The door refuses withdrawn and rejected registrations (409); scan those it admits.
    const admitted = participants.participants.filter((p) => p.status === 'complete');
    expect(admitted.length).toBeGreaterThanOrEqual(12);
    for (const [i, p] of admitted.slice(0, 12).entries()) {
      const res = await fetch(`${started.url}/events/${event}/scans`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          participant_id: String(p.participant_event_id),
          scan_context_id: context,
          client_scan_id: `kill-${i}`,
        }),
      });
      expect(res.status).toBe(200);
      acknowledged.push(`kill-${i}`);
    }
    await first.stop('SIGKILL');
    // The kill leaves a lock folder refreshed moments ago, within its 15 s staleness (so a restart
    // used to be refused), whose recorded owner is detectably gone: the restart below takes it over
    // (test/infra/embedded.test.ts shows the take-over does not wait for staleness).
    expect(existsSync(path.join(dir, 'muster.lock'))).toBe(true);
    expect(lockOwnerIsGone(dir)).toBe(true);

    const second = startMuster(['serve', '--json'], env);
    const again = (await second.started(400_000)) as { url: string; demo: unknown };
    expect(second.stderr()).not.toContain('in use by another Muster process');
    expect(again.demo).toBeNull(); // credentials only on the start that created the demo
    const scans = (await (await fetch(`${again.url}/events/${event}/scans`, { headers: auth })).json()) as {
      scans: { client_scan_id: string | null }[];
    };
    const stored = new Set(scans.scans.map((s) => s.client_scan_id));
    for (const id of acknowledged) expect(stored.has(id), id).toBe(true);
    expect((await second.stop('SIGTERM')).code).toBe(0);
  });
});
