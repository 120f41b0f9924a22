/**
 * The announcement placeholders' one renderer (src/modules/announcements/placeholders.ts): each
 * placeholder is filled in the subject and in the message for each kind of recipient, the rendered
 * email (subject, text and HTML) keeps none, and an unknown one is refused in either field.
 */
import { describe, expect, it } from 'vitest';
import type { ComposeInput } from '../../src/modules/announcements/announcements.schemas.js';
import { compose } from '../../src/modules/announcements/announcements.service.js';
import type { AudienceMember } from '../../src/modules/announcements/audience.repo.js';
import { varsFor } from '../../src/modules/announcements/dispatch.service.js';
import { checkPlaceholders, PLACEHOLDERS } from '../../src/modules/announcements/placeholders.js';
import { renderTemplate } from '../../src/modules/email/templates.js';

const event = {
  name: 'Summer Camp 2027',
  supportEmail: 'help@camp.example',
  defaultLanguage: 'en',
  languages: ['en'],
};
const guardian: AudienceMember = {
  email: 'gina@example.com',
  name: 'Gina Guardian',
  kind: 'guardian',
  participant_names: ['Max', 'Ada'],
  registration_id: null,
  language: null,
};
const participant: AudienceMember = {
  email: 'max@example.com',
  name: 'Max',
  kind: 'participant',
  participant_names: ['Max'],
  registration_id: 1,
  language: null,
};
const staff: AudienceMember = {
  email: 'olga@example.com',
  name: '',
  kind: 'staff',
  participant_names: [],
  registration_id: null,
  language: null,
};

const EXPECTED: Record<(typeof PLACEHOLDERS)[number], [AudienceMember, string][]> = {
  name: [
    [guardian, 'Gina Guardian'],
    [participant, 'Max'],
    [staff, 'there'],
  ],
  participant_names: [
    [guardian, 'Max and Ada'],
    [participant, 'Max'],
    [staff, ''],
  ],
  event_name: [
    [guardian, 'Summer Camp 2027'],
    [staff, 'Summer Camp 2027'],
  ],
};

describe('announcement placeholders', () => {
  for (const key of PLACEHOLDERS) {
    it(`{{${key}}} is filled in the subject and in the message`, () => {
      for (const [member, value] of EXPECTED[key]) {
        const vars = varsFor(event, { subject: `About {{${key}}}!`, body: `Dear {{ ${key} }}.` }, member);
        expect(vars.subject).toBe(`About ${value}!`);
        expect(vars.body).toBe(`Dear ${value}.`);
        const email = renderTemplate('announcement', vars);
        expect(email.subject).toBe(`Summer Camp 2027: About ${value}!`);
        for (const part of [email.subject, email.text, email.html]) expect(part).not.toContain('{{');
      }
    });
  }

  it('a subject and message using every placeholder leave none', () => {
    const all = PLACEHOLDERS.map((p) => `{{${p}}}`).join(' / ');
    const email = renderTemplate('announcement', varsFor(event, { subject: all, body: all }, guardian));
    expect(email.subject).toBe('Summer Camp 2027: Gina Guardian / Max and Ada / Summer Camp 2027');
    expect(`${email.subject}${email.text}${email.html}`).not.toMatch(/\{\{|\}\}/);
  });

  it('an unknown placeholder is refused in the subject and in the message, naming the field', () => {
    expect(() => checkPlaceholders('Hi {{token}}', 'Subject')).toThrow(
      'Subject: unknown placeholder {{token}}; use {{name}}, {{participant_names}}, {{event_name}}',
    );
    expect(() => compose({ subject: 'Hi {{first}}', body: 'x', audience: 'staff' } as ComposeInput)).toThrow(
      'Subject: unknown placeholder {{first}}',
    );
    expect(() => compose({ subject: 'x', body: '{{ nope }}', audience: 'staff' } as ComposeInput)).toThrow(
      'Message: unknown placeholder {{nope}}',
    );
    expect(() =>
      compose({ subject: '{{event_name}} news', body: 'Hi {{name}}', audience: 'staff' } as ComposeInput),
    ).not.toThrow();
  });
});
