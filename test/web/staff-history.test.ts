/**
 * The participant page's history as people read it (issue 25 item 3, docs/staff-dashboard.md
 * "Participant page and staff edits"): field labels, old → new values only for fields the reader
 * may see (sensitive and PII values never reach a role that may not see them, not even in the
 * markup), filters by section and by who, the live region's poll (204 until something changes),
 * and the audit API never returning the values.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type UserName, type World } from '../support/world.js';
import { type Browser, getPage, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
const browsers = new Map<UserName, Browser>();

async function as(user: UserName): Promise<Browser> {
  let b = browsers.get(user);
  if (!b) {
    b = await signedInBrowser(t.deps, world.users[user].id);
    browsers.set(user, b);
  }
  return b;
}
const path = (rest = '') => `/staff/events/${world.events.A.id}/participants/${world.regs.adultA.id}${rest}`;
const open = async (user: UserName, rest = '') => getPage(app, await as(user), path(rest));
/** The history region of a page (the rest of the page shows current values, which some roles may see). */
const historyOf = (html: string) => html.slice(html.indexOf('id="history-title"'));

async function patch(body: Record<string, unknown>) {
  const res = await app.inject({
    method: 'PATCH',
    url: `/api/v1/events/${world.events.A.id}/participants/${world.regs.adultA.id}`,
    headers: { authorization: `Bearer ${world.secrets.safeguarding}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  await patch({ phone: '+447700900123' });
  await patch({ dietary_detail: { intolerances: 'Lactose (new)' } });
  await patch({ medical_conditions: 'Asthma (new)' });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the participant page history', () => {
  it('shows a safeguarding lead old → new by label, and sensitive fields as changed (values never kept)', async () => {
    const h = historyOf((await open('safeguarding')).body);
    expect(h).toContain(
      '<strong>Phone</strong>: <span class="old">+44 7700 900999</span> → <span class="new">+44 7700 900123</span>',
    );
    expect(h).toMatch(/<strong>Intolerances[^<]*<\/strong>: changed/);
    expect(h).not.toContain('Lactose (new)');
    expect(h).not.toContain('Asthma (new)');
    expect(h).not.toContain('dietary_detail');
    expect(h).not.toContain('medical_conditions');
  });

  it('never gives ops the values of a medical field, only that a sensitive section changed', async () => {
    const h = historyOf((await open('ops')).body);
    expect(h).toContain('<span class="new">+44 7700 900123</span>'); // ops may see phones
    expect(h).toContain('<strong>A sensitive section</strong>: changed');
    for (const value of ['Asthma (new)', 'Lactose (new)', 'Intolerances', 'Peanuts'])
      expect(h).not.toContain(value);
  });

  it('gives limited neither medical nor phone values, even in the markup', async () => {
    const html = (await open('limited')).body;
    for (const value of ['Asthma (new)', 'Lactose (new)', '900123', '900999', 'Peanuts'])
      expect(html).not.toContain(value);
    const h = historyOf(html);
    expect(h).toContain('<strong>Phone</strong>: changed');
    expect(h).toContain('<strong>A sensitive section</strong>: changed');
    // The section filter offers only what limited may read.
    expect(html).not.toContain('<option value="medical"');
    expect(html).toContain('<option value="accommodation"');
  });

  it('filters by section and by who', async () => {
    const dietary = historyOf((await open('safeguarding', '?section=dietary')).body);
    expect(dietary).toMatch(/<strong>Intolerances[^<]*<\/strong>: changed/);
    expect(dietary).not.toContain('900123');
    expect(dietary).toContain('<option value="dietary" selected>');
    const who = world.users.safeguarding;
    const mine = historyOf(
      (await open('safeguarding', `?who=${encodeURIComponent(who.name ?? who.email)}`)).body,
    );
    expect(mine).toContain('900123');
    const nobody = historyOf((await open('safeguarding', '?who=nobody-at-all')).body);
    expect(nobody).toContain('No changes match these filters.');
    // A section limited may not read matches nothing for them.
    const hidden = historyOf((await open('limited', '?section=medical')).body);
    expect(hidden).toContain('No changes match these filters.');
  });

  it('polls: 204 while nothing changed, the new entry once something did', async () => {
    const page = (await open('ops')).body;
    const latest = /history\?latest=(\d+)/.exec(page)?.[1];
    expect(latest).toBeDefined();
    const same = await open('ops', `/history?latest=${latest}`);
    expect(same.statusCode).toBe(204);
    expect(same.body).toBe('');
    await patch({ pronouns: 'ze/zir' });
    const fresh = await open('ops', `/history?latest=${latest}`);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['cache-control']).toBe('no-store');
    expect(fresh.body).toContain('<strong>Pronouns</strong>:');
    expect(fresh.body).toContain('<span class="new">ze/zir</span>');
    expect(fresh.body).not.toContain('<html');
  });

  it('keeps the values out of the audit API', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/events/${world.events.A.id}/audit_log?action=registrations.record.update`,
      headers: { authorization: `Bearer ${world.secrets.admin}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('medical_conditions');
    expect(res.body).not.toContain('Asthma (new)');
    expect(res.body).not.toContain('changes');
  });

  it('erasure removes the kept values; the entries stay (who changed which field, when)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/events/${world.events.A.id}/participants/${world.regs.adultA.id}/erase`,
      headers: { authorization: `Bearer ${world.secrets.admin}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ confirm_email: 'alice.anderson@example.com' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const h = historyOf((await open('safeguarding')).body);
    expect(h).not.toContain('900123');
    expect(h).not.toContain('Asthma (new)');
    expect(h).toContain('Record edited by staff: Phone<');
  });
});
