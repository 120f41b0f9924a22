/**
 * Runs the email-wording authorization-matrix rows (test/access/rows/email-templates.ts) against
 * the real database: exact status and error body per cell, the body's keys on success, and a
 * replay of every refused cell proving the database is unchanged.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  type EmailTemplateRow,
  emailTemplateRouteKeys,
  emailTemplateRows,
  LIST_ROUTE,
  PREVIEW_ROUTE,
  requestFor,
} from '../access/rows/email-templates.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function send(row: EmailTemplateRow) {
  return app.inject({ ...requestFor(row, world), headers: bearer(world.secrets[row.principal]) });
}

const TEMPLATE_KEYS = [
  'body',
  'customized',
  'link_label',
  'placeholders',
  'subject',
  'template',
  'translations',
  'updated_at',
];

describe('email template rows', () => {
  it('cover every principal on each route, and every registered email template route', () => {
    expect(emailTemplateRows).toHaveLength(PRINCIPALS.length * 9 * 5);
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => k.includes('/email_templates'))
      .sort();
    expect(registered).toEqual([...emailTemplateRouteKeys].sort());
  });

  it.each(
    emailTemplateRows.map(
      (r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const,
    ),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
    else if (row.expected.status >= 400) expect(Object.keys(body)).toEqual(['error']);
    else if (row.route === LIST_ROUTE) {
      expect(Object.keys(body)).toEqual(['email_templates']);
      expect((body.email_templates as object[]).map((x) => Object.keys(x).sort())).toEqual([
        TEMPLATE_KEYS,
        TEMPLATE_KEYS,
        TEMPLATE_KEYS,
      ]);
    } else if (row.route === PREVIEW_ROUTE)
      expect(Object.keys(body.preview as object).sort()).toEqual(['html', 'subject', 'text']);
    else expect(Object.keys(body.email_template as object).sort()).toEqual(TEMPLATE_KEYS);
  });

  it('replaying every refused cell leaves the database unchanged', async () => {
    const refused = emailTemplateRows.filter((r) => r.expected.status >= 400);
    const before = await snapshotDb(t.deps);
    for (const row of refused) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 120_000);
});
