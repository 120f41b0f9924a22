/**
 * Per-event wording of the editable emails (docs/email.md "Editable wording"):
 * GET|PUT|DELETE /events/{event_id}/email_templates/{template}, GET …/email_templates and
 * POST …/{template}/preview. Event admins, series roles and global admins (action
 * `email_templates.manage`). Organisers edit the subject and body; Muster keeps the link and the
 * facts (placeholders). Writes are audited `email_templates.update` / `email_templates.reset`.
 */
import { and, eq, sql } from 'drizzle-orm';
import { actorUserIdOf } from '../../access/principal.js';
import { emailTemplates } from '../../db/schema/index.js';
import type { EventCtx } from '../../deps.js';
import { notFound, unprocessable } from '../../lib/errors.js';
import { isoTimestamp } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
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
}

function templateName(name: string): EditableTemplate {
  if (!(EDITABLE_TEMPLATES as readonly string[]).includes(name)) throw notFound(TEMPLATE_NOT_FOUND);
  return name as EditableTemplate;
}

async function stored(ctx: EventCtx, template: EditableTemplate) {
  const [row] = await ctx.db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.eventId, ctx.access.event.id), eq(emailTemplates.template, template)));
  return row;
}

function view(template: EditableTemplate, row?: { subject: string; body: string; updatedAt: string }) {
  const wording = row ?? DEFAULT_WORDING[template];
  return {
    template,
    subject: wording.subject,
    body: wording.body,
    customized: row !== undefined,
    placeholders: [...PLACEHOLDERS[template], LINK_PLACEHOLDER],
    link_label: LINK_LABELS[template],
    updated_at: row ? isoTimestamp(row.updatedAt) : null,
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
        rows.find((r) => r.template === t),
      ),
    ),
  };
}

/** GET …/email_templates/{template} → `{email_template}`; unknown name → 404. */
export async function getTemplate(ctx: EventCtx, name: string) {
  const template = templateName(name);
  return { email_template: view(template, await stored(ctx, template)) };
}

function checked(template: EditableTemplate, input: Wording): Wording {
  const wording = { subject: input.subject.trim(), body: input.body.replace(/\r\n?/g, '\n').trim() };
  const problem = wordingProblem(template, wording);
  if (problem) throw unprocessable(problem);
  return wording;
}

/** PUT …/email_templates/{template} `{subject, body}` → `{email_template}`; 422 naming the problem. */
export async function putTemplate(ctx: EventCtx, name: string, input: Wording) {
  const template = templateName(name);
  const wording = checked(template, input);
  const p = ctx.access.principal;
  const userId = actorUserIdOf(p);
  const eventId = ctx.access.event.id;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(emailTemplates)
      .values({ eventId, template, ...wording, updatedByUserId: userId })
      .onConflictDoUpdate({
        target: [emailTemplates.eventId, emailTemplates.template],
        set: { ...wording, updatedByUserId: userId, updatedAt: sql`now()` },
      })
      .returning();
    await recordAudit(tx, {
      action: 'email_templates.update',
      principal: p,
      eventId,
      seriesId: ctx.access.event.seriesId,
      targetType: 'email_template',
      targetId: row!.id,
      metadata: { template },
    });
    return { email_template: view(template, row) };
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
    if (deleted.length === 0) return;
    await recordAudit(tx, {
      action: 'email_templates.reset',
      principal: ctx.access.principal,
      eventId,
      seriesId: ctx.access.event.seriesId,
      targetType: 'email_template',
      targetId: deleted[0]!.id,
      metadata: { template },
    });
  });
  return { email_template: view(template) };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * POST …/{template}/preview `{subject?, body?}` → `{preview: {subject, text, html}}`: the email as
 * it would be sent now, with the event's real name, logo, support address and dates, an example
 * recipient and an example link. Without a draft the saved (or default) wording is shown; a draft
 * must give both fields and is checked like PUT (422).
 */
export async function previewTemplate(ctx: EventCtx, name: string, draft: Partial<Wording>) {
  const template = templateName(name);
  let wording: Wording | null;
  if (draft.subject !== undefined || draft.body !== undefined) {
    if (draft.subject === undefined || draft.body === undefined)
      throw unprocessable('A draft needs both subject and body');
    wording = checked(template, { subject: draft.subject, body: draft.body });
  } else {
    const row = await stored(ctx, template);
    wording = row ? { subject: row.subject, body: row.body } : null;
  }
  return { preview: renderPreview(ctx, template, wording) };
}

function renderPreview(ctx: EventCtx, template: EditableTemplate, wording: Wording | null): Rendered {
  const e = ctx.access.event;
  const base = ctx.config.baseUrl.replace(/\/$/, '');
  const event: EventBrand = {
    name: e.name,
    logo_url: absoluteLogoUrl(base, e.logoUrl),
    support_email: e.supportEmail,
    timezone: e.timezone,
  };
  const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();
  const common = { event, wording };
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
