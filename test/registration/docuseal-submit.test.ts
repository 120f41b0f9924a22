/**
 * Submit with the DocuSeal-style provider configured (MUSTER_ESIGN_URL / _API_KEY / _TEMPLATES)
 * against a local fake DocuSeal API (a real HTTP server): the `esign-request` jobs create one
 * submission per consent with the participant as signer, store the submission id and signing
 * link, and a consent type without a template records `failure_reason` instead of retrying.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emergencyContacts } from '../../src/db/schema/index.js';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { call, P, type RegHarness, startRegHarness, tokenIn } from './harness.js';

const seen: { token: string | undefined; body: Record<string, unknown> }[] = [];
let server: Server;
let h: RegHarness;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      seen.push({ token: req.headers['x-auth-token'] as string | undefined, body });
      const submitters = body.submitters as { role: string; email: string }[];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          submitters.map((s, i) => ({
            id: 1 + i,
            submission_id: 9000 + seen.length,
            email: s.email,
            role: s.role,
            embed_src: `https://esign.example/s/${seen.length}`,
          })),
        ),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  h = await startRegHarness({
    MUSTER_ESIGN_URL: `http://127.0.0.1:${port}/api`,
    MUSTER_ESIGN_API_KEY: 'docuseal-test-key',
    MUSTER_ESIGN_TEMPLATES: 'waiver=11',
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await new Promise((r) => server?.close(r));
});

describe('DocuSeal-style provider wired into submit', () => {
  it('creates a submission per consent with a template; records failure_reason otherwise', async () => {
    const email = 'dora.docuseal@example.com';
    const mobile = await h.t.deps.db.transaction(async (tx) => {
      const user = await createUser(tx, { email, name: 'Dora Docuseal' });
      return (await issueMobileToken(tx, user.id)).secret;
    });
    await call(h.app, 'POST', `${P}/events/${h.world.events.A.id}/participants`, h.world.secrets.eventKeyA, {
      email,
    });
    const token = tokenIn(await h.smtp.waitFor((m) => m.to.includes(email)));
    const ticket = (
      await call(h.app, 'POST', `${P}/registrations`, mobile, { invitation_token: token })
    ).json().ticket;
    await h.t.deps.db.execute(
      sql`UPDATE people SET date_of_birth = '1985-05-05' WHERE id = ${ticket.participant_id}`,
    );
    await h.t.deps.db
      .insert(emergencyContacts)
      .values({ registrationId: ticket.id, name: 'Kim', phone: '+15550104', relationship: 'friend' });
    const submitted = await call(h.app, 'POST', `${P}/registrations/${ticket.id}/submit`, mobile);
    expect(submitted.statusCode, submitted.body).toBe(200);

    type Row = {
      consent_type: string;
      esign_submission_id: string | null;
      document_url: string | null;
      failure_reason: string | null;
    };
    let rows: Row[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await h.t.deps.db.execute<Row>(
        sql`SELECT consent_type, esign_submission_id, document_url, failure_reason FROM consents
             WHERE registration_id = ${ticket.id} ORDER BY id`,
      );
      rows = res.rows;
      if (rows.every((r) => r.esign_submission_id || r.failure_reason)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows).toEqual([
      {
        consent_type: 'waiver',
        esign_submission_id: '9001',
        document_url: 'https://esign.example/s/1',
        failure_reason: null,
      },
      {
        consent_type: 'freedom_waiver',
        esign_submission_id: null,
        document_url: null,
        failure_reason: 'No e-signature template configured for consent type freedom_waiver',
      },
    ]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.token).toBe('docuseal-test-key');
    expect(seen[0]!.body).toMatchObject({
      template_id: 11,
      submitters: [{ role: 'Participant', name: 'Dora Docuseal', email }],
    });
  }, 60_000);
});
