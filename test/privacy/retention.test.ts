/**
 * Retention and shredding (docs/privacy.md "Retention and shredding"): an event admin sets a
 * policy, previews it and downloads what it will remove; the daily job with the clock moved past
 * the due date removes exactly that (job payloads, the email log and upload links included), keeps
 * every count and check-in statistic, leaves other events alone, and is audited.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDuePolicies } from '../../src/modules/retention/policy.service.js';
import { bearer, get, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, populateSections, type World } from '../support/world.js';
import { addSubject, everyRow, linesNaming, type SubjectFixture, statistics } from './subject-fixture.js';

let t: TestApp;
let world: World;
let subject: SubjectFixture;
let otherEventReg: number;
const ALL = ['notes', 'pii', 'scans', 'sensitive', 'travel', 'uploads'];

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
  subject = await addSubject(t, world, { atB: false });
  otherEventReg = await t.deps.db.transaction(async (tx) => {
    const reg = await addRegistration(tx, {
      eventId: world.events.B.id,
      email: 'bea.beta@other.example',
      firstName: 'Bea',
      lastName: 'Beta',
      preferredName: null,
      dateOfBirth: '2010-01-01',
      status: 'complete',
    });
    await populateSections(tx, reg.id);
    return reg.id;
  });
}, 120_000);
afterAll(async () => t?.close());

const url = (suffix = '') => `/api/v1/events/${world.events.A.id}/retention${suffix}`;

describe('retention policy', () => {
  it('is set by an event admin, with its due date in the event’s zone, and audited', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: url(),
      headers: bearer(world.secrets.eventAdmin),
      payload: {
        categories: ['uploads', 'sensitive', 'pii', 'travel', 'notes', 'scans'],
        days_after_end: 365,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    // Event A ends 2026-07-14 17:00 UTC (Europe/London): due a year later.
    expect(res.json().policy).toEqual({
      categories: ALL,
      days_after_end: 365,
      due_at: '2027-07-14T17:00:00Z',
      due_on: '2027-07-14',
      applied_at: null,
    });
    const audit = await t.deps.db.execute(sql`SELECT 1 FROM audit_log WHERE action = 'retention.policy_set'`);
    expect(audit.rows).toHaveLength(1);
  });

  it('refuses a bad body with a plain 422', async () => {
    for (const payload of [
      { categories: ['medical'], days_after_end: 3 },
      { categories: [], days_after_end: 4000 },
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: url(),
        headers: bearer(world.secrets.admin),
        payload,
      });
      expect(res.statusCode).toBe(422);
      expect(typeof res.json().error).toBe('string');
    }
  });

  it('does nothing before the due date', async () => {
    const before = await everyRow(t);
    expect(await applyDuePolicies(t.deps.db, new Date('2027-07-14T16:59:00Z'))).toEqual({});
    expect(await everyRow(t)).toBe(before);
  });

  it('previews, downloads and then shreds exactly the previewed rows once the clock passes the date', async () => {
    const preview = await get(t.app, url('/preview'), world.secrets.eventAdmin);
    expect(preview.statusCode).toBe(200);
    const p = preview.json();
    const regs = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM registrations WHERE event_id = ${world.events.A.id}`,
    );
    expect(p.registrations).toBe(regs.rows[0]!.n);
    expect(p.message).toMatch(
      new RegExp(`^${p.registrations} registrations will lose their medical, .* on 2027-07-14\\.$`),
    );
    expect(p.tables.registration_medical).toBeGreaterThanOrEqual(1);

    // The safeguarding lead's download holds every category; the event admin's omits the sensitive one.
    const full = await get(t.app, url('/download'), world.secrets.admin);
    expect(full.statusCode, full.body.slice(0, 300)).toBe(200);
    expect(full.headers['cache-control']).toBe('no-store');
    expect(full.headers['content-disposition']).toMatch(/attachment/);
    const rows = full.json().tables as Record<string, unknown[]>;
    expect(Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, v.length]))).toEqual(p.tables);
    const limited = (await get(t.app, url('/download'), world.secrets.eventAdmin)).json();
    expect(limited.omitted_categories).toEqual(['sensitive']);
    expect(limited.tables.registration_medical).toBeUndefined();

    const stats = await statistics(t);
    expect(linesNaming(await everyRow(t)).length).toBeGreaterThan(0);
    const applied = await applyDuePolicies(t.deps.db, new Date('2027-07-15T00:00:00Z'));
    const counts = applied[world.events.A.id]!;
    const { 'pgboss.job': jobs, 'pgboss.archive': _archived, ...tables } = counts;
    expect(tables).toEqual(p.tables); // the preview named exactly what went
    expect(jobs).toBe(1); // the finished job whose payload named her

    // Gone from every table: her name, address, phone, guardian; the email log; the upload links.
    // Her sign-in account is not the event's data: it stays until she (or an admin) erases it.
    expect(linesNaming(await everyRow(t, ['users', 'mobile_tokens']))).toEqual([]);
    for (const table of [
      'registration_medical',
      'registration_safeguarding',
      'travels',
      'notes',
      'emergency_contacts',
    ]) {
      const left = await t.deps.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} x JOIN registrations r ON r.id = x.registration_id
             WHERE r.event_id = ${world.events.A.id}`,
      );
      expect(left.rows[0]!.n, table).toBe(0);
    }
    const docs = await t.deps.db.execute<{
      n: number;
    }>(sql`SELECT count(document_url)::int AS n FROM consents c
      JOIN registrations r ON r.id = c.registration_id WHERE r.event_id = ${world.events.A.id}`);
    expect(docs.rows[0]!.n).toBe(0);
    const mail = await t.deps.db.execute<{ to_email: string }>(
      sql`SELECT DISTINCT to_email FROM email_log WHERE event_id = ${world.events.A.id}`,
    );
    expect(mail.rows.map((r) => r.to_email)).toEqual(['erased@erased.invalid']);
    // Counts and check-in statistics unchanged; another event untouched.
    expect(await statistics(t)).toEqual(stats);
    const other = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM registration_medical WHERE registration_id = ${otherEventReg}`,
    );
    expect(other.rows[0]!.n).toBe(1);
    const audit = await t.deps.db.execute<{ metadata: { tables: Record<string, number> } }>(
      sql`SELECT metadata FROM audit_log WHERE action = 'retention.shredded' AND event_id = ${world.events.A.id}`,
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]!.metadata.tables).toEqual(counts);
    const policy = (await get(t.app, url(), world.secrets.eventAdmin)).json().policy;
    expect(policy.applied_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(subject.regA).toBeGreaterThan(0);
  });
});
