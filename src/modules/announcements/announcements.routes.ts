/** Email announcement routes (docs/organiser-api.md "Announcements"). */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import {
  AnnouncementBody,
  AnnouncementDetailBody,
  AnnouncementList,
  ComposeRequest,
  DetailQuery,
  ListQuery,
  PreviewBody,
} from './announcements.schemas.js';
import * as service from './announcements.service.js';

const tags = ['announcements'];
const action = 'announcements.manage' as const;
const EventParams = Type.Object({ event_id: EventIdParam });
const OneParams = Type.Object({
  event_id: EventIdParam,
  id: Type.String({ minLength: 1, maxLength: 40, description: 'Announcement id (integer)' }),
});
const WHO =
  'Event admins, series owners/organizers of the event’s series and global admins; other event roles 403, API keys 403. `{event_id}`: numeric id or event UUID.';
const COMPOSE =
  '`subject` (one line, 1..200 characters) and `body` (1..20000, plain text; blank lines separate paragraphs) are trimmed; blank → 422 `Subject cannot be blank` / `Message cannot be blank`. Placeholders filled per recipient, in the subject and in the body alike (one renderer): `{{name}}` (a participant’s preferred or first name, a guardian’s or staff member’s name; `there` when unknown), `{{participant_names}}` (a guardian’s children: “Max and Ada”), `{{event_name}}`; any other → 422 `Subject: unknown placeholder {{x}}; use …` / `Message: unknown placeholder …`. `audience`: `participants`, `guardians_primary` or `guardians_all` (guardians of registrations of minors: under 18 on the event’s first day), `staff` (users with a role on this event); `statuses` narrows participants and minors (default: every status but withdrawn and rejected). One email per distinct address: a guardian of two children gets one. Languages (docs/languages.md): each recipient gets the email in their language (a participant’s or team member’s account language, a guardian’s own, not the child’s; one the event does not offer → its default language): the frame in that language, and `translations.<code>` when given, else the default-language subject and message under a note saying so in their language. A `translations` key that is not an offered language, or is the default one → 422 `translations.<code>: …`; a translation is checked like the default text (422 prefixed `translations.<code>: `). Nobody with an address → 422 `Nobody in this audience has an email address`.';
const EMAIL =
  'The email: subject `<event name>: <subject>`, the organiser’s text, then who it is for and where to ask (reply-to: the event’s support address); HTML and text parts.';

export function announcementRoutes(app: Api, deps: Deps): void {
  app.post(
    '/events/:event_id/announcements/preview',
    {
      config: { action },
      schema: {
        tags,
        summary: 'Preview an announcement with its first recipient’s values',
        description: `Same body as creating one (\`send_at\` ignored); nothing is stored or sent. 200 \`{preview: {recipient_count, recipient, subject, text, html}}\`. ${COMPOSE} ${EMAIL} ${WHO}`,
        params: EventParams,
        body: ComposeRequest,
        response: { 200: PreviewBody, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request) => service.previewAnnouncement(routeCtx(deps, request), request.body),
  );

  app.post(
    '/events/:event_id/announcements',
    {
      config: { action },
      schema: {
        tags,
        summary: 'Send or schedule an email announcement',
        description: `Without \`send_at\`: status \`sending\`; the job worker resolves the audience and queues one email per address at once (then \`sent\`, with \`recipient_count\`). With \`send_at\` (future, at most a year ahead; else 422): status \`scheduled\`, the same happens at that time. The job is enqueued in the request's transaction. Audited \`announcements.create\`. 201 \`{announcement}\`. ${COMPOSE} ${EMAIL} ${WHO}`,
        params: EventParams,
        body: ComposeRequest,
        response: { 201: AnnouncementBody, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = await service.createAnnouncement(routeCtx(deps, request), request.body);
      return reply.status(201).send(body);
    },
  );

  app.get(
    '/events/:event_id/announcements',
    {
      config: { action },
      schema: {
        tags,
        summary: 'Announcements of an event',
        description: `Newest first; \`limit\` 1..200 (default 50), \`offset\`. \`delivery\` counts recipients per email state. ${WHO}`,
        params: EventParams,
        querystring: ListQuery,
        response: { 200: AnnouncementList, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => service.listAnnouncements(routeCtx(deps, request), request.query),
  );

  app.get(
    '/events/:event_id/announcements/:id',
    {
      config: { action },
      schema: {
        tags,
        summary: 'One announcement with the delivery state of each recipient',
        description: `Recipients by id, \`limit\` (1..5000, default 1000) after the \`after\` cursor (\`next_after\`). A recipient’s \`status\` is its email’s: \`queued\`, \`sent\`, \`delivered\`/\`opened\`/\`bounced\` (the email provider’s webhook), \`failed\` (retries exhausted), \`suppressed\` (address flagged after a hard bounce or complaint: not sent). 404 \`Announcement not found\` (also another event’s). ${WHO}`,
        params: OneParams,
        querystring: DetailQuery,
        response: { 200: AnnouncementDetailBody, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => service.getAnnouncement(routeCtx(deps, request), request.params.id, request.query),
  );

  app.post(
    '/events/:event_id/announcements/:id/cancel',
    {
      config: { action },
      schema: {
        tags,
        summary: 'Cancel a scheduled announcement',
        description: `Only a \`scheduled\` one (409 \`Only a scheduled announcement can be cancelled\`); its job then does nothing. Audited \`announcements.cancel\`. 200 \`{announcement}\`. ${WHO}`,
        params: OneParams,
        response: { 200: AnnouncementBody, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => service.cancelAnnouncement(routeCtx(deps, request), request.params.id),
  );
}
