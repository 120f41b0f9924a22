/** The participant's own record: `GET|PATCH /registrations/{participant_event_id}` (docs/decisions.md "Registration side"). */

import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { routeCtx } from '../../../http/authorize.js';
import { errorResponses, ProblemsErrorBody } from '../../../http/schema-helpers.js';
import { type Api, sendJsonText } from '../../../http/typed.js';
import { DetailBody } from '../../participants/participants.schemas.js';
import { RecordPatch } from '../../participants/record/sections.schemas.js';
import * as service from './record.service.js';

const tags = ['registration'];
const Params = Type.Object({
  participant_event_id: Type.String({ pattern: '^[0-9]{1,9}$', description: 'participant_event_id' }),
});
const WHO =
  'The signed-in participant (mobile token; other credentials 403), for a registration whose person is linked to them; API keys get 403. Unknown or malformed id → 404 `Registration not found`; someone else’s registration → 403 `This is not your registration` (check order: 404 before 403, docs/decisions.md "Status codes and check order"). The response is `{participant: ParticipantDetail}` with every section, sensitive ones included.';
const url = '/registrations/:participant_event_id';

export function recordRoutes(app: Api, deps: Deps): void {
  app.get(
    url,
    {
      config: { action: 'registrations.own' },
      schema: {
        tags,
        summary: 'My registration record',
        description: WHO,
        params: Params,
        response: { 200: DetailBody, ...errorResponses(401, 403, 404) },
      },
      // Path ids are resolved by the gate (404 with the module's message, not the generic one).
      attachValidation: true,
    },
    async (request, reply) => sendJsonText(reply, await service.getOwnRecord(routeCtx(deps, request))),
  );

  app.patch(
    url,
    {
      config: { action: 'registrations.own' },
      schema: {
        tags,
        summary: 'Edit my registration record, section by section',
        description: `Any subset of: \`personal\`, \`accommodation\`, \`medical_detail\`, \`dietary_detail\`, \`accessibility\`, \`safeguarding_detail\`, \`travel_inbound\`, \`travel_outbound\` (with \`legs\`), \`emergency_contacts\`, \`guardians\` (name, email, phone, relationship, is_primary), plus the top-level participant fields \`phone\`, \`pronouns\`, \`allergies\`, \`medical_conditions\`, \`medications\`, \`life_threatening_allergies\`, \`has_anaphylaxis_risk\`, \`requires_refrigeration\`, \`diet_type\`, \`cross_contamination_risk\`. Within a section, an absent key keeps the stored value and \`null\` clears it; \`accessibility\`, \`personal.address\`, \`emergency_contacts\`, \`guardians\` and \`legs\` replace the stored value as a whole. Staff-owned fields (e.g. \`accommodation.assigned_room\`, guardian permissions, consents, status) are unknown fields. Every invalid or unknown field → 422 naming it (dates YYYY-MM-DD, date of birth not in the future, check-out not before check-in, times ISO 8601, enums \`tshirt_size\` and travel \`mode\`, phones in international format, IATA airport codes and flight numbers, at most one primary guardian). A \`withdrawn\` or \`rejected\` registration → 409. Bumps \`updated_at\`; audited \`registrations.record.update\` (section names only). While the registration is \`awaiting_guardian\`, guardians not yet invited at their current address (added after the submission, or with a changed email) are emailed their 7-day portal link at once; guardians already invited are not emailed again. Names, date of birth, address, phone and pronouns belong to the person and so change on all their registrations. ${WHO}`,
        params: Params,
        body: RecordPatch,
        response: {
          200: DetailBody,
          ...errorResponses(400, 401, 403, 404, 409, 413),
          422: ProblemsErrorBody,
        },
      },
      // 404/403 on the registration come before 422 on the body (docs/decisions.md "Status codes and check order"): the service
      // validates the body itself after the ownership check.
      attachValidation: true,
    },
    async (request, reply) =>
      sendJsonText(reply, await service.patchOwnRecord(routeCtx(deps, request), request.body)),
  );
}
