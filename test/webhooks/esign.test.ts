/**
 * POST /webhooks/esign effects (docs/decisions.md "Messaging"), with the job worker running: DocuSeal
 * events move the consent matched by `esign_submission_id` (viewed → signed / declined / expired;
 * final states never move), then the registration completion check runs
 * (modules/registration/lifecycle/lifecycle.ts recheckCompletion): a signed waiver completes a submitted adult.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consents, emergencyContacts, registrations } from '../../src/db/schema/index.js';
import { startWorker } from '../../src/jobs/runner.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { processWebhookEvent } from '../../src/webhooks/process.js';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration } from '../support/world.js';
import { drain, SECRETS, signedRequest } from './helpers.js';

let t: TestApp;
let eventId: number;

beforeAll(async () => {
  t = await startTestApp(SECRETS);
  await t.deps.db.transaction(async (tx) => {
    const s = await createSeries(tx, { name: 'Esign Series', slug: 'esign-series' });
    const e = await createEventRecord(tx, {
      seriesId: s.id,
      name: 'Esign Event',
      slug: 'esign-event',
      supportEmail: 'help@muster.example',
      startsAt: '2026-07-10T09:00:00Z',
      setupComplete: true,
      modules: { freedom_waivers_enabled: false },
    });
    eventId = e.id;
  });
  await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

let n = 0;
/** A submitted adult registration (in_progress) whose waiver was sent for e-signature as `submissionId`. */
async function registrationWithWaiver(submissionId: string): Promise<{ reg: number; consent: number }> {
  n += 1;
  return t.deps.db.transaction(async (tx) => {
    const reg = await addRegistration(tx, {
      eventId,
      email: `signer${n}@example.com`,
      firstName: 'Sam',
      lastName: `Signer${n}`,
      preferredName: null,
      dateOfBirth: '1990-01-01',
      status: 'in_progress',
    });
    await tx.execute(sql`UPDATE registrations SET submitted_at = now() WHERE id = ${reg.id}`);
    await tx
      .insert(emergencyContacts)
      .values({ registrationId: reg.id, name: 'Kim', phone: '+15550100', relationship: 'friend' });
    const [consent] = await tx
      .insert(consents)
      .values({
        registrationId: reg.id,
        consentType: 'waiver',
        status: 'sent',
        esignSubmissionId: submissionId,
      })
      .returning();
    return { reg: reg.id, consent: consent!.id };
  });
}

async function deliver(
  eventType: string,
  data: Record<string, unknown>,
  timestamp = '2026-11-24T10:00:00.000Z',
) {
  const res = await t.app.inject(
    signedRequest('esign', JSON.stringify({ event_type: eventType, timestamp, data })),
  );
  expect(res.statusCode, res.body).toBe(200);
  return drain(t);
}

async function consent(id: number) {
  const [row] = await t.deps.db.select().from(consents).where(eq(consents.id, id));
  return row!;
}
async function regStatus(id: number) {
  const [row] = await t.deps.db.select().from(registrations).where(eq(registrations.id, id));
  return row!.status;
}

describe('e-signature events', () => {
  it('viewed, then submission.completed: the waiver is signed and the registration completes', async () => {
    const { reg, consent: id } = await registrationWithWaiver('501');
    await deliver('form.viewed', {
      id: 9001,
      submission_id: 501,
      email: 'signer@example.com',
      status: 'opened',
    });
    expect(await consent(id)).toMatchObject({ status: 'viewed', viewedAt: '2026-11-24 10:00:00+00' });
    expect(await regStatus(reg)).toBe('in_progress');

    await deliver('submission.completed', {
      id: 501,
      status: 'completed',
      completed_at: '2026-11-24T10:03:00.000Z',
      combined_document_url: 'https://esign.example/file/abc.pdf',
    });
    expect(await consent(id)).toMatchObject({
      status: 'signed',
      signedAt: '2026-11-24 10:03:00+00',
      documentUrl: 'https://esign.example/file/abc.pdf',
      failureReason: null,
    });
    expect(await regStatus(reg)).toBe('complete');
    const audit = await t.deps.db.execute<{ metadata: Record<string, unknown> }>(
      sql`SELECT metadata FROM audit_log WHERE action = 'registrations.transition' AND target_id = ${String(reg)}`,
    );
    expect(audit.rows.map((r) => r.metadata)).toEqual([
      expect.objectContaining({
        from: 'in_progress',
        to: 'complete',
        consent_id: id,
        source: 'esign_webhook',
      }),
    ]);
  });

  it('a final state never moves: a late view or decline after signing changes nothing', async () => {
    const { consent: id } = await registrationWithWaiver('502');
    await deliver('submission.completed', { id: 502, completed_at: '2026-11-24T10:03:00Z' });
    const before = await snapshotDb(t.deps);
    await deliver('form.viewed', { id: 9002, submission_id: 502 }, '2026-11-24T10:04:00Z');
    await deliver(
      'form.declined',
      { id: 9002, submission_id: 502, decline_reason: 'late' },
      '2026-11-24T10:05:00Z',
    );
    const after = await snapshotDb(t.deps);
    // Only the dedupe log grew.
    expect({ ...after, webhook_events: null }).toEqual({ ...before, webhook_events: null });
    expect((await consent(id)).status).toBe('signed');
  });

  it('declined and expired: recorded with a reason; the registration stays incomplete', async () => {
    const a = await registrationWithWaiver('503');
    await deliver('form.declined', {
      id: 9003,
      submission_id: 503,
      decline_reason: 'I do not agree to clause 4',
    });
    expect(await consent(a.consent)).toMatchObject({
      status: 'declined',
      failureReason: 'I do not agree to clause 4',
    });
    expect(await regStatus(a.reg)).toBe('in_progress');

    const b = await registrationWithWaiver('504');
    await deliver('submission.expired', { id: 504, status: 'expired' });
    expect(await consent(b.consent)).toMatchObject({
      status: 'expired',
      failureReason: 'The signing request expired',
    });
    expect(await regStatus(b.reg)).toBe('in_progress');
  });

  it('form.completed by one of two signers records that signer; the consent is signed when all are done', async () => {
    const { reg, consent: id } = await registrationWithWaiver('505');
    await deliver('form.completed', {
      id: 9005,
      submission_id: 505,
      role: 'Guardian',
      completed_at: '2026-11-24T09:00:00Z',
      submission: { id: 505, status: 'pending' },
    });
    expect(await consent(id)).toMatchObject({ status: 'sent', guardianSignedAt: '2026-11-24 09:00:00+00' });
    expect(await regStatus(reg)).toBe('in_progress');
    await deliver('form.completed', {
      id: 9006,
      submission_id: 505,
      role: 'Participant',
      completed_at: '2026-11-24T09:30:00Z',
      submission: { id: 505, status: 'completed' },
      documents: [{ name: 'waiver', url: 'https://esign.example/file/505.pdf' }],
    });
    expect(await consent(id)).toMatchObject({
      status: 'signed',
      participantSignedAt: '2026-11-24 09:30:00+00',
      documentUrl: 'https://esign.example/file/505.pdf',
    });
    expect(await regStatus(reg)).toBe('complete');
  });

  it('an unknown submission and a replay change nothing', async () => {
    const before = await snapshotDb(t.deps);
    const outcomes = await deliver('submission.completed', { id: 999999 });
    expect(Object.values(outcomes)).toContain('unmatched');
    const again = await t.app.inject(
      signedRequest(
        'esign',
        JSON.stringify({
          event_type: 'submission.completed',
          timestamp: '2026-11-24T10:00:00.000Z',
          data: { id: 999999 },
        }),
      ),
    );
    expect(again.json()).toEqual({ received: true, duplicate: true });
    const after = await snapshotDb(t.deps);
    expect({ ...after, webhook_events: null }).toEqual({ ...before, webhook_events: null });
    expect(after.webhook_events!.rows).toBe(before.webhook_events!.rows + 1);
  });
});

describe('the webhook-process job', () => {
  it('is idempotent: running it again for a processed event changes nothing', async () => {
    const { consent: id } = await registrationWithWaiver('506');
    await deliver('submission.completed', { id: 506, completed_at: '2026-11-24T10:03:00Z' });
    expect((await consent(id)).status).toBe('signed');
    const rows = await t.deps.db.execute<{ id: number }>(sql`SELECT id FROM webhook_events`);
    const before = await snapshotDb(t.deps);
    for (const row of rows.rows) await processWebhookEvent(t.deps, { webhook_event_id: Number(row.id) });
    await processWebhookEvent(t.deps, { webhook_event_id: 987654 });
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});
