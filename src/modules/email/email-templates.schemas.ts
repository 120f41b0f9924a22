/** Wire shapes of the editable email wording (docs/email.md "Editable wording"). */
import { Type } from 'typebox';
import { EventIdParam, NullableDateTime } from '../../http/schema-helpers.js';
import { translationsSchema } from '../languages/translations.js';
import { EDITABLE_TEMPLATES, MAX_BODY, MAX_SUBJECT } from './wording.js';

export const TemplateParams = Type.Object({
  event_id: EventIdParam,
  template: Type.String({
    minLength: 1,
    maxLength: 60,
    description: `One of ${EDITABLE_TEMPLATES.map((t) => `\`${t}\``).join(', ')} (another → 404)`,
  }),
});
export const EventParams = Type.Object({ event_id: EventIdParam });

export const EmailTemplate = Type.Object({
  template: Type.String({ enum: [...EDITABLE_TEMPLATES] }),
  subject: Type.String(),
  body: Type.String({
    description: 'Paragraphs separated by a blank line; `{{link}}` alone marks the button',
  }),
  customized: Type.Boolean({ description: 'False while the event uses Muster’s default wording' }),
  placeholders: Type.Array(Type.String(), { description: 'The `{{names}}` this email fills in' }),
  link_label: Type.String({ description: 'The button’s label (fixed)' }),
  updated_at: NullableDateTime,
  translations: Type.Record(Type.String(), Type.Object({ subject: Type.String(), body: Type.String() }), {
    description:
      'The wording in the event’s other offered languages, by language code. A reader of an offered language without an entry gets the default-language wording with a note in their language (while the event uses Muster’s wording, every language gets Muster’s own).',
  }),
});
export const EmailTemplateBody = Type.Object({ email_template: EmailTemplate });
export const EmailTemplateList = Type.Object({ email_templates: Type.Array(EmailTemplate) });

const Texts = {
  subject: Type.String({ maxLength: MAX_SUBJECT * 2 }),
  body: Type.String({ maxLength: MAX_BODY * 2 }),
};
export const WordingRequest = Type.Object(
  { ...Texts, translations: Type.Optional(translationsSchema(Texts, 'The wording')) },
  { additionalProperties: false },
);
export const PreviewRequest = Type.Partial(
  Type.Object({
    ...WordingRequest.properties,
    language: Type.String({
      maxLength: 35,
      description: 'Preview as a reader of this offered language (default: the event’s default language)',
    }),
  }),
  { additionalProperties: false },
);

export const PreviewBody = Type.Object({
  preview: Type.Object({
    subject: Type.String(),
    text: Type.String({ description: 'The plain-text part' }),
    html: Type.String({ description: 'The HTML part (a whole document)' }),
  }),
});
