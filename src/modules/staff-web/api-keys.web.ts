/**
 * API keys page (docs/staff-dashboard.md "API keys"), over the
 * service of `GET|POST /series/{s}/api_keys` and `DELETE …/{id}` (`api_keys.manage`: series owners
 * and global admins; `{s}` a series UUID or slug):
 * - GET  /staff/series/{s}/api-keys: the series' and its events' keys (name, kind, event, owner,
 *   created, last used, revoked) with Revoke buttons, and the create form.
 * - POST /staff/series/{s}/api-keys `{name, kind, event_id}`: creates a key owned by the caller,
 *   then 303 back to the GET, which shows the secret once. The secret crosses the redirect in a
 *   sealed (AES-256-GCM), HttpOnly, SameSite=Strict cookie scoped to this page and living 60 s;
 *   the GET clears it, so a reload or a second visit never shows it again. It is never in a URL,
 *   the database or a log.
 * - POST /staff/series/{s}/api-keys/{id}/revoke → 303 back (the key fails from its next request).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps, UserSeriesCtx } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../credentials/api-keys.service.js';
import { listSeriesEvents } from '../events/series.service.js';
import { cookieBase } from '../web/session.js';
import { pageResponses } from '../web/web.schemas.js';

const ONCE_COOKIE = 'muster_new_key';
const ONCE_SECONDS = 60;

const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 200 })) };
const CreateForm = Type.Object(
  {
    ...Csrf,
    name: Type.Optional(Type.String({ maxLength: 500 })),
    kind: Type.Optional(Type.String({ maxLength: 20 })),
    event_id: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
const ButtonForm = Type.Object(Csrf, { additionalProperties: false });
const SeriesId = Type.String({ minLength: 1, maxLength: 200 });
const Params = Type.Object({ series_id: SeriesId }, { additionalProperties: false });
const KeyParams = Type.Object(
  { series_id: SeriesId, id: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
const Query = Type.Object(
  { notice: Type.Optional(Type.Literal('revoked')) },
  { additionalProperties: false },
);

interface Once {
  v: 1;
  series: string;
  name: string;
  secret: string;
  exp: number;
}

interface Form {
  name: string;
  kind: string;
  event_id: string;
  error?: { status: number; message: string };
}

const base = (ctx: UserSeriesCtx) => `/staff/series/${ctx.access.series.slug}/api-keys`;
const cookieOpts = (deps: Deps, ctx: UserSeriesCtx) => ({
  ...cookieBase(deps),
  path: base(ctx),
  sameSite: 'strict' as const,
});

/** The secret of a key created by this browser in the last minute, once (the cookie is cleared). */
function takeOnce(deps: Deps, ctx: UserSeriesCtx, request: FastifyRequest, reply: FastifyReply) {
  const raw = request.cookies[ONCE_COOKIE];
  if (!raw) return null;
  reply.clearCookie(ONCE_COOKIE, cookieOpts(deps, ctx));
  try {
    const once = deps.sealer.unseal<Once>(raw);
    const fresh = once.v === 1 && once.series === ctx.access.series.id && once.exp > Date.now();
    return fresh ? { name: once.name, secret: once.secret } : null;
  } catch {
    return null;
  }
}

async function render(
  ctx: UserSeriesCtx,
  reply: FastifyReply,
  data: { form?: Form; created?: unknown; notice?: string },
) {
  const { series } = ctx.access;
  const [{ api_keys }, { events }] = await Promise.all([listApiKeys(ctx), listSeriesEvents(ctx)]);
  return reply.page(data.form?.error?.status ?? 200, 'staff/api-keys', {
    title: staffText('api_keys.title', { name: series.name }),
    series,
    base: base(ctx),
    keys: api_keys,
    events,
    form: data.form ?? { name: '', kind: 'series', event_id: '' },
    created: data.created ?? null,
    notice: data.notice === 'revoked' ? staffText('api_keys.key_revoked_it_is_refused_from') : null,
    errors: data.form?.error ? [{ field: 'key-name', message: data.form.error.message }] : [],
  });
}

export function apiKeyPages(web: Api, deps: Deps): void {
  const config = { action: 'api_keys.manage', credential: 'session_cookie' } as const;
  const page = { hide: true, response: pageResponses } as const;

  web.get(
    '/staff/series/:series_id/api-keys',
    { config, schema: { ...page, params: Params, querystring: Query } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      return render(ctx, reply, {
        created: takeOnce(deps, ctx, request, reply),
        notice: request.query.notice,
      });
    },
  );

  web.post(
    '/staff/series/:series_id/api-keys',
    { config, schema: { ...page, params: Params, body: CreateForm } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const form: Form = {
        name: request.body.name ?? '',
        kind: request.body.kind ?? 'series',
        event_id: request.body.event_id ?? '',
      };
      try {
        const kind = form.kind === 'event' ? 'event' : 'series';
        const created = await createApiKey(ctx, {
          name: form.name,
          kind,
          ...(kind === 'event' ? { event_id: form.event_id || undefined } : {}),
        });
        const once: Once = {
          v: 1,
          series: ctx.access.series.id,
          name: created.api_key.name,
          secret: created.secret,
          exp: Date.now() + ONCE_SECONDS * 1000,
        };
        reply.setCookie(ONCE_COOKIE, deps.sealer.seal(once), {
          ...cookieOpts(deps, ctx),
          maxAge: ONCE_SECONDS,
        });
        return reply.redirect(base(ctx), 303);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
        return render(ctx, reply, {
          form: { ...form, error: { status: error.statusCode, message: error.message } },
        });
      }
    },
  );

  web.post(
    '/staff/series/:series_id/api-keys/:id/revoke',
    { config, schema: { ...page, params: KeyParams, body: ButtonForm } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      await revokeApiKey(ctx, request.params.id);
      return reply.redirect(`${base(ctx)}?notice=revoked`, 303);
    },
  );
}
