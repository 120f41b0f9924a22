/**
 * Which languages an event offers and which one a person chose (docs/languages.md "Which
 * language"). An event offers `languages` (every one a shipped catalog) with `default_language` among
 * them; a participant's choice is kept on their account (`users.language`), a guardian's on their
 * guardian row (`guardians.language`): a guardian reads in their own language, not the child's.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { isShipped, SHIPPED_LANGUAGES } from '../../lib/i18n/index.js';

export interface EventLanguages {
  default_language: string;
  /** Offered languages, the default first. */
  languages: string[];
}

/** Every shipped language, English first: what pages without an event offer. */
export const ALL_LANGUAGES: EventLanguages = { default_language: 'en', languages: [...SHIPPED_LANGUAGES] };

/** The stored pair cleaned: only shipped languages, the default first (English when nothing is left). */
export function offeredLanguages(defaultLanguage: string, languages: readonly string[]): EventLanguages {
  const shipped = languages.filter(isShipped);
  const first = isShipped(defaultLanguage) ? defaultLanguage : (shipped[0] ?? 'en');
  return { default_language: first, languages: [first, ...shipped.filter((l) => l !== first)] };
}

/** Event `eventId`'s offered languages (every shipped one when the event is unknown). */
export async function eventLanguages(db: Tx, eventId: number): Promise<EventLanguages> {
  const res = await db.execute<{ default_language: string; languages: string[] }>(
    sql`SELECT default_language, languages FROM events WHERE id = ${eventId}`,
  );
  const row = res.rows[0];
  return row ? offeredLanguages(row.default_language, row.languages) : ALL_LANGUAGES;
}

/** The language user `userId` chose, or null. */
export async function userLanguage(db: Tx, userId: number): Promise<string | null> {
  const res = await db.execute<{ language: string | null }>(
    sql`SELECT language FROM users WHERE id = ${userId}`,
  );
  return res.rows[0]?.language ?? null;
}

/** Remembers user `userId`'s choice (a shipped language; anything else is ignored). */
export async function setUserLanguage(db: Tx, userId: number, language: string): Promise<void> {
  if (!isShipped(language)) return;
  await db.execute(
    sql`UPDATE users SET language = ${language} WHERE id = ${userId} AND language IS DISTINCT FROM ${language}`,
  );
}

/** The language guardian `guardianId` chose, or null. */
export async function guardianLanguage(db: Tx, guardianId: number): Promise<string | null> {
  const res = await db.execute<{ language: string | null }>(
    sql`SELECT language FROM guardians WHERE id = ${guardianId}`,
  );
  return res.rows[0]?.language ?? null;
}

/** Remembers guardian `guardianId`'s choice (a shipped language; anything else is ignored). */
export async function setGuardianLanguage(db: Tx, guardianId: number, language: string): Promise<void> {
  if (!isShipped(language)) return;
  await db.execute(
    sql`UPDATE guardians SET language = ${language} WHERE id = ${guardianId} AND language IS DISTINCT FROM ${language}`,
  );
}

/**
 * The language of an email to someone: their remembered choice when the event offers it, else the
 * event's default.
 */
export function emailLanguage(offered: EventLanguages, chosen: string | null | undefined): string {
  return chosen && offered.languages.includes(chosen) ? chosen : offered.default_language;
}
