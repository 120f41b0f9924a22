/**
 * GET /metrics (docs/operations.md "Metrics"): 401 without the configured bearer token, and a
 * scrape that a Prometheus text parser reads, with the series operators watch: HTTP latency by route
 * template, job queue depth and age, emails by status, database pool, event-loop delay.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startTestApp, type TestApp } from '../support/app.js';
import { parsePrometheus, type Sample } from '../support/prometheus.js';
import { buildWorld } from '../support/world.js';

const TOKEN = 'metrics-token-for-tests-0123456789';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ MUSTER_METRICS_TOKEN: TOKEN });
});
afterAll(async () => t?.close());

async function scrape() {
  const res = await get(t.app, '/metrics', TOKEN);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const { types, samples } = parsePrometheus(res.body);
  const named = (name: string): Sample[] => samples.filter((s) => s.name === name);
  const value = (name: string, label: string, is: string) =>
    named(name).find((s) => s.labels[label] === is)?.value;
  return { types, named, value };
}

describe('GET /metrics', () => {
  it('answers 401 {error} without the token, with a wrong one, and on an app with no token configured', async () => {
    for (const secret of [undefined, 'wrong-token-wrong-token-0000', `${TOKEN}x`]) {
      const res = await get(t.app, '/metrics', secret);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
    }
    const bare = await startTestApp();
    try {
      const res = await get(bare.app, '/metrics', TOKEN);
      expect(res.statusCode).toBe(401);
    } finally {
      await bare.close();
    }
  });

  it('exports HTTP latency by route template, never the raw URL', async () => {
    await get(t.app, '/api/v1/healthz');
    await get(t.app, '/api/v1/events/12345/participants/678');
    const { types, named } = await scrape();
    expect(types.get('http_request_duration_seconds')).toBe('histogram');
    const counts = named('http_request_duration_seconds_count');
    const routes = counts.map((s) => s.labels.route);
    expect(routes).toContain('/api/v1/healthz');
    const template = routes.find((r) => r?.startsWith('/api/v1/events/:event_id/participants/:'));
    expect(template).toMatch(/^\/api\/v1\/events\/:event_id\/participants\/:[a-z_]+$/);
    expect(named('http_request_duration_seconds_bucket').some((s) => s.labels.route?.includes('12345'))).toBe(
      false,
    );
    const denied = counts.find((s) => s.labels.route === template);
    expect(denied?.labels).toMatchObject({ method: 'GET', status_code: '401' });
    expect(denied?.value).toBeGreaterThanOrEqual(1);
  });

  it('exports queue depth and age, emails by status, pool and event-loop figures from real state', async () => {
    await t.deps.jobs.enqueue(t.deps.db, 'retention-prune', {});
    await t.deps.db.execute(
      sql`INSERT INTO email_log (to_email, from_email, template, subject, status) VALUES
          ('a@example.com', 'x@muster.example', 'announcement', 's', 'failed'),
          ('b@example.com', 'x@muster.example', 'announcement', 's', 'sent'),
          ('c@example.com', 'x@muster.example', 'announcement', 's', 'sent')`,
    );
    const { types, named, value } = await scrape();
    expect(value('muster_job_queue_depth', 'queue', 'retention-prune')).toBeGreaterThanOrEqual(1);
    expect(value('muster_job_queue_oldest_seconds', 'queue', 'retention-prune')).toBeGreaterThanOrEqual(0);
    expect(value('muster_emails', 'status', 'failed')).toBe(1);
    expect(value('muster_emails', 'status', 'sent')).toBe(2);
    expect(
      named('muster_db_pool_connections')
        .map((s) => s.labels.state)
        .sort(),
    ).toEqual(['idle', 'in_use', 'waiting']);
    expect(types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(named('muster_scan_stream_clients')[0]?.value).toBe(0);
    expect(types.get('muster_scans')).toBe('gauge');
  });

  it('counts stored scans by door verdict', async () => {
    const world = await buildWorld(t.deps);
    await t.deps.db.execute(
      sql`UPDATE scans SET verdict = 'warning' WHERE id = (SELECT min(id) FROM scans WHERE event_id = ${world.events.A.id})`,
    );
    const stored = await t.deps.db.execute<{ verdict: string; n: number }>(
      sql`SELECT verdict, count(*)::int AS n FROM scans GROUP BY verdict`,
    );
    expect(stored.rows.map((r) => r.verdict).sort()).toEqual(['admitted', 'warning']);
    const { value } = await scrape();
    for (const { verdict, n } of stored.rows)
      expect(value('muster_scans', 'verdict', verdict), verdict).toBe(n);
  });
});

describe('docs/grafana/muster.json', () => {
  it('uses only series that /metrics exports', async () => {
    const { readFileSync } = await import('node:fs');
    const dashboard = JSON.parse(
      readFileSync(new URL('../../docs/grafana/muster.json', import.meta.url), 'utf8'),
    ) as {
      panels: { targets: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((x) => x.expr));
    const used = new Set(
      exprs.flatMap((e) =>
        [...e.matchAll(/\b((?:http|muster|nodejs)_[a-z0-9_]+)\{/g)].map((m) => m[1] as string),
      ),
    );
    expect(used.size).toBeGreaterThan(5);
    const res = await get(t.app, '/metrics', TOKEN);
    const { types, samples } = parsePrometheus(res.body);
    // A labelled gauge with no rows yet (no chat blast sent) is declared by its TYPE line alone.
    const exported = new Set([...types.keys(), ...samples.map((s) => s.name)]);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });
});
