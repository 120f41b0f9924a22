/**
 * `muster seed` (creates the demo once, refuses a second time) and `muster serve` (prints its URLs;
 * on a database that is not empty it seeds nothing; SIGTERM stops it cleanly).
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../support/cli-build.js';
import { freshDatabase, ROOT, runCli, runJson, singleJson, type TestDatabase } from './harness.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase();
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

describe('muster seed and serve', { timeout: 120_000 }, () => {
  let adminToken = '';

  it('seed creates the demo and prints its credentials', async () => {
    const demo = await runJson(db, ['seed', '--participants', '30', '--seed', '3']);
    expect(demo).toMatchObject({
      event_slug: 'demo-event',
      sibling_event_slug: 'demo-retreat',
      participant_count: 30,
      series_id: expect.any(String),
      event_id: expect.any(Number),
    });
    const credentials = demo.credentials as Record<string, string>;
    expect(Object.keys(credentials).sort()).toEqual([
      'admin_mobile_token',
      'event_key',
      'limited_mobile_token',
      'ops_mobile_token',
      'safeguarding_mobile_token',
      'series_key',
    ]);
    expect(credentials.series_key).toMatch(/^mst_s_/);
    expect(credentials.event_key).toMatch(/^mst_e_/);
    expect(demo.users).toContainEqual(
      expect.objectContaining({ email: 'admin@muster.example', role: 'global_admin' }),
    );
    adminToken = credentials.admin_mobile_token!;
  });

  it('seed refuses when the demo already exists', async () => {
    const again = await runCli(db, ['seed', '--json']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('demo data already exists');
    expect(singleJson(again.stdout).error).toContain('demo-series');
  });

  it('serve prints its URLs, answers with the demo credentials, and stops on SIGTERM', async () => {
    // Node itself (not the tsx CLI, which relays signals to a child process of its own and, on a
    // loaded machine, sometimes ended with 143 instead of our exit code).
    const child = spawn(process.execPath, cliArgs(['serve', '--json']), {
      cwd: ROOT,
      env: { ...db.env, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      for (let i = 0; i < 600 && !stdout.includes('\n'); i++) {
        if (child.exitCode !== null) throw new Error(`serve exited early: ${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const started = singleJson(stdout);
      expect(started).toEqual({
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/),
        docs_url: expect.any(String),
        demo: null,
      });
      const res = await fetch(`${started.url}/events`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { events: { slug: string }[] };
      expect(body.events.map((e) => e.slug)).toContain('demo-event');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
