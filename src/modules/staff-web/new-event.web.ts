/**
 * "New event" page (docs/staff-dashboard.md "New event"; docs/series-events.md "New event and
 * copy"), action `series_events.create` (global admins, series owners and organisers), `{s}` a
 * series UUID or slug:
 * - GET  /staff/series/{s}/events/new[?from={event uuid}]: two forms, a blank event (name, support
 *   email, time zone, dates, country) and a copy of an earlier event of the series (which one, the
 *   new name, the new start date); `from` preselects the event to copy.
 * - POST /staff/series/{s}/events/new: creates the blank draft → 303 to its overview.
 * - POST /staff/series/{s}/events/copy: creates the copy → 303 to its overview.
 * A form with a problem re-renders (422) with each message next to its field.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps, UserSeriesCtx } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { copyEventFromForm, createEventFromForm } from '../events/event-new.service.js';
import { listSeriesEvents } from '../events/series.service.js';
import { FormBody, pageResponses } from '../web/web.schemas.js';
import { field } from './org-pages.js';

const config = { action: 'series_events.create', credential: 'session_cookie' } as const;
const Params = Type.Object(
  { series_id: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
const Query = Type.Object(
  { from: Type.Optional(Type.String({ maxLength: 40 })) },
  { additionalProperties: false },
);
const page = { hide: true, response: pageResponses } as const;

const BLANK = {
  name: '',
  support_email: '',
  timezone: 'Europe/London',
  starts_on: '',
  ends_on: '',
  location_country: 'GB',
};
const COPY = { source_event_id: '', name: '', starts_on: '' };

/** Form field → the id of its input on the page (`new-` for the blank form, `copy-` for the copy). */
const inputId = (form: 'new' | 'copy', name: string) => `${form}-${name.replaceAll('_', '-')}`;

async function render(
  ctx: UserSeriesCtx,
  reply: FastifyReply,
  data: {
    status?: number;
    blank?: typeof BLANK;
    copy?: typeof COPY;
    form?: 'new' | 'copy';
    error?: ApiError;
  },
) {
  const { series } = ctx.access;
  const { events } = await listSeriesEvents(ctx);
  const problems = (data.error?.extra.problems as { field: string; message: string }[] | undefined) ?? [];
  const errors = data.form
    ? problems.map((p) => ({ field: inputId(data.form!, p.field), message: p.message }))
    : [];
  const errorOf = (form: 'new' | 'copy', name: string) =>
    data.form === form ? (problems.find((p) => p.field === name)?.message ?? null) : null;
  return reply.page(data.status ?? 200, 'staff/new-event', {
    title: staffText('new_event.title', { name: series.name }),
    series,
    events,
    blank: data.blank ?? BLANK,
    copy: data.copy ?? COPY,
    errors,
    errorOf,
  });
}

export function newEventPages(web: Api, deps: Deps): void {
  web.get(
    '/staff/series/:series_id/events/new',
    { config, schema: { ...page, params: Params, querystring: Query } },
    async (request, reply) =>
      render(routeCtx(deps, request), reply, {
        copy: { ...COPY, source_event_id: request.query.from ?? '' },
      }),
  );

  web.post(
    '/staff/series/:series_id/events/new',
    { config, schema: { ...page, params: Params, body: FormBody } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const blank = Object.fromEntries(
        Object.keys(BLANK).map((k) => [k, field(request.body, k).trim()]),
      ) as typeof BLANK;
      try {
        const row = await createEventFromForm(ctx, blank);
        return reply.redirect(`/staff/events/${row.id}?done=event_created`, 303);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
        return render(ctx, reply, { status: 422, blank, form: 'new', error });
      }
    },
  );

  web.post(
    '/staff/series/:series_id/events/copy',
    { config, schema: { ...page, params: Params, body: FormBody } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const copy = Object.fromEntries(
        Object.keys(COPY).map((k) => [k, field(request.body, k).trim()]),
      ) as typeof COPY;
      try {
        const row = await copyEventFromForm(ctx, copy);
        return reply.redirect(`/staff/events/${row.id}?done=event_copied`, 303);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
        return render(ctx, reply, { status: 422, copy, form: 'copy', error });
      }
    },
  );
}
