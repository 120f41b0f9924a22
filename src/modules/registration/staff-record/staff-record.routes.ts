/** `PATCH /events/{event_id}/participants/{participant_event_id}`: staff edits (docs/decisions.md "Staff status changes and edits"). */
import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { routeCtx } from '../../../http/authorize.js';
import { EventIdParam, errorResponses, ProblemsErrorBody } from '../../../http/schema-helpers.js';
import { type Api, sendJsonText } from '../../../http/typed.js';
import { PathIdParam } from '../../../lib/identifiers.js';
import { DetailBody } from '../../participants/participants.schemas.js';
import { RecordPatch } from '../../participants/record/sections.schemas.js';
import { patchParticipant } from './staff-record.service.js';

const DESCRIPTION = `Staff edit of a participant's record (docs/decisions.md "Staff status changes and edits"). The body is the participant's own PATCH body (\`PATCH /registrations/{participant_event_id}\`, docs/decisions.md "Staff status changes and edits"): any subset of \`personal\`, \`accommodation\`, \`medical_detail\`, \`dietary_detail\`, \`accessibility\`, \`safeguarding_detail\`, \`travel_inbound\`, \`travel_outbound\` (with \`legs\`), \`emergency_contacts\`, \`guardians\` and the top-level fields \`phone\`, \`pronouns\`, \`allergies\`, \`medical_conditions\`, \`medications\`, \`life_threatening_allergies\`, \`has_anaphylaxis_risk\`, \`requires_refrigeration\`, \`diet_type\`, \`cross_contamination_risk\`; the same validation (422 \`{error, problems}\` naming each bad field) and the same merge rules (absent key keeps, \`null\` clears; \`accessibility\`, \`personal.address\`, lists replace as a whole).

Who may write what follows who may read it (docs/decisions.md "Credentials and roles"): users with participants access (global admins, series owners/organizers, event roles other than \`read_only\`); \`read_only\` and API keys 403. Sensitive parts — \`medical_detail\`, \`dietary_detail\`, \`accessibility\`, \`safeguarding_detail\`, \`emergency_contacts\`, \`allergies\`, \`medical_conditions\`, \`medications\`, \`life_threatening_allergies\`, \`diet_type\` and the flags \`has_anaphylaxis_risk\`, \`requires_refrigeration\`, \`cross_contamination_risk\` — only global admins and the event's safeguarding leads. PII — \`phone\`, \`personal.date_of_birth\`, \`personal.address\`, \`travel_*.origin_address\` and \`guardians\` (each carries an email) — not \`limited\`. A body naming any part the caller may not write → 403 \`You may not edit: <paths>\` and nothing is written.

Order: 401 → 403 credential kind → 404 event → 403 reach → 404 \`Participant not found for this event\` → 403 fields → 422 body → 409 \`This registration is withdrawn|rejected and can no longer be edited\` (reinstate first). \`{event_id}\`: numeric id, UUID or slug. 200 \`{participant}\` (ParticipantDetail in the caller's visibility, like GET). Bumps \`updated_at\` (the change appears in \`GET /events/{e}/participants?updated_since=\`); re-runs the completion check (e.g. a new date of birth can make a minor); guardians added while \`awaiting_guardian\` are emailed their portal link. Audited \`registrations.record.update\` with metadata \`{sections, fields, by: "staff_edit"}\`: the section names and field paths changed, never old or new values.`;

export function staffRecordRoutes(app: Api, deps: Deps): void {
  app.patch(
    '/events/:event_id/participants/:participant_event_id',
    {
      config: { action: 'participants.edit' },
      schema: {
        tags: ['participants'],
        summary: 'Edit a participant’s record (staff)',
        description: DESCRIPTION,
        params: Type.Object({
          event_id: EventIdParam,
          participant_event_id: PathIdParam('participant_event_id'),
        }),
        body: RecordPatch,
        response: {
          200: DetailBody,
          ...errorResponses(400, 401, 403, 404, 409, 413),
          422: ProblemsErrorBody,
        },
      },
      // 404 (registration) and 403 (fields) come before 422 (body) in the check order
      // (docs/decisions.md "Status codes and check order"): the service validates the body itself.
      attachValidation: true,
    },
    async (request, reply) =>
      sendJsonText(
        reply,
        await patchParticipant(routeCtx(deps, request), request.params.participant_event_id, request.body),
      ),
  );
}
