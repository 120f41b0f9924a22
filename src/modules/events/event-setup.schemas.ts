/** Wire shapes of the event setup content routes (event-setup.routes.ts). */
import { Type } from 'typebox';
import { EventIdParam, Nullable, NullableDateTime } from '../../http/schema-helpers.js';
import { translationsSchema } from '../languages/translations.js';
import { CONSENT_DOCUMENT_TYPES } from './consent-defaults.js';
import { BODY_MAX, TITLE_MAX } from './consent-documents.service.js';
import { IMAGE_KINDS } from './event-images.service.js';

const Texts = {
  title: Type.String({ maxLength: TITLE_MAX * 2 }),
  body: Type.String({ maxLength: BODY_MAX * 2 }),
};

export const ConsentDocument = Type.Object({
  consent_type: Type.String({ description: CONSENT_DOCUMENT_TYPES.join(' | ') }),
  title: Type.String(),
  body: Type.String({ description: 'Plain text; paragraphs separated by a blank line' }),
  version: Nullable(Type.Integer({ description: 'Current version; null while the built-in text applies' })),
  required: Type.Boolean({ description: 'Registrations of this event are asked to sign it' }),
  signed_count: Type.Integer({ description: 'Signatures of the current version' }),
  updated_at: NullableDateTime,
  translations: Type.Record(Type.String(), Type.Object({ title: Type.String(), body: Type.String() }), {
    description:
      'The title and text in the event’s other offered languages, by language code (the built-in text: every offered language the catalog has). A language without an entry reads the default-language text with a note.',
  }),
});

export const DocumentParams = Type.Object({
  event_id: EventIdParam,
  consent_type: Type.String({ maxLength: 50, description: CONSENT_DOCUMENT_TYPES.join(' | ') }),
});

export const DocumentRequest = Type.Object(
  {
    consent_document: Type.Object(
      {
        ...Texts,
        translations: Type.Optional(translationsSchema(Texts, 'The title and text')),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const ImageParams = Type.Object({
  event_id: EventIdParam,
  kind: Type.Union(
    IMAGE_KINDS.map((k) => Type.Literal(k)),
    { description: 'logo | banner' },
  ),
});

/** The event's image URLs after an upload or removal (null when unset, docs/decisions.md "Timestamps and nulls"). */
export const EventImages = Type.Object({
  logo_url: Nullable(Type.String({ description: 'Absolute content-hash URL, or null' })),
  banner_url: Nullable(Type.String({ description: 'Absolute content-hash URL, or null' })),
});
