/** Staff notes routes (docs/decisions.md "Notes"). */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { type RoutedRequest, routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { CreateNoteRequest, NoteBody, NoteList } from './notes.schemas.js';
import * as service from './notes.service.js';

const tags = ['notes'];
const Params = Type.Object({
  event_id: EventIdParam,
  participant_event_id: Type.String({ pattern: '^[0-9]{1,9}$', description: 'participant_event_id' }),
});
const WHO =
  'Users with participants access: global admins, series owners/organizers of the event’s series, and event roles other than `read_only` (a `read_only`-only user gets 403). API keys get 403. `{event_id}`: numeric id, UUID or slug. A `{participant_event_id}` that is not a registration of this event → 404 `Participant not found for this event` (checked before the body).';
const RESTRICTED =
  '`restricted` notes are listed only for global admins and the event’s safeguarding leads; everyone else gets the `normal` ones.';
const url = '/events/:event_id/participants/:participant_event_id/notes';
const rawId = (request: { params: { participant_event_id: string } }) => request.params.participant_event_id;

export function notesRoutes(app: Api, deps: Deps): void {
  // 404 (unknown registration) comes before 422 (invalid body) in the contract's check order, so
  // the registration is looked up before body validation runs.
  const registrationFirst = async (
    request: RoutedRequest<'notes.read' | 'notes.write'> & { params: { participant_event_id: string } },
  ) => {
    await service.registrationInEvent(routeCtx(deps, request), rawId(request));
  };

  app.get(
    url,
    {
      config: { action: 'notes.read' },
      preValidation: registrationFirst,
      schema: {
        tags,
        summary: 'Staff notes on a registration',
        description: `Newest first (\`created_at\`, then id). ${RESTRICTED} ${WHO}`,
        params: Params,
        response: { 200: NoteList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.listNotes(routeCtx(deps, request), rawId(request)),
  );

  app.post(
    url,
    {
      config: { action: 'notes.write' },
      preValidation: registrationFirst,
      schema: {
        tags,
        summary: 'Add a staff note to a registration',
        description: `\`content\` is trimmed and must have 1..10,000 characters (blank → 422 \`Note content cannot be blank\`); \`note_type\` \`ops\` (default) | \`safeguarding\` | \`logistical\`; \`sensitivity\` \`normal\` (default) | \`restricted\`; other values or unknown fields → 422. The author is the calling user. Audited as \`notes.create\` (type and sensitivity, never the content); bumps the registration’s \`updated_at\`. 201 \`{note}\` — the author gets the note back even when it is restricted. ${RESTRICTED} ${WHO}`,
        params: Params,
        body: CreateNoteRequest,
        response: { 201: NoteBody, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = await service.createNote(routeCtx(deps, request), rawId(request), request.body);
      return reply.status(201).send(body);
    },
  );
}
