/**
 * buildApp(deps): the HTTP composition root. Plugins first (errors, route tracking, auth gate,
 * OpenAPI), then every module's routes under /api/v1, listed explicitly.
 */
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Deps } from './deps.js';
import { registerAuthorization } from './http/authorize.js';
import { registerHttpBasics } from './http/basics.js';
import { registerGracefulClose } from './http/closing.js';
import { registerBodyDrain } from './http/drain.js';
import { registerErrorHandling } from './http/errors.js';
import { registerKeyUsage } from './http/key-usage.js';
import { registerOpenApi } from './http/openapi.js';
import { trackRoutes } from './http/route-table.js';
import { buildSerializer } from './http/serialization.js';
import { typed } from './http/typed.js';
import { registerValidation } from './http/validation.js';
import { accountRoutes } from './modules/accounts/accounts.routes.js';
import { pushTokenRoutes } from './modules/accounts/push-tokens.routes.js';
import { announcementRoutes } from './modules/announcements/announcements.routes.js';
import { auditLogRoutes } from './modules/audit/audit-log.routes.js';
import { banRoutes } from './modules/bans/bans.routes.js';
import { chatBlastRoutes } from './modules/chat-blasts/chat-blasts.routes.js';
import { checkinRoutes } from './modules/checkin/checkin.routes.js';
import { nfcRoutes } from './modules/checkin/nfc.routes.js';
import { scanStreamRoutes } from './modules/checkin/stream.routes.js';
import { apiKeyRoutes } from './modules/credentials/api-keys.routes.js';
import { revokeRoutes } from './modules/credentials/revoke.routes.js';
import { sessionRoutes } from './modules/credentials/session.routes.js';
import { emailLogRoutes } from './modules/email/email-log.routes.js';
import { emailTemplateRoutes } from './modules/email/email-templates.routes.js';
import { suppressionRoutes } from './modules/email/suppressions.routes.js';
import { eventSetupRoutes, mediaRoutes } from './modules/events/event-setup.routes.js';
import { eventRoutes } from './modules/events/events.routes.js';
import { seriesRoutes } from './modules/events/series.routes.js';
import { exportRoutes } from './modules/exports/exports.routes.js';
import { groupRoutes } from './modules/groups/groups.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { metricsRoutes, registerHttpMetrics } from './modules/metrics/metrics.routes.js';
import { notesRoutes } from './modules/notes/notes.routes.js';
import { openApiWebhooks } from './modules/outbound-webhooks/event-types.js';
import { outboundWebhookRoutes } from './modules/outbound-webhooks/webhooks.routes.js';
import { participantRoutes } from './modules/participants/participants.routes.js';
import { privacyRoutes } from './modules/privacy/privacy.routes.js';
import { guardianPortalRoutes } from './modules/registration/guardian-portal/guardian-portal.routes.js';
import { invitationRoutes } from './modules/registration/invitations/invitations.routes.js';
import { inviteeRoutes } from './modules/registration/invitations/invitee.routes.js';
import { pendingInvitationRoutes } from './modules/registration/invitations/pending.routes.js';
import { registrationRoutes } from './modules/registration/lifecycle/registrations.routes.js';
import { staffRoutes } from './modules/registration/lifecycle/staff.routes.js';
import { recordRoutes } from './modules/registration/own-record/record.routes.js';
import { staffRecordRoutes } from './modules/registration/staff-record/staff-record.routes.js';
import { retentionRoutes } from './modules/retention/retention.routes.js';
import { roomingRoutes } from './modules/rooming/rooming.routes.js';
import { signinRoutes } from './modules/signin/signin.routes.js';
import { teamRoutes } from './modules/team/team.routes.js';
import { travelRoutes } from './modules/travel/travel.routes.js';
// Web pages: server-rendered HTML at the site root, outside /api/v1.
import { webRoutes } from './modules/web/web.plugin.js';
import { webhookPlugin } from './webhooks/webhooks.routes.js';

export const API_PREFIX = '/api/v1';

/** Builds the Fastify app (not listening). Throws UndeclaredRouteError if a route lacks an action. */
export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    bodyLimit: 1024 * 1024,
    // Path parameters may be long (FCM push tokens in DELETE /push_tokens/{token} are ~160 chars);
    // route schemas cap each parameter. Over this limit the router itself answers 414.
    routerOptions: { maxParamLength: 2048 },
    trustProxy: deps.config.trustProxy,
    // While stopping (SIGTERM), a request that reached the server is still answered (with
    // `Connection: close`), not refused with a 503: a scan the client already sent gets its result.
    return503OnClosing: false,
    schemaController: { compilersFactory: { buildSerializer } },
    // An over-long path segment names no record: 404 with the usual envelope (docs/decisions.md "Status codes and check order").
    frameworkErrors: (error, _request, reply) => {
      const notFound = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      // The reply is typed by the route's generics; as a plain reply any status and body go.
      const plain: FastifyReply = reply;
      void plain
        .status(notFound ? 404 : 400)
        .send({ error: notFound ? 'Not found' : 'Malformed request URL' });
    },
  });
  registerGracefulClose(app);
  trackRoutes(app);
  registerHttpMetrics(app, deps); // http_request_duration_seconds by route template
  registerValidation(app);
  registerErrorHandling(app);
  registerHttpBasics(app);
  registerBodyDrain(app);
  registerAuthorization(app, deps);
  registerKeyUsage(app, deps);
  // Security headers on every response; rate limits are opt-in per route (`config.rateLimit`).
  await app.register(helmet, { global: true, contentSecurityPolicy: false });
  await app.register(rateLimit, { global: false });
  await registerOpenApi(app, { webhooks: openApiWebhooks() });
  await app.register(
    async (plain) => {
      const api = typed(plain);
      // docs/decisions.md "Timestamps and nulls": API responses over 1 KB in br or gzip when the client asks (br
      // preferred). Scoped to /api/v1: web pages carry CSRF tokens next to reflected input, which
      // compression would expose (BREACH). The SSE scan feed hijacks its reply, so it bypasses the
      // hook and stays unbuffered. zlib runs on the libuv thread pool, off the event loop.
      await api.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
      healthRoutes(api, deps);
      accountRoutes(api, deps);
      sessionRoutes(api, deps);
      revokeRoutes(api, deps);
      pushTokenRoutes(api, deps);
      participantRoutes(api, deps);
      seriesRoutes(api, deps);
      banRoutes(api, deps);
      signinRoutes(api, deps);
      checkinRoutes(api, deps);
      nfcRoutes(api, deps);
      scanStreamRoutes(api, deps); // check-in live scan stream (SSE)
      travelRoutes(api, deps);
      notesRoutes(api, deps);
      privacyRoutes(api, deps); // subject access and erasure (docs/privacy.md)
      retentionRoutes(api, deps); // retention policies per event (docs/privacy.md)
      // Series event API (create, read, update, setup completion).
      eventRoutes(api, deps);
      eventSetupRoutes(api, deps); // consent documents, logo and banner (multipart scoped there)
      chatBlastRoutes(api, deps);
      outboundWebhookRoutes(api, deps); // outbound webhooks of events and series
      emailLogRoutes(api, deps);
      suppressionRoutes(api, deps);
      emailTemplateRoutes(api, deps); // per-event wording of participant and guardian emails
      // Inbound receivers (docs/decisions.md "Messaging"): own raw-body parser, scoped to /webhooks.
      api.register(webhookPlugin, { prefix: '/webhooks', deps });
      // Registration, participant and guardian side (docs/decisions.md "Registration side").
      recordRoutes(api, deps);
      guardianPortalRoutes(api, deps);
      // Registration: invitations, lifecycle, tickets, consents.
      invitationRoutes(api, deps);
      pendingInvitationRoutes(api, deps); // pending invitations, guardian resend
      inviteeRoutes(api, deps); // POST /invitations/claim (account for an invitee)
      registrationRoutes(api, deps);
      staffRoutes(api, deps);
      staffRecordRoutes(api, deps);
      // Organiser operations (docs/organiser-api.md): groups, exports, audit trail, team, API keys.
      groupRoutes(api, deps);
      roomingRoutes(api, deps);
      auditLogRoutes(api, deps);
      teamRoutes(api, deps);
      apiKeyRoutes(api, deps);
      exportRoutes(api, deps);
      announcementRoutes(api, deps);
    },
    { prefix: API_PREFIX },
  );
  webRoutes(typed(app), deps);
  mediaRoutes(typed(app), deps); // GET /media/<sha256>.<ext>: uploaded event images
  metricsRoutes(typed(app), deps); // GET /metrics (Prometheus; docs/operations.md "Metrics")
  await app.ready();
  return app;
}
