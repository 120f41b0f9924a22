/**
 * Announcements pages (docs/staff-dashboard.md "Announcements"), over
 * the announcements service (the API's) and the chat-blast list:
 * - GET  /staff/events/{e}/announcements: compose form, the event's announcements with delivery
 *   counts, and its chat blasts; `?show={id}` adds that announcement with the delivery state of
 *   each recipient (`&after=` pages them). (A query, not a path: one page, and the staff page
 *   matrix addresses pages by event only.)
 * - POST /staff/events/{e}/announcements (subject and message, and per other offered language
 *   `tr_<code>_subject|body`, blank = none): `intent=preview` re-renders the form with the email the
 *   first recipient would get; `intent=send` schedules (time read in the event's zone), or for
 *   "send now" first shows a confirmation naming the number of addresses, whose button posts the
 *   same values with `confirmed=yes` and sends; then 303 to the announcement. Bad input re-renders the form (422) with the message.
 * - POST /staff/events/{e}/announcements/{id}/cancel: cancels a scheduled one.
 * Action `announcements.manage` (event admins, series roles, global admins) on every page.
 */
import { Type } from 'typebox';
import { registrationStatuses } from '../../db/schema/participants.js';
import type { CtxFor, Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { entryOf, isOneOf } from '../../lib/narrow.js';
import { zonedToInstant } from '../../lib/zoned-time.js';
import { AUDIENCES, type ComposeInput, DEFAULT_STATUSES } from '../announcements/announcements.schemas.js';
import * as announcements from '../announcements/announcements.service.js';
import { listBlasts } from '../chat-blasts/chat-blasts.service.js';
import { CsrfForm, FormBody, pageResponses } from '../web/web.schemas.js';
import { EMAIL_STATE_LABELS, STATUS_LABELS } from './format.js';
import { attempt, eventFrame, field, fields, when } from './org-pages.js';
import { formLanguages, translationsFromForm } from './translation-fields.js';

const action = 'announcements.manage' as const;
const session = { action, credential: 'session_cookie' } as const;
const EventParams = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }) },
  { additionalProperties: false },
);
const OneParams = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }), id: Type.String({ pattern: '^[0-9]{1,9}$' }) },
  { additionalProperties: false },
);
const ShowQuery = Type.Object(
  {
    show: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })),
    after: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

export const AUDIENCE_LABELS: Record<(typeof AUDIENCES)[number], string> = {
  participants: staffText('announcements.participants'),
  guardians_primary: staffText('announcements.primary_parent_or_guardian_of_each'),
  guardians_all: staffText('announcements.every_parent_or_guardian_of_each'),
  staff: staffText('announcements.the_event_s_team_everyone_with'),
};

interface FormValues {
  subject: string;
  body: string;
  audience: string;
  statuses: string[];
  when: 'now' | 'later';
  send_at: string;
  /** Subject and message per other offered language (`tr_<code>_subject|body`; blank = none). */
  translations: Record<string, { subject: string; body: string }>;
}

const EMPTY: FormValues = {
  subject: '',
  body: staffText('announcements.default_body'),
  audience: 'participants',
  statuses: [...DEFAULT_STATUSES],
  when: 'now',
  send_at: '',
  translations: {},
};

/** The form's values → the API body; a problem the service cannot name (no time given) → string. */
function toInput(v: FormValues, zone: string): ComposeInput | string {
  const audience = v.audience;
  if (!isOneOf(AUDIENCES, audience)) return staffText('announcements.choose_who_gets_the_message');
  const statuses = v.statuses.filter((s) => isOneOf(registrationStatuses, s));
  if (v.audience !== 'staff' && statuses.length === 0)
    return staffText('announcements.choose_at_least_one_registration_status');
  let sendAt: string | null = null;
  if (v.when === 'later') {
    sendAt = v.send_at ? zonedToInstant(v.send_at, zone) : null;
    if (!sendAt) return staffText('announcements.enter_the_date_and_time_to');
  }
  return {
    subject: v.subject,
    body: v.body,
    translations: v.translations,
    audience,
    ...(audience === 'staff' ? {} : { statuses }),
    send_at: sendAt,
  };
}

type Ctx = CtxFor<typeof action>;

/** One announcement and a page of its recipients, for the template (404 page when unknown). */
async function shownOf(ctx: Ctx, id: string, after: number | undefined) {
  const zone = ctx.access.event.timezone;
  const detail = await announcements.getAnnouncement(ctx, id, { limit: 500, ...(after ? { after } : {}) });
  const a = detail.announcement;
  return {
    ...a,
    audience_label: entryOf(AUDIENCE_LABELS, a.audience) ?? a.audience,
    statuses_label: a.statuses.map((s) => entryOf(STATUS_LABELS, s) ?? s).join(', '),
    created: when(a.created_at, zone),
    scheduled: when(a.send_at, zone),
    sent: when(a.sent_at, zone),
    recipients: detail.recipients.map((r) => ({
      ...r,
      sent: when(r.sent_at, zone),
      state: EMAIL_STATE_LABELS[r.status] ?? r.status,
    })),
    next_after: detail.next_after,
  };
}

export function announcementPages(web: Api, deps: Deps): void {
  async function render(
    ctx: Ctx,
    status: number,
    extra: {
      values?: FormValues;
      preview?: unknown;
      confirm?: { count: number };
      errors?: { message: string }[];
      shown?: unknown;
    },
  ) {
    const event = ctx.access.event;
    const [{ announcements: list }, { chat_blasts }] = await Promise.all([
      announcements.listAnnouncements(ctx, { limit: 50 }),
      listBlasts(ctx, { limit: 20 }),
    ]);
    return {
      status,
      data: {
        ...eventFrame(ctx.access, '/announcements', staffText('announcements.announcements')),
        values: extra.values ?? EMPTY,
        preview: extra.preview ?? null,
        confirm: extra.confirm ?? null,
        shown: extra.shown ?? null,
        errors: extra.errors ?? [],
        announcements: list.map((a) => ({
          ...a,
          audience_label: entryOf(AUDIENCE_LABELS, a.audience) ?? a.audience,
          created: when(a.created_at, event.timezone),
          scheduled: when(a.send_at, event.timezone),
        })),
        blasts: chat_blasts.map((b) => ({ ...b, created: when(b.created_at, event.timezone) })),
        audiences: AUDIENCES.map((a) => ({ value: a, label: AUDIENCE_LABELS[a] })),
        statuses: registrationStatuses.map((s) => ({
          value: s,
          label: STATUS_LABELS[s],
        })),
        zone: event.timezone,
        languages: formLanguages(event),
      },
    };
  }

  web.get(
    '/staff/events/:event_id/announcements',
    {
      config: session,
      schema: { hide: true, params: EventParams, querystring: ShowQuery, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const shown = request.query.show ? await shownOf(ctx, request.query.show, request.query.after) : null;
      const page = await render(ctx, 200, { shown });
      return reply.page(page.status, 'staff/announcements', page.data);
    },
  );

  web.post(
    '/staff/events/:event_id/announcements',
    { config: session, schema: { hide: true, params: EventParams, body: FormBody, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { body } = request;
      const values: FormValues = {
        subject: field(body, 'subject'),
        body: field(body, 'body'),
        audience: field(body, 'audience'),
        statuses: fields(body, 'statuses'),
        when: field(body, 'when') === 'later' ? 'later' : 'now',
        send_at: field(body, 'send_at'),
        translations: translationsFromForm(body, formLanguages(ctx.access.event).others, [
          'subject',
          'body',
        ] as const),
      };
      const input = toInput(values, ctx.access.event.timezone);
      const problem = (message: string) => render(ctx, 422, { values, errors: [{ message }] });
      if (typeof input === 'string') {
        const page = await problem(input);
        return reply.page(page.status, 'staff/announcements', page.data);
      }
      if (field(body, 'intent') === 'preview') {
        const res = await attempt(() => announcements.previewAnnouncement(ctx, input));
        const page =
          'ok' in res
            ? await render(ctx, 200, { values, preview: res.ok.preview })
            : await problem(res.error);
        return reply.page(page.status, 'staff/announcements', page.data);
      }
      // "Send now" asks first, naming how many addresses it goes to; the confirmation form carries
      // the same values with confirmed=yes. A scheduled one is sent later and can be cancelled.
      if (values.when === 'now' && field(body, 'confirmed') !== 'yes') {
        const res = await attempt(() => announcements.previewAnnouncement(ctx, input));
        const page =
          'ok' in res
            ? await render(ctx, 200, { values, confirm: { count: res.ok.preview.recipient_count } })
            : await problem(res.error);
        return reply.page(page.status, 'staff/announcements', page.data);
      }
      const res = await attempt(() => announcements.createAnnouncement(ctx, input));
      if ('error' in res) {
        const page = await problem(res.error);
        return reply.page(page.status, 'staff/announcements', page.data);
      }
      return reply.redirect(
        `/staff/events/${ctx.access.event.id}/announcements?show=${res.ok.announcement.id}#shown`,
        303,
      );
    },
  );

  web.post(
    '/staff/events/:event_id/announcements/:id/cancel',
    { config: session, schema: { hide: true, params: OneParams, body: CsrfForm, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      await announcements.cancelAnnouncement(ctx, request.params.id);
      return reply.redirect(
        `/staff/events/${ctx.access.event.id}/announcements?show=${request.params.id}#shown`,
        303,
      );
    },
  );
}
