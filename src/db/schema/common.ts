import { timestamp } from 'drizzle-orm/pg-core';

/** timestamptz returned as PostgreSQL's text (microsecond precision); formatted by lib/time.ts. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'string', precision: 6 });
export const createdAt = () => ts('created_at').notNull().defaultNow();
export const updatedAt = () => ts('updated_at').notNull().defaultNow();

/** Organiser-written text in other languages, by language code (docs/languages.md). */
export type Translations<K extends string> = Record<string, Partial<Record<K, string>>>;
