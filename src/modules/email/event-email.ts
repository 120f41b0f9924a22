/**
 * What an event email needs from the database at queue time (docs/email.md): the event's brand
 * (name, logo, support address, time zone) and its own wording of the template, if any. Sealed
 * with the email's variables, so an email renders the same however late its job runs.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { emailLanguage, offeredLanguages } from '../languages/languages.service.js';
import type { EventBrand } from './layout.js';
import type { EditableTemplate, Wording } from './wording.js';

export interface EventEmailContext {
  event: EventBrand;
  wording: Wording | null;
  /** The organiser's wording in other offered languages: `{es: {subject, body}}` (docs/languages.md). */
  wording_translations?: Record<string, Partial<Wording>>;
  /** The event's default language: the recipient's when they never chose one. */
  default_language?: string;
  /** The languages the event offers (the default among them). */
  languages?: string[];
}

/**
 * The language to write to a recipient who chose `chosen` (a guardian's or participant's stored
 * language): theirs while the event offers it, else the event's default (docs/languages.md "Emails").
 */
export function recipientLanguage(context: EventEmailContext, chosen: string | null | undefined): string {
  const offered = offeredLanguages(context.default_language ?? 'en', context.languages ?? []);
  return emailLanguage(offered, chosen);
}

/** An event's logo as an absolute URL for email clients (a path is put under MUSTER_BASE_URL). */
export function absoluteLogoUrl(baseUrl: string, logoUrl: string | null): string | null {
  if (!logoUrl) return null;
  if (/^https?:\/\//i.test(logoUrl)) return logoUrl;
  if (logoUrl.startsWith('/')) return `${baseUrl.replace(/\/$/, '')}${logoUrl}`;
  return null;
}

/** Brand and wording of event `eventId` for `template`; throws when the event does not exist. */
export async function eventEmailContext(
  deps: Pick<Deps, 'config'>,
  tx: Tx,
  eventId: number,
  template: EditableTemplate,
): Promise<EventEmailContext> {
  const res = await tx.execute<{
    name: string;
    logo_url: string | null;
    support_email: string | null;
    timezone: string;
    subject: string | null;
    body: string | null;
    translations: Record<string, Partial<Wording>> | null;
    default_language: string;
    languages: string[];
  }>(sql`
    SELECT e.name, e.logo_url, e.support_email, e.timezone, t.subject, t.body, t.translations, e.default_language,
           e.languages
      FROM events e
      LEFT JOIN email_templates t ON t.event_id = e.id AND t.template = ${template}
     WHERE e.id = ${eventId}`);
  const row = res.rows[0];
  if (!row) throw new Error(`event ${eventId} not found`);
  return {
    event: {
      name: row.name,
      logo_url: absoluteLogoUrl(deps.config.baseUrl, row.logo_url),
      support_email: row.support_email,
      timezone: row.timezone,
    },
    wording: row.subject !== null && row.body !== null ? { subject: row.subject, body: row.body } : null,
    wording_translations: row.translations ?? {},
    default_language: row.default_language,
    languages: row.languages,
  };
}
