/**
 * What to do with the participants ticked in the table (docs/staff-dashboard.md "Participants
 * table", "Selection"). The table's selection form posts the ticked `registration_ids` (and the
 * CSRF field) to one of:
 * - POST /staff/events/{e}/participants/selection/invitations (`participants.invite`): each ticked
 *   registration that has not started (status `invited`) gets its invitation again, through the
 *   same service as the participant page's button (`inviteRegistrant`); the others are left alone
 *   and counted. A page says how many were sent and skipped.
 * - POST /staff/events/{e}/participants/selection/export (`exports.read`): 303 to the Exports page
 *   with the selection as its `ids` filter, so every download there holds only those people.
 * - "Add to group" posts to the Groups page's own POST …/groups/assign (`groups.manage`).
 * Nothing ticked, or more than 500: a 422 page saying so; no change.
 */
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError, unprocessable } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { MAX_SELECTED } from '../exports/filters.js';
import { inviteRegistrant } from '../registration/invitations/registrant-invite.service.js';
import { FormBody, pageResponses } from '../web/web.schemas.js';
import { EventParams } from './home.web.js';
import { eventFrame, fields } from './org-pages.js';

/** The ticked registration ids: digits only, de-duplicated; 422 when none or too many. */
export function selectedIds(body: FormBody): string[] {
  const ids = [...new Set(fields(body, 'registration_ids').filter((x) => /^[0-9]{1,9}$/.test(x)))];
  if (ids.length === 0) throw unprocessable(staffText('selection.tick_at_least_one_participant'));
  if (ids.length > MAX_SELECTED)
    throw unprocessable(staffText('selection.tick_at_most_participants', { max: MAX_SELECTED }));
  return ids;
}

const page = { hide: true, params: EventParams, body: FormBody, response: pageResponses } as const;

export function selectionPages(web: Api, deps: Deps): void {
  web.post(
    '/staff/events/:event_id/participants/selection/export',
    { config: { action: 'exports.read', credential: 'session_cookie' }, schema: page },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const ids = selectedIds(request.body);
      return reply.redirect(`/staff/events/${ctx.access.event.id}/exports?ids=${ids.join(',')}`, 303);
    },
  );

  web.post(
    '/staff/events/:event_id/participants/selection/invitations',
    { config: { action: 'participants.invite', credential: 'session_cookie' }, schema: page },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const ids = selectedIds(request.body);
      let sent = 0;
      let skipped = 0;
      for (const id of ids) {
        try {
          await inviteRegistrant(ctx, id);
          sent++;
        } catch (error) {
          // Started already (409), not of this event (404), no email (422): left alone, counted.
          if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
          skipped++;
        }
      }
      return reply.page(200, 'staff/selection-done', {
        ...eventFrame(ctx.access, '/participants', staffText('selection.invitations_sent')),
        sent,
        skipped,
      });
    },
  );
}
