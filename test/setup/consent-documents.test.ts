/**
 * Per-event consent documents (organiser-operations issue, item 5): GET lists the event's version
 * or the built-in text; PUT edits the current version while nobody signed it and adds a version
 * once someone has; a typed signature records the version it signed, and the consent page text
 * follows that version. Refusals are exact `{error}` answers that change nothing.
 */
import { describe, expect, it } from 'vitest';
import { CONSENT_TEXTS } from '../../src/modules/events/consent-defaults.js';
import { consentDocumentText } from '../../src/modules/events/consent-document-text.js';
import { recordTypedSignature } from '../../src/modules/registration/lifecycle/consents.service.js';
import { query, withWorld } from '../events/harness.js';
import { bearer, snapshotDb } from '../support/app.js';

const env = withWorld();

const list = (event: number | string, secret = env.w.secrets.eventAdmin) =>
  env.t.app.inject({
    method: 'GET',
    url: `/api/v1/events/${event}/consent_documents`,
    headers: bearer(secret),
  });
const save = (type: string, doc: Record<string, unknown>, secret = env.w.secrets.eventAdmin) =>
  env.t.app.inject({
    method: 'PUT',
    url: `/api/v1/events/${env.w.events.A.id}/consent_documents/${type}`,
    headers: bearer(secret),
    payload: { consent_document: doc },
  });

async function consentId(registrationId: number, type: string): Promise<number> {
  const [row] = await query<{ id: number }>(
    env,
    'SELECT id FROM consents WHERE registration_id = $1 AND consent_type = $2',
    [registrationId, type],
  );
  return row!.id;
}

function sign(id: number, signer: 'participant' | 'guardian') {
  return env.t.deps.db.transaction((tx) =>
    recordTypedSignature(env.t.deps, tx, {
      consentId: id,
      signatureName: 'Sam Signer',
      ip: '203.0.113.7',
      signer,
      actor: { role: 'consent', actorUserId: null, metadata: {} },
    }),
  );
}

describe('consent documents', () => {
  it('lists the built-in texts (version null) for an event that saved none', async () => {
    const res = await list(env.w.events.C.uuid, env.w.secrets.admin);
    expect(res.statusCode).toBe(200);
    const docs = res.json().consent_documents;
    expect(docs.map((d: { consent_type: string }) => d.consent_type)).toEqual([
      'waiver',
      'freedom_waiver',
      'code_of_conduct',
    ]);
    expect(docs[0]).toEqual({
      consent_type: 'waiver',
      title: 'Participation waiver',
      body: CONSENT_TEXTS.waiver!.join('\n\n'),
      version: null,
      required: true,
      custom: false,
      signed_count: 0,
      updated_at: null,
      // The event offers English only: no other language to translate into.
      translations: {},
    });
    expect(docs[2].required).toBe(false);
  });

  it('edits in place until someone signs, then adds a version; the signature keeps its version', async () => {
    const first = await save('waiver', { title: ' Summit waiver ', body: 'First paragraph.\r\n\r\nSecond.' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().consent_document).toMatchObject({
      title: 'Summit waiver',
      body: 'First paragraph.\n\nSecond.',
      version: 1,
      signed_count: 0,
    });
    const edited = await save('waiver', { title: 'Summit waiver', body: 'Edited before anyone signed.' });
    expect(edited.json().consent_document).toMatchObject({
      version: 1,
      body: 'Edited before anyone signed.',
    });

    // The minor's waiver is signed by a guardian: it records version 1.
    const waiver = await consentId(env.w.regs.minorA.id, 'waiver');
    await sign(waiver, 'guardian');
    const [v1] = await query<{ id: number }>(
      env,
      `SELECT id FROM event_consent_documents WHERE event_id = $1 AND consent_type = 'waiver' AND version = 1`,
      [env.w.events.A.id],
    );
    expect(await query(env, 'SELECT document_id FROM consents WHERE id = $1', [waiver])).toEqual([
      { document_id: v1!.id },
    ]);
    expect((await list(env.w.events.A.id)).json().consent_documents[0]).toMatchObject({
      version: 1,
      signed_count: 1,
    });

    const second = await save('waiver', { title: 'Summit waiver', body: 'Version two.' });
    expect(second.json().consent_document).toMatchObject({
      version: 2,
      body: 'Version two.',
      signed_count: 0,
    });
    // The signed consent still shows the text it signed; version 1 is unchanged.
    expect(await consentDocumentText(env.t.deps.db, waiver)).toMatchObject({
      title: 'Summit waiver',
      paragraphs: ['Edited before anyone signed.'],
      version: 1,
    });
    const audit = await query<{ metadata: Record<string, unknown> }>(
      env,
      `SELECT metadata FROM audit_log WHERE action = 'consent_documents.update' AND event_id = $1 ORDER BY id`,
      [env.w.events.A.id],
    );
    expect(audit.map((a) => a.metadata)).toEqual([
      { consent_type: 'waiver', version: 1, new_version: true },
      { consent_type: 'waiver', version: 1, new_version: false },
      { consent_type: 'waiver', version: 2, new_version: true },
    ]);
  });

  it('a signature on an event without its own document stores the built-in text as version 1', async () => {
    const [row] = await query<{ id: number }>(
      env,
      `INSERT INTO consents (registration_id, consent_type, status, pending_on)
       VALUES ($1, 'freedom_waiver', 'sent', 'participant') RETURNING id`,
      [env.w.regs.regC.id],
    );
    await sign(row!.id, 'participant');
    const docs = await query(
      env,
      `SELECT d.version, d.title, d.body FROM consents c JOIN event_consent_documents d ON d.id = c.document_id WHERE c.id = $1`,
      [row!.id],
    );
    expect(docs).toEqual([
      { version: 1, title: 'Freedom waiver', body: CONSENT_TEXTS.freedom_waiver!.join('\n\n') },
    ]);
    // The consent page of an unsigned consent shows the event's current text.
    const coc = await consentId(env.w.regs.adultA.id, 'code_of_conduct');
    expect((await consentDocumentText(env.t.deps.db, coc)).paragraphs).toEqual(CONSENT_TEXTS.code_of_conduct);
  });

  const refusals: [string, string, Record<string, unknown>, number, Record<string, unknown>][] = [
    ['an unknown type', 'privacy', { title: 'x', body: 'y' }, 404, { error: 'Consent document not found' }],
    ['an empty title', 'waiver', { title: '  ', body: 'y' }, 422, { error: 'title is required' }],
    ['an empty body', 'waiver', { title: 'x', body: '\n\n' }, 422, { error: 'body is required' }],
    [
      'a title over 200 characters',
      'waiver',
      { title: 'x'.repeat(201), body: 'y' },
      422,
      { error: 'title must be at most 200 characters' },
    ],
    [
      'an unknown field',
      'waiver',
      { title: 'x', body: 'y', version: 3 },
      422,
      { error: 'body.consent_document: unknown field version' },
    ],
    ['a missing body', 'waiver', { title: 'x' }, 422, { error: 'body.body is required' }],
  ];

  it.each(refusals)('refuses %s and changes nothing', async (_name, type, doc, status, body) => {
    const before = await snapshotDb(env.t.deps);
    const res = await save(type, doc);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(body);
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  });
});
