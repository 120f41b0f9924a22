/**
 * The e-signature adapter seam (src/integrations/esign.ts; docs/decisions.md "Consents"): with a provider
 * configured, submit enqueues an `esign-request` job per consent, the worker calls the adapter's
 * `createSigningRequest` with the right signer, stores the submission id and document URL, and
 * typed signatures are refused. The adapter here (registered in ESIGN_ADAPTERS, always selected) is a recording stand-in for the interface; the
 * DocuSeal adapter has its own tests against a fake DocuSeal HTTP server.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emergencyContacts } from '../../src/db/schema/index.js';
import { ESIGN_ADAPTERS, type SigningRequest } from '../../src/integrations/esign.js';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { call, P, type RegHarness, startRegHarness, tokenIn } from './harness.js';

const requests: SigningRequest[] = [];
const recording: (typeof ESIGN_ADAPTERS)[number] = () => ({
  name: 'recording',
  async createSigningRequest(request) {
    requests.push(request);
    return {
      submissionId: `sub-${request.consentId}`,
      documentUrl: `https://sign.example/s/${request.consentId}`,
    };
  },
});

let h: RegHarness;

// Registered for this file only: test files share their worker process, and a later file's app
// must not find this adapter.
beforeAll(async () => {
  ESIGN_ADAPTERS.push(recording);
  h = await startRegHarness();
}, 60_000);

afterAll(async () => {
  ESIGN_ADAPTERS.splice(ESIGN_ADAPTERS.indexOf(recording), 1);
  await h?.close();
});

describe('e-signature provider configured', () => {
  it('submit creates signing requests through the adapter; typed signatures are refused', async () => {
    const email = 'esme.esign@example.com';
    const mobile = await h.t.deps.db.transaction(async (tx) => {
      const user = await createUser(tx, { email, name: 'Esme Esign' });
      return (await issueMobileToken(tx, user.id)).secret;
    });
    const invite = await call(
      h.app,
      'POST',
      `${P}/events/${h.world.events.A.id}/participants`,
      h.world.secrets.eventKeyA,
      {
        email,
      },
    );
    expect(invite.statusCode).toBe(201);
    const token = tokenIn(await h.smtp.waitFor((m) => m.to.includes(email)));
    const started = await call(h.app, 'POST', `${P}/registrations`, mobile, { invitation_token: token });
    const ticket = started.json().ticket;
    await h.t.deps.db.execute(
      sql`UPDATE people SET date_of_birth = '1980-01-01' WHERE id = ${ticket.participant_id}`,
    );
    await h.t.deps.db
      .insert(emergencyContacts)
      .values({ registrationId: ticket.id, name: 'Kai', phone: '+15550103', relationship: 'partner' });
    const submitted = await call(h.app, 'POST', `${P}/registrations/${ticket.id}/submit`, mobile);
    expect(submitted.statusCode, submitted.body).toBe(200);
    const ids = submitted.json().consents.map((c: { id: number }) => c.id) as number[];

    for (let i = 0; i < 200 && requests.length < ids.length; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(requests.map((r) => r.consentId).sort()).toEqual([...ids].sort());
    expect(requests[0]).toMatchObject({
      signer: { role: 'participant', name: 'Esme Esign', email },
      participantName: 'Esme Esign',
      eventName: 'Summit Alpha',
    });
    let rows: { id: number; esign_submission_id: string | null; document_url: string | null }[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await h.t.deps.db.execute<(typeof rows)[number]>(
        sql`SELECT id, esign_submission_id, document_url FROM consents WHERE registration_id = ${ticket.id} ORDER BY id`,
      );
      rows = res.rows;
      if (rows.every((r) => r.esign_submission_id)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows).toEqual(
      ids.map((id) => ({
        id,
        esign_submission_id: `sub-${id}`,
        document_url: `https://sign.example/s/${id}`,
      })),
    );

    const typed = await call(h.app, 'POST', `${P}/consents/${ids[0]}/sign`, mobile, {
      signature_name: 'Esme Esign',
    });
    expect(typed.statusCode).toBe(422);
    expect(typed.json()).toEqual({ error: 'Consents are signed through the e-signature provider' });
  }, 60_000);
});
