/**
 * The language of an email to a guardian or participant who chose one (docs/languages.md "Emails"),
 * over a real local SMTP server: a stored language the event no longer offers falls back to the
 * event's default, for the guardian invitation, the guardian reminder and the participant
 * reminder alike; a reader whose language has a frame-only catalog (Arabic) gets the whole email in
 * the default language, and `<html lang>` names it (no `dir="rtl"` around Spanish text).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardians } from '../../src/db/schema/index.js';
import { sendReminders } from '../../src/modules/email/reminders.service.js';
import { sendGuardianInvitations } from '../../src/modules/registration/invitations/guardian-invitations.js';
import { emailsSettled, type RegHarness, startRegHarness } from '../registration/harness.js';
import { addRegistration } from '../support/world.js';

let h: RegHarness;
let minor: number;

const GRETA = 'greta.de@example.com';
const AMAL = 'amal.ar@example.com';
const PAUL = 'paul.de@example.com';
/** The default guardian invitation subject in Spanish. */
const SPANISH = /La inscripción de Lia Minor en .* necesita a su madre, padre o tutor/;

beforeAll(async () => {
  h = await startRegHarness();
  const A = h.world.events.A.id;
  // The event offers Spanish (default) and Arabic; German was offered once and is no longer.
  await h.t.deps.db.execute(sql`
    UPDATE events SET default_language = 'es', languages = '{es,ar}', timezone = 'Europe/Madrid',
           registration_open_at = now() - interval '30 days', registration_close_at = now() + interval '5 days'
     WHERE id = ${A}`);
  const user = await h.t.deps.db.execute<{ id: number }>(
    sql`INSERT INTO users (email, name, language) VALUES (${PAUL}, 'Paul', 'de') RETURNING id`,
  );
  await h.t.deps.db.transaction(async (tx) => {
    const reg = await addRegistration(tx, {
      eventId: A,
      email: 'lia.minor@example.com',
      firstName: 'Lia',
      lastName: 'Minor',
      preferredName: null,
      dateOfBirth: '2013-04-04',
      status: 'awaiting_guardian',
    });
    minor = reg.id;
    await tx.insert(guardians).values([
      { registrationId: reg.id, name: 'Greta', email: GRETA, isPrimary: true, language: 'de' },
      { registrationId: reg.id, name: 'Amal', email: AMAL, isPrimary: false, language: 'ar' },
    ]);
    await addRegistration(tx, {
      eventId: A,
      email: PAUL,
      firstName: 'Paul',
      lastName: 'Adult',
      preferredName: null,
      dateOfBirth: '1990-01-01',
      status: 'in_progress',
      userId: user.rows[0]!.id,
    });
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const mailTo = (to: string, subject: RegExp) =>
  h.smtp.waitFor((m) => m.to.includes(to) && subject.test(m.subject));

describe('the language of an email follows what the event offers and what the catalog has', () => {
  it('a guardian whose stored language is no longer offered is invited in the default language', async () => {
    await h.t.deps.db.transaction((tx) => sendGuardianInvitations(h.t.deps, tx, minor));
    const greta = await mailTo(GRETA, /Lia/);
    expect(greta.subject).toMatch(SPANISH);
    expect(greta.text).toMatch(/^Hola Greta/);
    expect(greta.html).toContain('<html lang="es">');
    expect(greta.text).not.toMatch(/Samstag|Sonntag|Montag|Dienstag|Mittwoch|Donnerstag|Freitag/);
  });

  it('an Arabic reader (a frame-only catalog) gets the whole email in the default language, marked so', async () => {
    const amal = await mailTo(AMAL, /Lia/);
    expect(amal.subject).toMatch(SPANISH);
    expect(amal.text).toMatch(/^Hola Amal/);
    expect(amal.html).toContain('<html lang="es">');
    expect(amal.html).not.toContain('dir="rtl"');
    expect(amal.html).not.toContain('lang="ar"');
  });

  it('the guardian reminder and the participant reminder fall back to the default language too', async () => {
    await emailsSettled(h);
    await h.t.deps.db.execute(
      sql`UPDATE guardians SET invite_token_sent_at = now() - interval '4 days' WHERE registration_id = ${minor}`,
    );
    await sendReminders(h.t.deps);
    const greta = await mailTo(GRETA, /^Recordatorio/);
    expect(greta.subject).toMatch(SPANISH);
    expect(greta.html).toContain('<html lang="es">');
    const amal = await mailTo(AMAL, /^Recordatorio/);
    expect(amal.html).toContain('<html lang="es">');
    const paul = await mailTo(PAUL, /.*/);
    expect(paul.text).toMatch(/^Hola Paul/);
    expect(paul.html).toContain('<html lang="es">');
    await emailsSettled(h);
  });
});
