/**
 * Custom consent documents (issue #25 part 7; docs/decisions.md "Consents"): an organiser adds one
 * (slug from the title), edits it in place while unsigned, a save after a signature adds a
 * version, removal is refused once signed (409) and allowed before; a required one is asked of the
 * submitted registrations and blocks completion until signed. Refusals change nothing.
 */
import { describe, expect, it } from 'vitest';
import { recordTypedSignature } from '../../src/modules/registration/lifecycle/consents.service.js';
import { query, withWorld } from '../events/harness.js';
import { bearer, snapshotDb } from '../support/app.js';
import { csrfOf, getPage, postForm, signedInBrowser } from '../web/support.js';

const env = withWorld();
const A = () => env.w.events.A.id;
const docs = (method: 'POST' | 'PUT' | 'DELETE', rest: string, doc?: Record<string, unknown>) =>
  env.t.app.inject({
    method,
    url: `/api/v1/events/${A()}/consent_documents${rest}`,
    headers: bearer(env.w.secrets.eventAdmin),
    ...(doc ? { payload: { consent_document: doc } } : {}),
  });

const sign = (id: number) =>
  env.t.deps.db.transaction((tx) =>
    recordTypedSignature(env.t.deps, tx, {
      consentId: id,
      signatureName: 'Alice Anderson',
      ip: '203.0.113.7',
      signer: 'participant',
      actor: { role: 'consent', actorUserId: null, metadata: {} },
    }),
  );

describe('custom consent documents', () => {
  it('add, edit in place, required blocks completion, sign and complete, version, no removal once signed', async () => {
    const adult = env.w.regs.adultA.id;
    // The adult has submitted and signed the built-in consents the event requires (waiver, freedom waiver).
    await query(env, `UPDATE registrations SET status = 'in_progress', submitted_at = now() WHERE id = $1`, [
      adult,
    ]);
    await query(
      env,
      `INSERT INTO consents (registration_id, consent_type, status, signed_at) VALUES ($1, 'freedom_waiver', 'signed', now())`,
      [adult],
    );
    const added = await docs('POST', '', {
      title: 'Photo release',
      body: 'We may take photos.',
      required: true,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().consent_document).toMatchObject({
      consent_type: 'photo_release',
      version: 1,
      required: true,
      custom: true,
      signed_count: 0,
    });
    const list = await env.t.app.inject({
      method: 'GET',
      url: `/api/v1/events/${A()}/consent_documents`,
      headers: bearer(env.w.secrets.eventAdmin),
    });
    expect(list.json().consent_documents.map((d: { consent_type: string }) => d.consent_type)).toEqual([
      'waiver',
      'freedom_waiver',
      'code_of_conduct',
      'photo_release',
    ]);
    const edited = await docs('PUT', '/photo_release', { title: 'Photo release', body: 'Edited.' });
    expect(edited.json().consent_document).toMatchObject({ version: 1, body: 'Edited.', required: true });

    const [consent] = await query<{ id: number; status: string; pending_on: string }>(
      env,
      `SELECT id, status, pending_on FROM consents WHERE registration_id = $1 AND consent_type = 'photo_release'`,
      [adult],
    );
    expect(consent).toMatchObject({ status: 'sent', pending_on: 'participant' });
    expect(await sign(consent!.id)).toBe('complete');
    const [signed] = await query<{ version: number; document_language: string }>(
      env,
      `SELECT d.version, c.document_language FROM consents c JOIN event_consent_documents d ON d.id = c.document_id
        WHERE c.id = $1`,
      [consent!.id],
    );
    expect(signed).toEqual({ version: 1, document_language: 'en' });

    const before = await snapshotDb(env.t.deps);
    const refused = await docs('DELETE', '/photo_release');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/has been signed, so it cannot be removed/);
    expect(await snapshotDb(env.t.deps)).toEqual(before);

    const second = await docs('PUT', '/photo_release', {
      title: 'Photo release',
      body: 'V2.',
      required: false,
    });
    expect(second.json().consent_document).toMatchObject({ version: 2, required: false, signed_count: 0 });
    const audit = await query<{ action: string; metadata: Record<string, unknown> }>(
      env,
      `SELECT action, metadata FROM audit_log WHERE action LIKE 'consent_documents.%' AND event_id = $1 ORDER BY id`,
      [A()],
    );
    expect(audit).toEqual([
      {
        action: 'consent_documents.create',
        metadata: { consent_type: 'photo_release', version: 1, required: true, requested: 1 },
      },
      {
        action: 'consent_documents.update',
        metadata: { consent_type: 'photo_release', version: 1, new_version: false, required: true },
      },
      {
        action: 'consent_documents.update',
        metadata: { consent_type: 'photo_release', version: 2, new_version: true, required: false },
      },
    ]);
  });

  it('a document nobody signed is removed with its unsigned consents', async () => {
    const added = await docs('POST', '', { consent_type: 'media_ok', title: 'Média', body: 'Text.' });
    expect(added.json().consent_document).toMatchObject({ consent_type: 'media_ok', required: false });
    const res = await docs('DELETE', '/media_ok');
    expect(res.statusCode).toBe(204);
    expect(await query(env, `SELECT id FROM consents WHERE consent_type = 'media_ok'`)).toEqual([]);
    expect(
      await query(env, `SELECT id FROM event_consent_documents WHERE consent_type = 'media_ok'`),
    ).toEqual([]);
    expect((await docs('DELETE', '/media_ok')).statusCode).toBe(404);
  });

  const refusals: [
    string,
    'POST' | 'DELETE' | 'PUT',
    string,
    Record<string, unknown> | undefined,
    number,
    string,
  ][] = [
    [
      'a built-in slug',
      'POST',
      '',
      { title: 'Waiver', body: 'x' },
      409,
      'A consent document called waiver already exists on this event',
    ],
    [
      'a bad slug',
      'POST',
      '',
      { consent_type: 'Bad-Slug', title: 'x', body: 'x' },
      422,
      'consent_type must be 1 to 50 lowercase letters a–z, digits or underscores, starting with a letter',
    ],
    [
      'a title with no slug',
      'POST',
      '',
      { title: '123', body: 'x' },
      422,
      'Give a consent_type: the title has no letters a–z to make one from',
    ],
    ['an empty body', 'POST', '', { title: 'Fine', body: ' ' }, 422, 'body is required'],
    [
      'removing a built-in',
      'DELETE',
      '/waiver',
      undefined,
      422,
      'The built-in consent documents cannot be removed',
    ],
    [
      'required on a built-in',
      'PUT',
      '/waiver',
      { title: 'x', body: 'y', required: false },
      422,
      'required of a built-in document follows the event’s modules',
    ],
    [
      'an unknown custom type',
      'PUT',
      '/nothing_here',
      { title: 'x', body: 'y' },
      404,
      'Consent document not found',
    ],
  ];

  it.each(refusals)('refuses %s and changes nothing', async (_name, method, rest, doc, status, error) => {
    const before = await snapshotDb(env.t.deps);
    const res = await docs(method, rest, doc);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual({ error });
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  });

  it('the wizard adds a document with its button, shows the required box, and removes it while unsigned', async () => {
    const browser = await signedInBrowser(env.t.deps, env.w.users.eventAdmin.id);
    const url = `/staff/events/${A()}/setup/consents`;
    const page = await getPage(env.t.app, browser, url);
    expect(page.body).toContain('<button type="submit">Add a consent document</button>');
    const csrf = csrfOf(page.body);
    const bad = await postForm(env.t.app, browser, url, { title: ' ', body: 'x' }, csrf);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="doc-new-title-error"');
    const added = await postForm(
      env.t.app,
      browser,
      url,
      { title: 'Trip photos', body: 'We take photos.', required: 'true' },
      csrf,
    );
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe(`${url}?done=saved#doc-trip_photos`);
    const after = await getPage(env.t.app, browser, url);
    expect(after.body).toContain('id="doc-trip_photos-required" name="required" value="true" checked');
    expect(after.body).toContain('Remove Trip photos');
    const removed = await postForm(env.t.app, browser, `${url}/trip_photos/remove`, {}, csrf);
    expect(removed.statusCode).toBe(303);
    expect(
      await query(env, `SELECT id FROM event_consent_documents WHERE consent_type = 'trip_photos'`),
    ).toEqual([]);
  });
  it('staff pages name a custom document by its title: table filter, overview count, participant page', async () => {
    const adult = env.w.regs.adultA.id;
    await query(env, `UPDATE registrations SET status = 'in_progress', submitted_at = now() WHERE id = $1`, [
      adult,
    ]);
    const added = await docs('POST', '', {
      title: 'Kayak (safety) rules',
      body: 'Wear a vest.',
      required: true,
    });
    expect(added.statusCode, added.body).toBe(201);
    const type = added.json().consent_document.consent_type as string;
    const browser = await signedInBrowser(env.t.deps, env.w.users.eventAdmin.id);
    const table = await getPage(env.t.app, browser, `/staff/events/${A()}/participants`);
    expect(table.body).toContain(`<option value="${type}">Kayak (safety) rules</option>`);
    const filtered = await getPage(env.t.app, browser, `/staff/events/${A()}/participants?consent=${type}`);
    expect(filtered.statusCode).toBe(200);
    expect(filtered.body).toContain(`/participants/${adult}"`);
    const overview = await getPage(env.t.app, browser, `/staff/events/${A()}`);
    expect(overview.body).toContain('Consents outstanding (Kayak (safety) rules)');
    expect(overview.body).not.toContain(type.replace(/_/g, ' '));
    const record = await getPage(env.t.app, browser, `/staff/events/${A()}/participants/${adult}`);
    expect(record.body).toContain('Kayak (safety) rules');
    expect(record.body).not.toContain(type.replace(/_/g, ' '));
  });
});
