/**
 * Per-event content edited in the setup wizard: the consent
 * documents participants and guardians sign, and the uploaded logo and banner images.
 */
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Translations } from './common.js';
import { createdAt, updatedAt } from './common.js';
import { events } from './events.js';

/** PostgreSQL `bytea` as a Node Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * One version of an event's consent document (`consent_type` waiver | freedom_waiver |
 * code_of_conduct, or an organiser's own slug). The highest `version` is current; it is edited in
 * place while no consent records it as signed (`consents.document_id`), else an edit adds
 * `version + 1`. `body` is plain text, paragraphs separated by blank lines. No row: the built-in
 * default text applies. `required` is null for the built-in types (the event's modules decide)
 * and set for an organiser's own documents (true: signing it is needed to complete registration).
 */
export const eventConsentDocuments = pgTable(
  'event_consent_documents',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    consentType: text('consent_type').notNull(),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** This version in other languages: `{es: {title, body}}` (docs/languages.md). */
    translations: jsonb('translations').$type<Translations<'title' | 'body'>>().notNull().default({}),
    /** Custom documents only (null for the built-in types): signing it is needed to complete. */
    required: boolean('required'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('event_consent_documents_version').on(t.eventId, t.consentType, t.version)],
);

/**
 * Uploaded images (event logos and banners), addressed by the SHA-256 of their bytes: the public
 * URL `/media/<sha256>.<ext>` never changes meaning, so it is cached for a year. Stored in the
 * database so every process behind one PostgreSQL serves the same files.
 */
export const mediaFiles = pgTable(
  'media_files',
  {
    id: serial('id').primaryKey(),
    sha256: text('sha256').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
    /** The event that uploaded these bytes (deleting the event deletes its files). */
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('media_files_event_sha256').on(t.eventId, t.sha256), index().on(t.sha256)],
);
