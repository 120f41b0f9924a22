/**
 * Inbound receivers under /api/v1/webhooks (spec "Events"; docs/decisions.md "Messaging").
 * Public to bearer credentials (`config.public: 'signature'`: an Authorization header is ignored);
 * each is authenticated by its provider's signature over the RAW body (webhooks/verify.ts), so this
 * plugin replaces the JSON parser with a raw-bytes one, scoped to these routes.
 *
 * Order: 503 (secret not configured) → 401 (missing/bad signature, stale timestamp) → 400 (not JSON)
 * → 422 (no event type/id) → dedupe + enqueue → 200. Nothing is written before the 200 path.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Deps } from '../deps.js';
import { errorResponses } from '../http/schema-helpers.js';
import { ApiError } from '../lib/errors.js';
import { chatIntake, emailIntake, esignIntake, helpdeskIntake, type WebhookProvider } from './intake.js';
import { acceptEvent } from './intake.service.js';
import { verifyHelpScout, verifyMuster, verifySlack } from './verify.js';
import { ProviderBody, SlackChallenge, WebhookAck } from './webhooks.schemas.js';

const NAMES: Record<WebhookProvider, string> = {
  email: 'email provider',
  helpdesk: 'help desk',
  esign: 'e-signature',
  chat: 'chat',
};

const VERIFY = {
  email: verifyMuster,
  esign: verifyMuster,
  helpdesk: verifyHelpScout,
  chat: verifySlack,
};

/** 503 → 401 → the raw body. */
function verified(deps: Deps, provider: WebhookProvider, request: FastifyRequest): Buffer {
  const secret = deps.config.webhookSecrets[provider];
  if (!secret) throw new ApiError(503, `The ${NAMES[provider]} webhook is not configured`);
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  if (!VERIFY[provider](secret, request.headers, raw, Date.now()))
    throw new ApiError(401, 'Invalid or expired webhook signature');
  return raw;
}

/** The route schema of a provider's webhook; `ok` is its 200 body (WebhookAck for most). */
function schema<T extends TSchema>(provider: WebhookProvider, summary: string, description: string, ok: T) {
  return {
    tags: ['webhooks'],
    summary,
    description: `${description}\n\nErrors: 503 when MUSTER_${provider === 'chat' ? 'CHAT_SIGNING' : `${provider.toUpperCase()}_WEBHOOK`}_SECRET is not set; 401 on a missing or wrong signature or a stale timestamp; 400 when the verified body is not JSON; 422 when it lacks the event type/id; 413 over 1 MiB. A refused request writes nothing. A replayed event id answers 200 with \`duplicate: true\` and does nothing.`,
    security: [],
    body: ProviderBody,
    response: { 200: ok, ...errorResponses(400, 401, 413, 422, 503) },
  };
}

const MUSTER_SIG =
  'Signed with the Muster scheme: `X-Muster-Timestamp: <unix seconds>` and `X-Muster-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`; the timestamp must be within 5 minutes.';

/** Registered with `{ prefix: '/webhooks', deps }` (its own encapsulated context). */
export async function webhookPlugin(app: FastifyInstance, opts: { deps: Deps }): Promise<void> {
  const { deps } = opts;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const config = { public: 'signature' as const };
  const noValidation = () => () => true;

  app.post(
    '/email',
    {
      config,
      validatorCompiler: noValidation,
      schema: schema(
        'email',
        'Email provider events (Postmark-style delivery, bounce, open)',
        `Body: a Postmark webhook record (\`RecordType\`: Delivery | Bounce | Open | SpamComplaint). Updates the email log row (matched by \`Metadata.email_log_id\`, else \`MessageID\`): \`delivered\`, \`opened\`, \`bounced\`. A hard bounce or spam complaint suppresses the address: later emails to it are logged \`suppressed\` and not sent. ${MUSTER_SIG}`,
        WebhookAck,
      ),
    },
    async (request) => acceptEvent(deps, 'email', emailIntake(verified(deps, 'email', request))),
  );

  app.post(
    '/helpdesk',
    {
      config,
      validatorCompiler: noValidation,
      schema: schema(
        'helpdesk',
        'Help desk events (Help Scout-style)',
        "Body: a Help Scout conversation or customer; event type in `X-HelpScout-Event`. Signed `X-HelpScout-Signature: base64(HMAC-SHA1(secret, raw body))` (Help Scout sends no timestamp: replays are dropped by content). Conversations are recorded and linked to the user whose email is the customer's.",
        WebhookAck,
      ),
    },
    async (request) => {
      const raw = verified(deps, 'helpdesk', request);
      const event = request.headers['x-helpscout-event'];
      return acceptEvent(
        deps,
        'helpdesk',
        helpdeskIntake(raw, typeof event === 'string' ? event : undefined),
      );
    },
  );

  app.post(
    '/esign',
    {
      config,
      validatorCompiler: noValidation,
      schema: schema(
        'esign',
        'E-signature events (DocuSeal-style)',
        `Body: \`{event_type, timestamp, data}\` with \`event_type\` form.viewed | form.completed | form.declined | submission.completed | submission.expired. Moves the consent whose \`esign_submission_id\` matches (viewed → signed / declined / expired; final states never move), then re-runs the registration completion check. ${MUSTER_SIG}`,
        WebhookAck,
      ),
    },
    async (request) => acceptEvent(deps, 'esign', esignIntake(verified(deps, 'esign', request))),
  );

  app.post(
    '/chat',
    {
      config,
      validatorCompiler: noValidation,
      schema: schema(
        'chat',
        'Chat workspace events (Slack Events API)',
        'Signed Slack v0: `X-Slack-Signature: v0=<hex HMAC-SHA256(secret, "v0:<X-Slack-Request-Timestamp>:<raw body>")>`, timestamp within 5 minutes. `url_verification` answers `{challenge}`. `event_callback` events are deduplicated by `event_id`; `team_join` and `user_change` link the user\'s `chat_user_id` to the person with that email. Other envelope types are acknowledged and ignored.',
        Type.Union([WebhookAck, SlackChallenge]),
      ),
    },
    async (request) => {
      const intake = chatIntake(verified(deps, 'chat', request));
      if (intake.kind === 'challenge') return { challenge: intake.challenge };
      if (intake.kind === 'ignored') return { received: true, duplicate: false };
      return acceptEvent(deps, 'chat', intake.intake);
    },
  );
}
