/**
 * Organiser-written content per offered language over HTTP (issue 28 item 3, docs/languages.md
 * "How organisers offer and write per-language content"), with the job worker delivering to a real
 * local SMTP server: an email wording override in Spanish reaches a Spanish-reading guardian, a
 * German-reading guardian of the same child gets the default wording under a note in German; an
 * announcement goes out in two languages; a consent document's translation is what a Spanish
 * reader is shown; a translation in a language the event does not offer is 422 `{error}` and
 * changes nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardians } from '../../src/db/schema/index.js';
import { consentDocumentText } from '../../src/modules/events/consent-document-text.js';
import { sendGuardianInvitations } from '../../src/modules/registration/invitations/guardian-invitations.js';
import { call, emailsSettled, P, type RegHarness, startRegHarness } from '../registration/harness.js';
import { snapshotDb } from '../support/app.js';
import { addRegistration } from '../support/world.js';

let h: RegHarness;
let A: number;
let admin: string;
let lola: number;

const ELENA = 'elena.es@example.com';
const DIETER = 'dieter.de@example.com';
const GERMAN_NOTE = 'Dieser Text ist in deiner Sprache nicht verfügbar; er wird auf English angezeigt.';

beforeAll(async () => {
  h = await startRegHarness();
  A = h.world.events.A.id;
  admin = h.world.secrets.eventAdmin!;
  await h.t.deps.db.execute(
    sql`UPDATE events SET default_language = 'en', languages = '{en,es,de}', support_email = 'help@summit.example' WHERE id = ${A}`,
  );
  await h.t.deps.db.transaction(async (tx) => {
    const reg = await addRegistration(tx, {
      eventId: A,
      email: 'lola.minor@example.com',
      firstName: 'Lola',
      lastName: 'Minor',
      preferredName: null,
      dateOfBirth: '2013-04-04',
      status: 'awaiting_guardian',
    });
    lola = reg.id;
    await tx.insert(guardians).values([
      { registrationId: reg.id, name: 'Elena', email: ELENA, isPrimary: true, language: 'es' },
      { registrationId: reg.id, name: 'Dieter', email: DIETER, isPrimary: false, language: 'de' },
    ]);
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const url = (path: string) => `${P}/events/${A}${path}`;
const mailTo = (to: string, subject: RegExp) =>
  h.smtp.waitFor((m) => m.to.includes(to) && subject.test(m.subject));

describe('organiser content per language', () => {
  it('refuses a translation in a language the event does not offer, or in its default (422 {error}), changing nothing', async () => {
    await emailsSettled(h);
    const before = await snapshotDb(h.t.deps);
    const cases: [string, 'PUT' | 'POST', Record<string, unknown>, string][] = [
      [
        '/consent_documents/waiver',
        'PUT',
        {
          consent_document: {
            title: 'Waiver',
            body: 'Text',
            translations: { fr: { title: 'T', body: 'B' } },
          },
        },
        'translations.fr: fr is not a language this event offers (en, es, de)',
      ],
      [
        '/email_templates/invitation',
        'PUT',
        { subject: 'Hi', body: 'Body', translations: { ar: { subject: 'S', body: 'B' } } },
        'translations.ar: ar is not a language this event offers (en, es, de)',
      ],
      [
        '/email_templates/invitation',
        'PUT',
        { subject: 'Hi', body: 'Body', translations: { es: { subject: ' ', body: 'B' } } },
        'translations.es: subject cannot be blank',
      ],
      [
        '/announcements',
        'POST',
        {
          subject: 'Hi',
          body: 'Body',
          audience: 'guardians_all',
          translations: { en: { subject: 'S', body: 'B' } },
        },
        "translations.en: en is the event's default language; write that text in the main fields",
      ],
      [
        '/announcements',
        'POST',
        {
          subject: 'Hi',
          body: 'Body',
          audience: 'guardians_all',
          translations: { es: { subject: 'Hola {{nombre}}', body: 'B' } },
        },
        'translations.es: Subject: unknown placeholder {{nombre}}; use {{name}}, {{participant_names}}, {{event_name}}',
      ],
    ];
    for (const [path, method, body, error] of cases) {
      const res = await call(h.app, method, url(path), admin, body);
      expect([res.statusCode, res.json()], path).toEqual([422, { error }]);
    }
    expect(await snapshotDb(h.t.deps)).toEqual(before);
  });

  it('an email wording override goes out in each guardian’s language, else the default with a note in theirs', async () => {
    const put = await call(h.app, 'PUT', url('/email_templates/guardian_invitation'), admin, {
      subject: 'Please confirm for {{participant_name}}',
      body: 'Hello {{guardian_name}},\n\nPlease confirm by {{expires_at}}.',
      translations: {
        es: { subject: 'Confirma por favor para {{participant_name}}', body: 'Hola {{guardian_name}}.' },
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().email_template.translations).toEqual({
      es: { subject: 'Confirma por favor para {{participant_name}}', body: 'Hola {{guardian_name}}.' },
    });

    const es = await call(h.app, 'POST', url('/email_templates/guardian_invitation/preview'), admin, {
      language: 'es',
    });
    expect(es.json().preview.subject).toBe('Confirma por favor para Alex Example');
    const de = await call(h.app, 'POST', url('/email_templates/guardian_invitation/preview'), admin, {
      language: 'de',
    });
    expect(de.json().preview.text.startsWith(`${GERMAN_NOTE}\n\nHello Sam Example,`)).toBe(true);
    const fr = await call(h.app, 'POST', url('/email_templates/guardian_invitation/preview'), admin, {
      language: 'fr',
    });
    expect([fr.statusCode, fr.json()]).toEqual([
      422,
      { error: 'language: fr is not a language this event offers (en, es, de)' },
    ]);

    await h.t.deps.db.transaction((tx) => sendGuardianInvitations(h.t.deps, tx, lola));
    const elena = await mailTo(ELENA, /Lola/);
    expect(elena.subject).toBe('Confirma por favor para Lola Minor');
    expect(elena.text).toMatch(/^Hola Elena\./);
    expect(elena.text).not.toContain('English');
    expect(elena.html).toContain('lang="es"');
    const dieter = await mailTo(DIETER, /Lola/);
    expect(dieter.subject).toBe('Please confirm for Lola Minor');
    expect(dieter.text.startsWith(`${GERMAN_NOTE}\n\nHello Dieter,\n\nPlease confirm by `)).toBe(true);
    expect(dieter.text).toMatch(/Samstag|Sonntag|Montag|Dienstag|Mittwoch|Donnerstag|Freitag/);
    expect(dieter.html).toContain('<html lang="de"');
    expect(dieter.html).toContain('<span lang="en">');

    // Unchanged wording without `translations` keeps them; changed wording drops them.
    const same = await call(h.app, 'PUT', url('/email_templates/guardian_invitation'), admin, {
      subject: 'Please confirm for {{participant_name}}',
      body: 'Hello {{guardian_name}},\n\nPlease confirm by {{expires_at}}.',
    });
    expect(Object.keys(same.json().email_template.translations)).toEqual(['es']);
    const changed = await call(h.app, 'PUT', url('/email_templates/guardian_invitation'), admin, {
      subject: 'Confirm for {{participant_name}}',
      body: 'Hello {{guardian_name}}.',
    });
    expect(changed.json().email_template.translations).toEqual({});
    await emailsSettled(h);
  });

  it('an announcement reaches each guardian in their language (read from the outbox)', async () => {
    const res = await call(h.app, 'POST', url('/announcements'), admin, {
      subject: 'Bus at nine',
      body: 'Hello {{name}},\n\nThe bus for {{participant_names}} leaves at nine.',
      audience: 'guardians_all',
      translations: {
        es: { subject: 'Autobús a las nueve', body: 'Hola {{name}}: el autobús sale a las nueve.' },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().announcement.translations).toEqual({
      es: { subject: 'Autobús a las nueve', body: 'Hola {{name}}: el autobús sale a las nueve.' },
    });
    const name = h.world.events.A.name;
    const elena = await mailTo(ELENA, /Autobús|Bus at nine/);
    expect(elena.subject).toBe(`${name}: Autobús a las nueve`);
    expect(elena.text).toContain('Hola Elena: el autobús sale a las nueve.');
    expect(elena.text).toContain('Recibes este correo porque eres madre, padre o tutor de Lola');
    expect(elena.html).toContain('<html lang="es"');
    const dieter = await mailTo(DIETER, /Autobús|Bus at nine/);
    expect(dieter.subject).toBe(`${name}: Bus at nine`);
    expect(dieter.text.startsWith(`${GERMAN_NOTE}\n\nHello Dieter,`)).toBe(true);
    expect(dieter.text).toContain('Du bekommst diese E-Mail, weil du Elternteil');
    expect(dieter.html).toContain('<h1 style="font-size:1.25em" lang="en">Bus at nine</h1>');
    const gina = await mailTo('gina.guardian@example.com', /Autobús|Bus at nine/);
    expect(gina.subject).toBe(`${name}: Bus at nine`);
    expect(gina.text).not.toContain('English');
    expect(gina.text).toContain('You are receiving this because');
    await emailsSettled(h);
  });

  it('a consent document’s translation is what a Spanish reader is shown; another reads the default with the note', async () => {
    const put = await call(h.app, 'PUT', url('/consent_documents/waiver'), admin, {
      consent_document: {
        title: 'Summit waiver',
        body: 'I agree.\n\nSecond paragraph.',
        translations: { es: { title: 'Exención de Summit', body: 'Acepto.' } },
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().consent_document).toMatchObject({
      title: 'Summit waiver',
      translations: { es: { title: 'Exención de Summit', body: 'Acepto.' } },
    });
    const consentId = (
      await h.t.deps.db.execute<{ id: number }>(
        sql`SELECT id FROM consents WHERE registration_id = ${h.world.regs.minorA.id} AND consent_type = 'waiver'`,
      )
    ).rows[0]!.id;
    const es = await consentDocumentText(h.t.deps.db, Number(consentId), 'es');
    expect([es.title, es.paragraphs, es.language, es.fallback]).toEqual([
      'Exención de Summit',
      ['Acepto.'],
      'es',
      false,
    ]);
    const de = await consentDocumentText(h.t.deps.db, Number(consentId), 'de');
    expect([de.title, de.language, de.fallback, de.version]).toEqual(['Summit waiver', 'en', true, 1]);
    const list = await call(h.app, 'GET', url('/consent_documents'), admin);
    const coc = list
      .json()
      .consent_documents.find((d: { consent_type: string }) => d.consent_type === 'code_of_conduct');
    // The built-in text comes in every offered language the catalog has.
    expect(Object.keys(coc.translations)).toEqual(['es', 'de']);
  });
});
