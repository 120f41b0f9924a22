/**
 * The staff forms that edit organiser-written text, per offered language (issue 28 item 3,
 * docs/languages.md): the setup wizard's consent documents, an email's wording and an
 * announcement each show one optional group per other offered language, save it as that
 * language's translation, and re-render a bad translation with its message (422, nothing stored).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let admin: Browser;
let A: number;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  A = world.events.A.id;
  admin = await signedInBrowser(t.deps, world.users.eventAdmin.id);
  await t.deps.db.execute(
    sql`UPDATE events SET default_language = 'en', languages = '{en,es}' WHERE id = ${A}`,
  );
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const translations = async (table: string) =>
  (
    await t.deps.database.pool.query<{ translations: unknown }>(
      `SELECT translations FROM ${table} ORDER BY id DESC LIMIT 1`,
    )
  ).rows[0]?.translations;

describe('per-language fields on the staff forms', () => {
  it('email wording: a Spanish group, saved as the translation; a half-filled one is 422 and stores nothing', async () => {
    const url = `/staff/events/${A}/emails/invitation`;
    const page = await getPage(app, admin, url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<legend>Español (es), optional</legend>');
    expect(page.body).toContain('name="tr_es_subject" lang="es"');
    const csrf = csrfOf(page.body);
    const before = await snapshotDb(t.deps);
    const bad = await postForm(
      app,
      admin,
      url,
      { intent: 'save', subject: 'Hi', body: 'Come', tr_es_subject: 'Hola', tr_es_body: ' ' },
      csrf,
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('translations.es: body cannot be blank');
    expect(bad.body).toContain('id="es-body-error"');
    expect(await snapshotDb(t.deps)).toEqual(before);
    const ok = await postForm(
      app,
      admin,
      url,
      { intent: 'save', subject: 'Hi', body: 'Come', tr_es_subject: 'Hola', tr_es_body: 'Ven' },
      csrf,
    );
    expect(ok.statusCode, ok.body).toBe(303);
    expect(await translations('email_templates')).toEqual({ es: { subject: 'Hola', body: 'Ven' } });
    const again = await getPage(app, admin, url);
    expect(again.body).toContain('value="Hola"');
  });

  it('consent documents in the setup wizard: the Spanish title and text are saved with the document', async () => {
    const url = `/staff/events/${A}/setup/consents`;
    const page = await getPage(app, admin, url);
    expect(page.body).toContain('name="tr_es_title"');
    const res = await postForm(
      app,
      admin,
      `${url}/waiver`,
      { title: 'Waiver', body: 'I agree.', tr_es_title: 'Exención', tr_es_body: 'Acepto.' },
      csrfOf(page.body),
    );
    expect(res.statusCode, res.body).toBe(303);
    expect(await translations('event_consent_documents')).toEqual({
      es: { title: 'Exención', body: 'Acepto.' },
    });
  });

  it('announcements: the Spanish version is stored with the announcement', async () => {
    const url = `/staff/events/${A}/announcements`;
    const page = await getPage(app, admin, url);
    expect(page.body).toContain('id="tr-es-subject"');
    const res = await postForm(
      app,
      admin,
      url,
      {
        audience: 'staff',
        subject: 'Briefing',
        body: 'Hello {{name}}',
        tr_es_subject: 'Reunión',
        tr_es_body: 'Hola {{name}}',
        when: 'now',
        confirmed: 'yes',
        intent: 'send',
      },
      csrfOf(page.body),
    );
    expect(res.statusCode, res.body).toBe(303);
    expect(await translations('announcements')).toEqual({
      es: { subject: 'Reunión', body: 'Hola {{name}}' },
    });
  });
});
