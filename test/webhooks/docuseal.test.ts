/**
 * The DocuSeal-style client (src/integrations/docuseal.ts) against a local fake DocuSeal API (a real
 * HTTP server): request shape and auth header, template per consent type, the submission id and
 * signing link it returns, and failures classified without leaking the API key.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { consents, emergencyContacts, registrations } from '../../src/db/schema/index.js';
import {
  createDocuSealClient,
  EsignPermanentError,
  EsignTransientError,
} from '../../src/integrations/docuseal.js';
import { esignProviderFor } from '../../src/integrations/esign.js';
import { startWorker } from '../../src/jobs/runner.js';
import { requestEsignSignature } from '../../src/modules/registration/lifecycle/consents.service.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld } from '../support/world.js';
import { drain, SECRETS, signedRequest } from './helpers.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
let nextStatus = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const status = nextStatus;
      nextStatus = 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      if (status !== 200) return res.end(JSON.stringify({ error: 'nope' }));
      const submitters = (body.submitters as { role: string; email: string; name: string }[]).map((s, i) => ({
        id: 100 + i,
        submission_id: 7001,
        uuid: `uuid-${i}`,
        email: s.email,
        role: s.role,
        status: 'awaiting',
        embed_src: `https://esign.example/s/slug${i}`,
      }));
      res.end(JSON.stringify(submitters));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

function client() {
  const config = loadConfig({
    MUSTER_ESIGN_URL: `${base}/`,
    MUSTER_ESIGN_API_KEY: 'ds-api-key-secret',
    MUSTER_ESIGN_TEMPLATES: 'waiver=11, freedom_waiver = 12',
  });
  return createDocuSealClient(config.esign!, { timeoutMs: 5_000 });
}

describe('DocuSeal client', () => {
  it('creates a submission from the consent type template and returns its id and signing link', async () => {
    const result = await client().createSigningRequest({
      consentId: 42,
      consentType: 'waiver',
      signers: [
        { role: 'participant', name: 'Ada Lovelace', email: 'ada@example.org' },
        { role: 'guardian', name: 'Anne Byron', email: 'anne@example.org' },
      ],
    });
    expect(result).toEqual({ submissionId: '7001', documentUrl: 'https://esign.example/s/slug0' });
    const req = seen.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/submissions');
    expect(req.headers['x-auth-token']).toBe('ds-api-key-secret');
    expect(req.body).toEqual({
      template_id: 11,
      send_email: true,
      external_id: 'consent-42',
      submitters: [
        {
          role: 'Participant',
          name: 'Ada Lovelace',
          email: 'ada@example.org',
          external_id: 'consent-42-participant',
        },
        {
          role: 'Guardian',
          name: 'Anne Byron',
          email: 'anne@example.org',
          external_id: 'consent-42-guardian',
        },
      ],
    });
  });

  it('accepts a single signer (the registration side’s EsignProvider shape)', async () => {
    const result = await client().createSigningRequest({
      consentId: 43,
      consentType: 'freedom_waiver',
      signer: { role: 'participant', name: 'Bo', email: 'bo@example.org' },
    });
    expect(result.submissionId).toBe('7001');
    expect(seen.at(-1)!.body.template_id).toBe(12);
  });

  it('classifies failures and never puts the API key in an error', async () => {
    const signer = { role: 'participant' as const, name: 'Cy', email: 'cy@example.org' };
    await expect(
      client().createSigningRequest({ consentId: 1, consentType: 'code_of_conduct', signer }),
    ).rejects.toThrow(EsignPermanentError);
    nextStatus = 503;
    const transient = await client()
      .createSigningRequest({ consentId: 1, consentType: 'waiver', signer })
      .catch((e: Error) => e);
    expect(transient).toBeInstanceOf(EsignTransientError);
    nextStatus = 422;
    const permanent = await client()
      .createSigningRequest({ consentId: 1, consentType: 'waiver', signer })
      .catch((e: Error) => e);
    expect(permanent).toBeInstanceOf(EsignPermanentError);
    for (const e of [transient, permanent])
      expect(String((e as Error).message)).not.toContain('ds-api-key-secret');
  });

  it('configuration: URL and key go together', () => {
    expect(() => loadConfig({ MUSTER_ESIGN_URL: 'https://esign.example/api' })).toThrow(
      'MUSTER_ESIGN_URL and MUSTER_ESIGN_API_KEY go together',
    );
    expect(loadConfig({}).esign).toBeNull();
  });
});

describe('DocuSeal end to end: signing request, then the webhook completes the registration', () => {
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });

  it('URL + key select the DocuSeal adapter; its submission id is what the webhook matches', async () => {
    t = await startTestApp({
      ...SECRETS,
      MUSTER_ESIGN_URL: base,
      MUSTER_ESIGN_API_KEY: 'ds-api-key-secret',
      MUSTER_ESIGN_TEMPLATES: 'waiver=11',
    });
    expect(esignProviderFor(t.deps.config)?.name).toBe('docuseal');
    const world = await buildWorld(t.deps);
    const reg = world.regs.adultA;
    await t.deps.db.execute(
      sql`UPDATE events SET modules = modules || '{"freedom_waivers_enabled": false}'::jsonb WHERE id = ${reg.eventId}`,
    );
    await t.deps.db.execute(
      sql`UPDATE registrations SET status = 'in_progress', submitted_at = now() WHERE id = ${reg.id}`,
    );
    await t.deps.db.execute(sql`UPDATE people SET date_of_birth = '1990-01-01' WHERE id = ${reg.personId}`);
    await t.deps.db
      .insert(emergencyContacts)
      .values({ registrationId: reg.id, name: 'Kim', phone: '+15550100', relationship: 'friend' });
    await t.deps.db.execute(sql`DELETE FROM consents WHERE registration_id = ${reg.id}`);
    const [consent] = await t.deps.db
      .insert(consents)
      .values({ registrationId: reg.id, consentType: 'waiver', status: 'sent', pendingOn: 'participant' })
      .returning();

    await requestEsignSignature(t.deps, { consent_id: consent!.id });
    const request = seen.at(-1)!;
    expect(request.body).toMatchObject({
      template_id: 11,
      submitters: [{ role: 'Participant', email: reg.email }],
    });
    const [stored] = await t.deps.db.select().from(consents).where(eq(consents.id, consent!.id));
    expect(stored).toMatchObject({ esignSubmissionId: '7001', documentUrl: 'https://esign.example/s/slug0' });

    await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
    const res = await t.app.inject(
      signedRequest(
        'esign',
        JSON.stringify({
          event_type: 'submission.completed',
          timestamp: '2026-11-24T12:00:00Z',
          data: { id: 7001, completed_at: '2026-11-24T12:00:00Z' },
        }),
      ),
    );
    expect(res.statusCode).toBe(200);
    await drain(t);
    const [signed] = await t.deps.db.select().from(consents).where(eq(consents.id, consent!.id));
    expect(signed!.status).toBe('signed');
    const [after] = await t.deps.db.select().from(registrations).where(eq(registrations.id, reg.id));
    expect(after!.status).toBe('complete');
  }, 120_000);
});
