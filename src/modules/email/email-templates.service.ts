/**
 * Per-event wording of the editable emails (docs/email.md "Editable wording"):
 * GET|PUT|DELETE /events/{event_id}/email_templates/{template}, GET …/email_templates and
 * POST …/{template}/preview. Event admins, series roles and global admins (action
 * `email_templates.manage`). Organisers edit the subject and body; Muster keeps the link and the
 * facts (placeholders). Writes are audited `email_templates.update` / `email_templates.reset`.
 */
import { and, eq, sql } from 'drizzle-orm';
import { actorUserIdOf } from '../../access/principal.js';
import type { Translations } from '../../db/schema/common.js';
import { emailTemplates } from '../../db/schema/index.js';
import type { EventCtx } from '../../deps.js';
import { notFound, unprocessable } from '../../lib/errors.js';
import { isOneOf } from '../../lib/narrow.js';
import { isoTimestamp } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import type { EventLanguages } from '../languages/languages.service.js';
import {
  checkTranslations,
  offeredOf,
  offeredTranslations,
  type TextTranslations,
} from '../languages/translations.js';
import { absoluteLogoUrl } from './event-email.js';
import type { EventBrand } from './layout.js';
import { type Rendered, renderTemplate } from './templates.js';
import {
  DEFAULT_WORDING,
  EDITABLE_TEMPLATES,
  type EditableTemplate,
  LINK_LABELS,
  LINK_PLACEHOLDER,
  PLACEHOLDERS,
  type Wording,
  wordingProblem,
} from './wording.js';

export const TEMPLATE_NOT_FOUND = 'Email template not found';

/** The wire shape of one editable template. */
export interface EmailTemplateView {
  template: EditableTemplate;
  subject: string;
  body: string;
  /** False while the event uses Muster's default wording. */
  customized: boolean;
  placeholders: string[];
  link_label: string;
  updated_at: string | null;
  /** The wording in the event's other offered languages: `{es: {subject, body}}`. */
  translations: TextTranslations<'subject' | 'body'>;
}

/** A save: the default-language wording and, optionally, other offered languages'. */
export interface WordingInput extends Wording {
  translations?: Record<string, Wording> | undefined;
}

type StoredRow = {
  subject: string;
  body: string;
  updatedAt: string;
  translations: Translations<'subject' | 'body'>;
};

function templateName(name: string): EditableTemplate {
  if (!isOneOf(EDITABLE_TEMPLATES, name)) throw notFound(TEMPLATE_NOT_FOUND);
  return name;
}

async function stored(ctx: EventCtx, template: EditableTemplate) {
  const [row] = await ctx.db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.eventId, ctx.access.event.id), eq(emailTemplates.template, template)));
  return row;
}

function view(template: EditableTemplate, offered: EventLanguages, row?: StoredRow) {
  const wording = row ?? DEFAULT_WORDING[template];
  return {
    template,
    subject: wording.subject,
    body: wording.body,
    customized: row !== undefined,
    placeholders: [...PLACEHOLDERS[template], LINK_PLACEHOLDER],
    link_label: LINK_LABELS[template],
    updated_at: row ? isoTimestamp(row.updatedAt) : null,
    translations: offeredTranslations(row?.translations, offered, ['subject', 'body']),
  } satisfies EmailTemplateView;
}

/** GET …/email_templates → `{email_templates}`: every editable template, in a fixed order. */
export async function listTemplates(ctx: EventCtx) {
  const rows = await ctx.db
    .select()
    .from(emailTemplates)
    .where(eq(emailTemplates.eventId, ctx.access.event.id));
  return {
    email_templates: EDITABLE_TEMPLATES.map((t) =>
      view(
        t,
        offeredOf(ctx.access.event),
        rows.find((r) => r.template === t),
      ),
    ),
  };
}

/** GET …/email_templates/{template} → `{email_template}`; unknown name → 404. */
export async function getTemplate(ctx: EventCtx, name: string) {
  const template = templateName(name);
  return { email_template: view(template, offeredOf(ctx.access.event), await stored(ctx, template)) };
}

function checked(template: EditableTemplate, input: Wording): Wording {
  const wording = { subject: input.subject.trim(), body: input.body.replace(/\r\n?/g, '\n').trim() };
  const problem = wordingProblem(template, wording);
  if (problem) throw unprocessable(problem);
  return wording;
}

/**
 * PUT …/email_templates/{template} `{subject, body, translations?}` → `{email_template}`; 422 naming
 * the problem (a translation's prefixed `translations.<code>: `, also for a language the event does
 * not offer or its default one). `translations` absent: the stored ones are kept when the wording
 * is unchanged, else dropped (a translation belongs to the wording it translates).
 */
export async function putTemplate(ctx: EventCtx, name: string, input: WordingInput) {
  const template = templateName(name);
  const wording = checked(template, input);
  const offered = offeredOf(ctx.access.event);
  const given =
    input.translations && checkTranslations(input.translations, offered, (w) => checked(template, w));
  const p = ctx.access.principal;
  const userId = actorUserIdOf(p);
  const eventId = ctx.access.event.id;
  return ctx.db.transaction(async (tx) => {
    const before = await stored({ ...ctx, db: tx }, template);
    const unchanged = before?.subject === wording.subject && before.body === wording.body;
    const translations = given ?? (unchanged ? before.translations : {});
    const [row] = await tx
      .insert(emailTemplates)
      .values({ eventId, template, ...wording, translations, updatedByUserId: userId })
      .onConflictDoUpdate({
        target: [emailTemplates.eventId, emailTemplates.template],
        set: { ...wording, translations, updatedByUserId: userId, updatedAt: sql`now()` },
      })
      .returning();
    await recordAudit(tx, {
      action: 'email_templates.update',
      principal: p,
      eventId,
      seriesId: ctx.access.event.seriesId,
      targetType: 'email_template',
      targetId: row!.id,
      metadata: { template, ...(given ? { languages: Object.keys(given) } : {}) },
    });
    return { email_template: view(template, offered, row) };
  });
}

/** DELETE …/email_templates/{template} → `{email_template}` with the default wording (idempotent). */
export async function resetTemplate(ctx: EventCtx, name: string) {
  const template = templateName(name);
  const eventId = ctx.access.event.id;
  await ctx.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(emailTemplates)
      .where(and(eq(emailTemplates.eventId, eventId), eq(emailTemplates.template, template)))
      .returning({ id: emailTemplates.id });
    const [first] = deleted;
    if (!first) return;
    await recordAudit(tx, {
      action: 'email_templates.reset',
      principal: ctx.access.principal,
      eventId,
      seriesId: ctx.access.event.seriesId,
      targetType: 'email_template',
      targetId: first.id,
      metadata: { template },
    });
  });
  return { email_template: view(template, offeredOf(ctx.access.event)) };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * POST …/{template}/preview `{subject?, body?, translations?, language?}` → `{preview: {subject,
 * text, html}}`: the email as it would be sent now to a reader of `language` (default: the event's
 * default language; one it does not offer → 422), with the event's real name, logo, support
 * address and dates, an example recipient and an example link. Without a draft the saved (or
 * default) wording is shown; a draft must give both fields and is checked like PUT (422).
 */
export async function previewTemplate(
  ctx: EventCtx,
  name: string,
  draft: Partial<WordingInput> & { language?: string | undefined },
) {
  const template = templateName(name);
  const offered = offeredOf(ctx.access.event);
  const lang = draft.language ?? offered.default_language;
  if (!offered.languages.includes(lang))
    throw unprocessable(
      `language: ${lang} is not a language this event offers (${offered.languages.join(', ')})`,
    );
  let wording: Wording | null;
  let translations: Translations<'subject' | 'body'> = {};
  if (draft.subject !== undefined || draft.body !== undefined) {
    if (draft.subject === undefined || draft.body === undefined)
      throw unprocessable('A draft needs both subject and body');
    wording = checked(template, { subject: draft.subject, body: draft.body });
    if (draft.translations)
      translations = checkTranslations(draft.translations, offered, (w) => checked(template, w));
  } else {
    const row = await stored(ctx, template);
    wording = row ? { subject: row.subject, body: row.body } : null;
    translations = row?.translations ?? {};
  }
  return {
    preview: renderPreview(ctx, template, {
      wording,
      wording_translations: translations,
      lang,
      default_language: offered.default_language,
    }),
  };
}

type Wordings = {
  wording: Wording | null;
  wording_translations: Translations<'subject' | 'body'>;
  lang: string;
  default_language: string;
};

function renderPreview(ctx: EventCtx, template: EditableTemplate, wordings: Wordings): Rendered {
  const e = ctx.access.event;
  const base = ctx.config.baseUrl.replace(/\/$/, '');
  const event: EventBrand = {
    name: e.name,
    logo_url: absoluteLogoUrl(base, e.logoUrl),
    support_email: e.supportEmail,
    timezone: e.timezone,
  };
  const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();
  const common = { event, ...wordings };
  if (template === 'invitation')
    return renderTemplate('invitation', {
      ...common,
      first_name: 'Alex',
      accept_url: `${base}/register/accept?token=example`,
      expires_at: inDays(30),
    });
  if (template === 'guardian_invitation')
    return renderTemplate('guardian_invitation', {
      ...common,
      participant_name: 'Alex Example',
      guardian_name: 'Sam Example',
      portal_url: `${base}/guardian/accept?token=example`,
      expires_at: inDays(7),
    });
  return renderTemplate('registration_reminder', {
    ...common,
    first_name: 'Alex',
    continue_url: `${base}/register/1`,
    closes_at: e.registrationCloseAt ?? inDays(7),
  });
}
