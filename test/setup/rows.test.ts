/**
 * Runs the event setup authorization rows (test/access/rows/event-setup.ts) against the real
 * database: exact status and error body per cell, the body shape on success, and a replay of every
 * refused cell proving the database is unchanged.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import { type EventSetupRow, eventSetupRouteKeys, eventSetupRows } from '../access/rows/event-setup.js';
import { withWorld } from '../events/harness.js';
import { bearer, snapshotDb } from '../support/app.js';
import { imageUpload, multipart, png } from './fixtures.js';

const env = withWorld();
const MISSING = '99999999';

async function send(row: EventSetupRow) {
  const [name, form] = row.target.split(':') as [string, string];
  const event = name === 'X' ? null : env.w.events[name as 'A' | 'B' | 'C'];
  const segment = !event
    ? MISSING
    : form === 'uuid'
      ? event.uuid
      : form === 'slug'
        ? event.slug
        : String(event.id);
  const bad = form === 'bad';
  const headers = bearer(env.w.secrets[row.principal]);
  const url = (rest: string) => `/api/v1/events/${segment}/${rest}`;
  if (row.path.endsWith('consent_documents') && row.method === 'POST')
    return env.t.app.inject({
      method: 'POST',
      url: url('consent_documents'),
      headers,
      payload: {
        consent_document: { title: bad ? ' ' : `Photos ${row.principal} ${form}`, body: 'I agree.' },
      },
    });
  if (row.path.endsWith('consent_documents'))
    return env.t.app.inject({ method: 'GET', url: url('consent_documents'), headers });
  if (row.path.includes('consent_documents') && row.method === 'DELETE') {
    // A removable document exists for the cells that succeed; a refused cell is refused before any lookup.
    const type = `gone_${row.principal.toLowerCase()}_${form}`;
    if (event && row.expected.status === 204)
      await env.t.deps.db.execute(sql`
        INSERT INTO event_consent_documents (event_id, consent_type, version, title, body, required)
        VALUES (${event.id}, ${type}, 1, 'Gone', 'Text', false)`);
    return env.t.app.inject({ method: 'DELETE', url: url(`consent_documents/${type}`), headers });
  }
  if (row.path.includes('consent_documents'))
    return env.t.app.inject({
      method: 'PUT',
      url: url('consent_documents/waiver'),
      headers,
      payload: { consent_document: { title: bad ? ' ' : `Waiver ${row.principal}`, body: 'I agree.' } },
    });
  if (row.method === 'DELETE')
    return env.t.app.inject({ method: 'DELETE', url: url('images/banner'), headers });
  const upload = bad ? multipart([{ name: 'note', value: 'no file' }]) : imageUpload(png());
  return env.t.app.inject({
    method: 'PUT',
    url: url('images/logo'),
    headers: { ...headers, ...upload.headers },
    payload: upload.payload,
  });
}

describe('event setup rows', () => {
  it('cover every principal on each route, and each route is registered', () => {
    expect(eventSetupRows).toHaveLength(26 * (6 + 7 + 7 + 6 + 7 + 6));
    const registered = new Set(registeredRoutes(env.t.app).map((r) => `${r.method} ${r.url}`));
    expect(eventSetupRouteKeys.filter((k) => !registered.has(k))).toEqual([]);
  });

  it.each(
    eventSetupRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    if (row.expected.status === 204) return expect(res.body).toBe('');
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
    else if (row.path.includes('images')) expect(Object.keys(body)).toEqual(['logo_url', 'banner_url']);
    else expect(Object.keys(body)).toEqual([row.method === 'GET' ? 'consent_documents' : 'consent_document']);
  });

  it('replaying every refused cell leaves the database unchanged', async () => {
    const refused = eventSetupRows.filter((r) => r.expected.status >= 400);
    const before = await snapshotDb(env.t.deps);
    for (const row of refused) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  }, 180_000);
});
