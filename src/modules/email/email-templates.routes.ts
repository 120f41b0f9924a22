/** Editable email wording per event (docs/email.md "Editable wording"). */
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import {
  EmailTemplateBody,
  EmailTemplateList,
  EventParams,
  PreviewBody,
  PreviewRequest,
  TemplateParams,
  WordingRequest,
} from './email-templates.schemas.js';
import * as service from './email-templates.service.js';

const tags = ['email templates'];
const config = { action: 'email_templates.manage' } as const;
const WHO =
  'Event admins of the event, series owners and organizers of its series, and global admins; other event roles get 403, API keys 403. `{event_id}`: numeric id or event UUID.';
const RULES =
  'Organisers edit the wording only: Muster fills in the facts through placeholders (`{{event_name}}`, dates written out in the event’s time zone…) and always adds the link (`{{link}}` alone in a paragraph marks where its button goes; without it the button follows the body). 422 for a blank subject or body, a subject over 200 characters or on several lines, a body over 5000 characters, `{{link}}` in the subject, or a placeholder the email does not know (the message names it and lists the known ones).';
const NOT_FOUND = `Unknown template name → 404 \`${service.TEMPLATE_NOT_FOUND}\`.`;

export function emailTemplateRoutes(app: Api, deps: Deps): void {
  app.get(
    '/events/:event_id/email_templates',
    {
      config,
      schema: {
        tags,
        summary: 'The editable emails of an event and their wording',
        description: `Every editable email (\`invitation\`, \`guardian_invitation\`, \`registration_reminder\`) with the event’s wording, or Muster’s default (\`customized\` false). ${WHO}`,
        params: EventParams,
        response: { 200: EmailTemplateList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.listTemplates(routeCtx(deps, request)),
  );

  app.get(
    '/events/:event_id/email_templates/:template',
    {
      config,
      schema: {
        tags,
        summary: 'One editable email’s wording',
        description: `${NOT_FOUND} ${WHO}`,
        params: TemplateParams,
        response: { 200: EmailTemplateBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.getTemplate(routeCtx(deps, request), request.params.template),
  );

  app.put(
    '/events/:event_id/email_templates/:template',
    {
      config,
      schema: {
        tags,
        summary: 'Reword an email for this event',
        description: `Saves \`{subject, body}\` (trimmed) as the event’s wording, in its default language, and \`translations\` (\`{es: {subject, body}}\`, same rules) in other offered languages; emails queued from now on use it: each recipient (a guardian in their own language, not the child’s) gets their language’s wording, else the default-language wording with a note in their language. Without \`translations\` the stored ones are kept if the wording is unchanged, else dropped; \`{}\` removes them. ${RULES} A translation key that is not an offered language, or is the default one → 422 \`translations.<code>: …\`. ${NOT_FOUND} Audited \`email_templates.update\`. ${WHO}`,
        params: TemplateParams,
        body: WordingRequest,
        response: { 200: EmailTemplateBody, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => service.putTemplate(routeCtx(deps, request), request.params.template, request.body),
  );

  app.delete(
    '/events/:event_id/email_templates/:template',
    {
      config,
      schema: {
        tags,
        summary: 'Go back to Muster’s default wording',
        description: `Idempotent; answers the default wording. Audited \`email_templates.reset\` when a wording was removed. ${NOT_FOUND} ${WHO}`,
        params: TemplateParams,
        response: { 200: EmailTemplateBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.resetTemplate(routeCtx(deps, request), request.params.template),
  );

  app.post(
    '/events/:event_id/email_templates/:template/preview',
    {
      config,
      schema: {
        tags,
        summary: 'Preview an email as it would be sent',
        description: `Renders the email with the event’s real name, logo, support address and dates, an example recipient and an example link: the draft \`{subject, body}\` when given (both needed; checked like PUT, 422), else (body \`{}\`) the saved or default wording; \`language\` (an offered one, else 422) previews it as a reader of that language gets it (the translation, or the default wording with the note). Nothing is saved or sent. ${NOT_FOUND} ${WHO}`,
        params: TemplateParams,
        body: PreviewRequest,
        response: { 200: PreviewBody, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      service.previewTemplate(routeCtx(deps, request), request.params.template, request.body ?? {}),
  );
}
