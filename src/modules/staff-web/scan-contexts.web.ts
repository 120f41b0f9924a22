/**
 * The scan-context settings page (docs/checkin.md "Scan-context settings" and "Door verdicts"):
 * per scan context, which attention codes refuse an entry there and whether it tracks
 * presence. Action `scan_contexts.manage` (event admins, series roles, global admins), like
 * `PATCH /api/v1/events/{e}/scan_contexts/{id}`, whose service (and audit entry
 * `scan_contexts.update`) both forms use:
 * - GET  /staff/events/{event_id}/scan-contexts[?done=saved|default]: the contexts, one form each.
 * - POST …/scan-contexts/{id}: `refuse` (repeated, attention codes; none ticked = refuse nothing),
 *   `tracks_presence` (`on` or absent). An unknown code re-renders the page with the message (422);
 *   an unknown context or one of another event is the 404 page. 303 back on success.
 * - POST …/scan-contexts/{id}/default: the context's refuse list goes back to the default.
 */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { type RoutedRequest, routeCtx } from '../../http/authorize.js';
import { EventIdParam, numericIdParam } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { isOneOf } from '../../lib/narrow.js';
import type { UpdateContextInput } from '../checkin/checkin.schemas.js';
import { scanContextSettings } from '../checkin/contexts.js';
import { updateScanContext } from '../checkin/contexts.manage.js';
import { ATTENTION_CODES, ATTENTION_MESSAGES, DEFAULT_REFUSE } from '../checkin/verdict.js';
import type { PageErrorItem } from '../web/forms.js';
import { CsrfForm, FormBody, pageResponses } from '../web/web.schemas.js';
import { attempt, errorTitle, eventFrame, field, fields } from './org-pages.js';

const PAGE = { action: 'scan_contexts.manage', credential: 'session_cookie' } as const;
const ListParams = Type.Object({ event_id: EventIdParam }, { additionalProperties: false });
const ContextParams = Type.Object(
  { event_id: EventIdParam, id: numericIdParam('Scan context id') },
  { additionalProperties: false },
);
const ListQuery = Type.Object(
  { done: Type.Optional(Type.String({ maxLength: 20 })) },
  { additionalProperties: false },
);
const DONE: Record<string, string> = {
  saved: staffText('scan_contexts.saved_desks_use_the_new_settings'),
  default: staffText('scan_contexts.that_scan_context_uses_the_default'),
};
/** The codes in the order of the form, each with its words (the desk's words). */
const CODES = ATTENTION_CODES.map((code) => ({ code, label: ATTENTION_MESSAGES[code] }));
const DEFAULT_WORDS = DEFAULT_REFUSE.map((c) => ATTENTION_MESSAGES[c]).join('; ');

type Request = RoutedRequest<'scan_contexts.manage'>;

export function scanContextPages(web: Api, deps: Deps): void {
  async function render(request: Request, extra: { notice?: string | null; errors?: PageErrorItem[] } = {}) {
    const ctx = routeCtx(deps, request);
    return {
      ...eventFrame(
        ctx.access,
        '/scan-contexts',
        errorTitle(extra.errors?.length, staffText('scan_contexts.scan_contexts')),
      ),
      contexts: await scanContextSettings(ctx),
      codes: CODES,
      defaultWords: DEFAULT_WORDS,
      notice: extra.notice ?? null,
      errors: extra.errors ?? [],
    };
  }
  const back = (eventId: number, done: string, id: string) =>
    `/staff/events/${eventId}/scan-contexts?done=${done}#context-${id}`;

  web.get(
    '/staff/events/:event_id/scan-contexts',
    {
      config: PAGE,
      schema: { hide: true, params: ListParams, querystring: ListQuery, response: pageResponses },
    },
    async (request, reply) => {
      const done = request.query.done;
      return reply.page(
        200,
        'staff/scan-contexts',
        await render(request, { notice: done ? DONE[done] : null }),
      );
    },
  );

  web.post(
    '/staff/events/:event_id/scan-contexts/:id',
    {
      config: PAGE,
      schema: { hide: true, params: ContextParams, body: FormBody, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const refuse = fields(request.body, 'refuse');
      const unknown = refuse.filter((c) => !isOneOf(ATTENTION_CODES, c));
      let problem =
        unknown.length > 0
          ? staffText('scan_contexts.unknown_attention_code', { value: unknown.join(', ') })
          : null;
      if (!problem) {
        const res = await attempt(() =>
          updateScanContext(ctx, Number(request.params.id), {
            // Checked against ATTENTION_CODES above (the schema's union of literals types as never[]).
            refuse: refuse as NonNullable<UpdateContextInput['refuse']>,
            tracks_presence: field(request.body, 'tracks_presence') === 'on',
          }),
        );
        if ('ok' in res) return reply.redirect(back(ctx.access.event.id, 'saved', request.params.id), 303);
        problem = res.error;
      }
      return reply.page(
        422,
        'staff/scan-contexts',
        await render(request, { errors: [{ message: problem }] }),
      );
    },
  );

  web.post(
    '/staff/events/:event_id/scan-contexts/:id/default',
    {
      config: PAGE,
      schema: { hide: true, params: ContextParams, body: CsrfForm, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      await updateScanContext(ctx, Number(request.params.id), { refuse: null });
      return reply.redirect(back(ctx.access.event.id, 'default', request.params.id), 303);
    },
  );
}
