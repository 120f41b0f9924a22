/**
 * The setup wizard: `/staff/events/{event_id}/setup/{step}`
 * for event managers (action `event_setup.manage`, like `PATCH /series/{s}/events/{e}`). Each form
 * step saves through the event update service (same validation as the API: its 422 message is shown
 * next to the field it names) and moves on to the next step; "Complete setup" calls the service of
 * `POST /events/{e}/setup/complete`. Consent documents and images: setup-content.web.ts.
 */

import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { EventAccess } from '../../access/authorize.js';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { isOneOf } from '../../lib/narrow.js';
import { listConsentDocuments } from '../events/consent-documents.service.js';
import { mediaPath } from '../events/event-images.service.js';
import { completeSetup, updateEvent } from '../events/events.service.js';
import type { PageErrorItem } from '../web/forms.js';
import { pageResponses } from '../web/web.schemas.js';
import { eventNav } from './nav.js';
import { errorTitle, titleOf } from './org-pages.js';
import {
  FIELD_STEPS,
  fieldOfMessage,
  fieldsFromForm,
  STEP_FIELDS,
  STEPS,
  type StepId,
  valuesFromForm,
  valuesOf,
} from './setup-steps.js';
import { formLanguages } from './translation-fields.js';

const PAGE = { action: 'event_setup.manage', credential: 'session_cookie' } as const;
const EventId = Type.String({ pattern: '^[0-9]{1,9}$' });
const StepParams = Type.Object(
  { event_id: EventId, step: Type.Union(STEPS.map((s) => Type.Literal(s.id))) },
  { additionalProperties: false },
);
const FieldStepParams = Type.Object(
  { event_id: EventId, step: Type.Union(FIELD_STEPS.map((s) => Type.Literal(s))) },
  { additionalProperties: false },
);
const StepForm = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 2000 }));

export const setupUrl = (eventId: number, step: StepId = 'details') =>
  `/staff/events/${eventId}/setup/${step}`;

export interface SetupPageExtra {
  values?: Record<string, string | boolean>;
  errors?: PageErrorItem[];
  /** Consent step: the document whose form is shown again with the typed text. */
  draft?: {
    consent_type: string;
    title: string;
    body: string;
    translations: Record<string, { title: string; body: string }>;
    /** Custom documents: the ticked box; a new document's draft has `consent_type` ''. */
    required?: boolean;
  };
  notice?: string;
}

/** Renders one step of the wizard for `access.event` (reloaded by the caller after a save). */
export async function renderStep(
  deps: Deps,
  reply: FastifyReply,
  access: EventAccess,
  status: number,
  step: StepId,
  extra: SetupPageExtra = {},
) {
  const { event } = access;
  const errors = extra.errors ?? [];
  const fieldErrors: Record<string, string> = {};
  for (const e of errors) if (e.field && !fieldErrors[e.field]) fieldErrors[e.field] = e.message;
  const current = STEPS.find((s) => s.id === step)!;
  const fieldStep = isOneOf(FIELD_STEPS, step) ? step : null;
  const ctx = { ...deps, access };
  return reply.page(status, 'staff/setup', {
    title: errorTitle(errors.length > 0, titleOf(current.label, staffText('nav.setup'))),
    event,
    nav: eventNav(access, event.id, '/setup'),
    steps: STEPS.map((s, i) => ({ ...s, n: i + 1, href: setupUrl(event.id, s.id), current: s.id === step })),
    step: current,
    next: STEPS[STEPS.findIndex((s) => s.id === step) + 1] ?? null,
    action: setupUrl(event.id, step),
    fields: fieldStep
      ? STEP_FIELDS[fieldStep].map((f) =>
          f.type === 'datetime'
            ? { ...f, hint: staffText('setup.in_the_event_s_time_zone', { timezone: event.timezone }) }
            : f,
        )
      : [],
    values: extra.values ?? (fieldStep ? valuesOf(fieldStep, event) : {}),
    errors,
    fieldErrors,
    notice: extra.notice ?? null,
    documents: step === 'consents' ? (await listConsentDocuments(ctx)).consent_documents : [],
    draft: extra.draft ?? null,
    languages: formLanguages(event),
    logo: mediaPath(event.logoUrl),
    banner: mediaPath(event.bannerUrl),
  });
}

const NOTICE: Record<string, string> = {
  saved: staffText('setup.saved'),
  uploaded: staffText('setup.image_uploaded'),
  removed: staffText('setup.image_removed'),
  doc_removed: staffText('setup.consent_document_removed'),
};

export function setupPages(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/setup',
    {
      config: PAGE,
      schema: { hide: true, params: Type.Object({ event_id: EventId }), response: pageResponses },
    },
    async (request, reply) => renderStep(deps, reply, routeCtx(deps, request).access, 200, 'details'),
  );

  web.get(
    '/staff/events/:event_id/setup/:step',
    {
      config: PAGE,
      schema: {
        hide: true,
        params: StepParams,
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
        response: pageResponses,
      },
    },
    async (request, reply) => {
      const { access } = routeCtx(deps, request);
      const notice = NOTICE[request.query.done ?? ''];
      return renderStep(deps, reply, access, 200, request.params.step, notice ? { notice } : {});
    },
  );

  web.post(
    '/staff/events/:event_id/setup/:step',
    {
      config: PAGE,
      schema: { hide: true, params: FieldStepParams, body: StepForm, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const step = request.params.step;
      try {
        await updateEvent(ctx, { event: fieldsFromForm(step, request.body) });
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        const field = fieldOfMessage(step, error.message);
        return renderStep(deps, reply, ctx.access, 422, step, {
          values: valuesFromForm(step, request.body),
          errors: [{ ...(field ? { field: `f-${field}` } : {}), message: error.message }],
        });
      }
      const next = STEPS[STEPS.findIndex((s) => s.id === step) + 1]!;
      return reply.redirect(`${setupUrl(ctx.access.event.id, next.id)}?done=saved`, 303);
    },
  );

  web.post(
    '/staff/events/:event_id/setup/complete',
    {
      config: { action: 'events.setup_complete', credential: 'session_cookie' },
      schema: { hide: true, params: Type.Object({ event_id: EventId }), response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      try {
        await completeSetup(ctx);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
        return renderStep(deps, reply, ctx.access, 422, 'complete', { errors: [{ message: error.message }] });
      }
      return reply.redirect(`${setupUrl(ctx.access.event.id, 'complete')}`, 303);
    },
  );
}
