/** Wire shapes of the event setup content routes (event-setup.routes.ts). */
import { type TSchema, Type } from 'typebox';
import { EventIdParam, Nullable, NullableDateTime } from '../../http/schema-helpers.js';
import { translationsSchema } from '../languages/translations.js';
import { CONSENT_DOCUMENT_TYPES } from './consent-defaults.js';
import { BODY_MAX, TITLE_MAX } from './consent-documents.service.js';
import { CONSENT_TYPE_PATTERN } from './custom-consent-documents.service.js';
import { IMAGE_KINDS } from './event-images.service.js';

const Texts = {
  title: Type.String({ maxLength: TITLE_MAX * 2 }),
  body: Type.String({ maxLength: BODY_MAX * 2 }),
};

const TYPES = `${CONSENT_DOCUMENT_TYPES.join(' | ')} (built in), or a custom document's own slug`;

export const ConsentDocument = Type.Object({
  consent_type: Type.String({ description: TYPES }),
  title: Type.String(),
  body: Type.String({ description: 'Plain text; paragraphs separated by a blank line' }),
  version: Nullable(Type.Integer({ description: 'Current version; null while the built-in text applies' })),
  required: Type.Boolean({
    description:
      'Signing it is needed to complete registration (built in: waiver always, freedom_waiver with its module; custom: as set)',
  }),
  custom: Type.Boolean({
    description: 'An organiser’s own document (added with POST; removable while nobody signed any version)',
  }),
  signed_count: Type.Integer({ description: 'Signatures of the current version' }),
  updated_at: NullableDateTime,
  translations: Type.Record(Type.String(), Type.Object({ title: Type.String(), body: Type.String() }), {
    description:
      'The title and text in the event’s other offered languages, by language code (the built-in text: every offered language the catalog has). A language without an entry reads the default-language text with a note.',
  }),
});

export const DocumentParams = Type.Object({
  event_id: EventIdParam,
  consent_type: Type.String({ maxLength: 50, description: TYPES }),
});

const REQUIRED = 'Custom documents only: signing it is needed to complete registration';
const Required = Type.Boolean({ description: REQUIRED });

/** `{consent_document: {...fields}}`, no other field allowed. */
const wrapped = <T extends Record<string, TSchema>>(fields: T) =>
  Type.Object(
    { consent_document: Type.Object(fields, { additionalProperties: false }) },
    { additionalProperties: false },
  );
const TextFields = { ...Texts, translations: Type.Optional(translationsSchema(Texts, 'The title and text')) };

export const DocumentRequest = wrapped({ ...TextFields, required: Type.Optional(Required) });

export const NewDocumentRequest = wrapped({
  consent_type: Type.Optional(
    Type.String({
      maxLength: 100,
      description: `Its stable slug (pattern \`${CONSENT_TYPE_PATTERN}\`); absent: made from the title`,
    }),
  ),
  ...TextFields,
  required: Type.Optional(Type.Boolean({ description: `${REQUIRED}; default false` })),
});

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
