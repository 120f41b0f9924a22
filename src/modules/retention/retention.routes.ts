/** Retention policy routes (docs/privacy.md "Retention and shredding"; actions `retention.*`). */
import { Type } from 'typebox';
import { type RetentionCategory, retentionCategories } from '../../db/schema/retention.js';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { downloadPolicy, getPolicy, previewPolicy, putPolicy } from './policy.service.js';

const tags = ['retention'];
const Params = Type.Object({ event_id: EventIdParam });
const WHO =
  'Global admins, series owners/organizers of the event’s series and the event’s admins; other users 403; API keys 403. `{event_id}`: numeric id or UUID.';
const Category = Type.Unsafe<RetentionCategory>({
  type: 'string',
  enum: [...retentionCategories],
  description:
    '`sensitive` (medical, dietary, accessibility, safeguarding, accommodation sections, rooming overrides), `pii` (contact details of people registered only at this event, guardians’ and emergency contacts, invitation names, announcement recipients, consent signatures, engagement notes, badge tokens, the event’s email log addresses), `travel` (journeys and legs), `notes` (staff notes), `scans` (who collected whom, the live feed; scans themselves stay), `uploads` (signed consent document links, photos)',
});
const Policy = Type.Object({
  categories: Type.Array(Category),
  days_after_end: Type.Integer(),
  due_at: Type.Union([Type.String(), Type.Null()]),
  due_on: Type.Union([Type.String(), Type.Null()]),
  applied_at: Type.Union([Type.String(), Type.Null()]),
});
const PolicyBody = Type.Object({ policy: Type.Union([Policy, Type.Null()]) });
const PutBody = Type.Object(
  {
    categories: Type.Array(Category, {
      maxItems: 6,
      uniqueItems: true,
      description: 'What to shred (each at most once); `[]` keeps everything',
    }),
    days_after_end: Type.Integer({ minimum: 0, maximum: 3650, description: 'Days after the event ends' }),
  },
  { additionalProperties: false },
);
const Preview = Type.Object({
  policy: Type.Union([Policy, Type.Null()]),
  registrations: Type.Integer({ description: 'Registrations of the event' }),
  tables: Type.Record(Type.String(), Type.Integer(), {
    description: 'Rows removed or overwritten, per table',
  }),
  message: Type.String({ description: 'The preview in one sentence' }),
});
const Download = Type.Object({
  event_id: Type.Integer(),
  policy: Type.Union([Policy, Type.Null()]),
  omitted_categories: Type.Array(Category, { description: 'Categories the caller may not see, left out' }),
  tables: Type.Record(Type.String(), Type.Array(Type.Unknown())),
});

export function retentionRoutes(app: Api, deps: Deps): void {
  const url = '/events/:event_id/retention';
  app.get(
    url,
    {
      config: { action: 'retention.read' },
      schema: {
        tags,
        summary: 'The event’s retention policy',
        description: `\`{policy}\` (null when none). \`due_at\`: the event’s end (or start, without an end) plus \`days_after_end\`. ${WHO}`,
        params: Params,
        response: { 200: PolicyBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => getPolicy(routeCtx(deps, request)),
  );
  app.put(
    url,
    {
      config: { action: 'retention.write' },
      schema: {
        tags,
        summary: 'Set the event’s retention policy',
        description: `Replaces the policy. The daily \`retention-prune\` job (03:17 UTC) shreds the chosen data once \`due_at\` has passed, in one transaction per event; registrations, statuses, scans, consent statuses and audit entries stay, so counts and check-in statistics do not change. Audited as \`retention.policy_set\`; each shredding as \`retention.shredded\` (counts only). ${WHO}`,
        params: Params,
        body: PutBody,
        response: { 200: PolicyBody, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => putPolicy(routeCtx(deps, request), request.body),
  );
  app.get(
    `${url}/preview`,
    {
      config: { action: 'retention.read' },
      schema: {
        tags,
        summary: 'What the policy will remove, in counts',
        description: `Rows per table the policy removes or overwrites if it ran now, and a sentence (“412 registrations will lose their medical, … data on 2027-01-15.”). ${WHO}`,
        params: Params,
        response: { 200: Preview, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => previewPolicy(routeCtx(deps, request)),
  );
  app.get(
    `${url}/download`,
    {
      config: { action: 'retention.read' },
      schema: {
        tags,
        summary: 'Download what the policy will remove',
        description: `The rows themselves, per table (JSON, \`Content-Disposition: attachment\`, \`Cache-Control: no-store\`), for the organiser’s records. Categories the caller may not see are left out and named in \`omitted_categories\`: \`sensitive\` needs a global admin or the event’s safeguarding lead. ${WHO}`,
        params: Params,
        response: { 200: Download, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const body = await downloadPolicy(routeCtx(deps, request));
      reply
        .header('Content-Disposition', `attachment; filename="retention-${body.event_id}.json"`)
        .header('Cache-Control', 'no-store');
      return body;
    },
  );
}
