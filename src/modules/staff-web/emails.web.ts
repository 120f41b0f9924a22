/**
 * The event's email wording pages (docs/email.md): the reminder switch and the wording of
 * the editable emails, with a preview. Event admins, series roles and global admins
 * (`email_templates.manage`, like GET|PUT /api/v1/events/{e}/email_templates/{template}).
 * The Emails tab itself lists what went out (emails-sent.web.ts); this is its "Wording" sub-page.
 * - GET  /staff/events/{e}/emails/wording: the switch and the list of editable emails.
 * - POST /staff/events/{e}/emails/reminders: the switch (`enabled` checkbox) → 303 to the list.
 * - GET  /staff/events/{e}/emails/{template}: subject and body, the placeholders, a preview.
 * - POST /staff/events/{e}/emails/{template}: `intent=preview` shows the draft's preview (nothing
 *   saved), `intent=save` saves → 303; a problem re-renders the form with it (422). The wording
 *   in each other offered language: `tr_<code>_subject|body` (blank = none, translation-fields.ts).
 * - POST /staff/events/{e}/emails/{template}/reset: back to Muster's wording → 303.
 */

import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { type RoutedRequest, routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { setRemindersEnabled } from '../email/email-settings.service.js';
import type { WordingInput } from '../email/email-templates.service.js';
import * as templates from '../email/email-templates.service.js';
import { CsrfForm, FormBody, pageResponses } from '../web/web.schemas.js';
import { emailTabs } from './emails-sent.web.js';
import { EventParams } from './home.web.js';
import { eventNav } from './nav.js';
import { titleOf } from './org-pages.js';
import { formLanguages, translationsFromForm } from './translation-fields.js';

const ACTION = 'email_templates.manage';
const config = { action: ACTION, credential: 'session_cookie' } as const;
const TemplateParams = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }), template: Type.String({ maxLength: 60 }) },
  { additionalProperties: false },
);
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) });

export const TEMPLATE_TITLES: Record<string, string> = {
  invitation: staffText('emails.invitation_to_register'),
  guardian_invitation: staffText('emails.parent_or_guardian_invitation'),
  registration_reminder: staffText('emails.reminder_before_registration_closes'),
};
const NOTICES: Record<string, string> = {
  saved: staffText('emails.saved_emails_sent_from_now_on'),
  reset: staffText('emails.this_email_uses_muster_s_wording'),
  reminders: staffText('emails.reminder_setting_saved'),
};

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

export function emailPages(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/emails/wording',
    { config, schema: { hide: true, params: EventParams, querystring: DoneQuery, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { email_templates } = await templates.listTemplates(ctx);
      return reply.page(200, 'staff/emails', {
        title: titleOf(staffText('nav.emails'), ctx.access.event.name),
        event: ctx.access.event,
        nav: eventNav(ctx.access, ctx.access.event.id, '/emails'),
        tabs: emailTabs(ctx.access, ctx.access.event.id, '/emails/wording'),
        templates: email_templates.map((t) => ({ ...t, title: TEMPLATE_TITLES[t.template] })),
        remindersEnabled: ctx.access.event.emailRemindersEnabled,
        notice: NOTICES[request.query.done ?? ''],
      });
    },
  );

  web.post(
    '/staff/events/:event_id/emails/reminders',
    { config, schema: { hide: true, params: EventParams, body: FormBody, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      await setRemindersEnabled(ctx, one(request.body.enabled) === 'true');
      return reply.redirect(`/staff/events/${ctx.access.event.id}/emails/wording?done=reminders`, 303);
    },
  );

  const renderEditor = async (
    request: RoutedRequest<typeof ACTION>,
    reply: FastifyReply,
    template: string,
    status: number,
    extra: { draft?: WordingInput; preview?: unknown; errors?: unknown[]; notice?: string },
  ) => {
    const ctx = routeCtx(deps, request);
    const { email_template } = await templates.getTemplate(ctx, template);
    const preview = extra.preview ?? (await templates.previewTemplate(ctx, template, {})).preview;
    return reply.page(status, 'staff/email-template', {
      title: titleOf(TEMPLATE_TITLES[template] ?? template, ctx.access.event.name),
      event: ctx.access.event,
      nav: eventNav(ctx.access, ctx.access.event.id, '/emails'),
      template: { ...email_template, title: TEMPLATE_TITLES[template] },
      values: extra.draft ?? {
        subject: email_template.subject,
        body: email_template.body,
        translations: email_template.translations,
      },
      languages: formLanguages(ctx.access.event),
      preview,
      errors: extra.errors ?? [],
      notice: extra.notice,
    });
  };

  web.get(
    '/staff/events/:event_id/emails/:template',
    {
      config,
      schema: { hide: true, params: TemplateParams, querystring: DoneQuery, response: pageResponses },
    },
    async (request, reply) =>
      renderEditor(request, reply, request.params.template, 200, {
        notice: NOTICES[request.query.done ?? ''],
      }),
  );

  web.post(
    '/staff/events/:event_id/emails/:template',
    { config, schema: { hide: true, params: TemplateParams, body: FormBody, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { template } = request.params;
      const { others } = formLanguages(ctx.access.event);
      const draft = {
        subject: one(request.body.subject),
        body: one(request.body.body),
        translations: translationsFromForm(request.body, others, ['subject', 'body'] as const),
      };
      try {
        if (one(request.body.intent) === 'save') {
          await templates.putTemplate(ctx, template, draft);
          return reply.redirect(`/staff/events/${ctx.access.event.id}/emails/${template}?done=saved`, 303);
        }
        const { preview } = await templates.previewTemplate(ctx, template, draft);
        return renderEditor(request, reply, template, 200, { draft, preview });
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
        const lang = typeof error.extra.language === 'string' ? `${error.extra.language}-` : '';
        const message = error.message.replace(/^translations\.[a-z-]+: /, '');
        const field = `${lang}${/^(The )?subject/i.test(message) ? 'subject' : 'body'}`;
        return renderEditor(request, reply, template, 422, {
          draft,
          errors: [{ field, message: error.message }],
        });
      }
    },
  );

  web.post(
    '/staff/events/:event_id/emails/:template/reset',
    { config, schema: { hide: true, params: TemplateParams, body: CsrfForm, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      await templates.resetTemplate(ctx, request.params.template);
      return reply.redirect(
        `/staff/events/${ctx.access.event.id}/emails/${request.params.template}?done=reset`,
        303,
      );
    },
  );
}
