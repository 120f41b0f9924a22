import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { routeCtx } from '../../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../../http/schema-helpers.js';
import type { Api } from '../../../http/typed.js';
import { PathIdParam } from '../../../lib/identifiers.js';
import { StaffStatusBody, WithdrawRequest } from './registration.schemas.js';
import { applyStaffAction, registrationOfEvent, type StaffAction } from './staff.service.js';

const Params = Type.Object({
  event_id: EventIdParam,
  participant_event_id: PathIdParam('participant_event_id'),
});
const rawId = (request: { params: { participant_event_id: string } }) => request.params.participant_event_id;

const SUMMARY: Record<StaffAction, string> = {
  withdraw: 'Withdraw a registration (staff)',
  reinstate: 'Reinstate a withdrawn or rejected registration to in_progress',
  reject: 'Reject a registration',
};
const MOVES: Record<StaffAction, string> = {
  withdraw: 'Any status but `withdrawn`/`rejected` → `withdrawn`.',
  reinstate:
    '`withdrawn` or `rejected` → `in_progress` (422 `Only a withdrawn or rejected registration can be reinstated`); the participant submits again.',
  reject: 'Any status but `rejected` → `rejected` (terminal unless reinstated).',
};

export function staffRoutes(app: Api, deps: Deps): void {
  for (const action of ['withdraw', 'reinstate', 'reject'] as const) {
    app.post(
      `/events/:event_id/participants/:participant_event_id/${action}`,
      {
        config: { action: 'registrations.manage' },
        // 404 (unknown registration) precedes 422 (invalid body) in the contract's check order.
        // The body is optional: an absent one validates as `{}`.
        preValidation: async (request) => {
          await registrationOfEvent(routeCtx(deps, request), rawId(request));
          request.body ??= {};
        },
        schema: {
          tags: ['participants'],
          summary: SUMMARY[action],
          description: `${MOVES[action]} Optional \`{reason}\` (≤ 1,000 characters), kept in the audit entry. Event admins of the event, series owners/organizers of its series and global admins; other users and API keys 403. \`{event_id}\`: numeric id or UUID. A registration of another event → 404 \`Participant not found for this event\`. A refused move → 422. 200 \`{success, participant_event_id, status, updated_at}\`.`,
          params: Params,
          body: WithdrawRequest,
          response: { 200: StaffStatusBody, ...errorResponses(400, 401, 403, 404, 413, 422) },
        },
      },
      async (request) => {
        const body = request.body ?? {};
        return applyStaffAction(routeCtx(deps, request), rawId(request), action, body.reason);
      },
    );
  }
}
