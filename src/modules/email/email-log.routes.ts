/** GET /email_log: the email log for global admins (docs/decisions.md "Messaging"; decided here, see README "Provider webhooks"). */

import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { EmailLogBody, EmailLogQuery } from './email-log.schemas.js';
import { listEmailLog } from './email-log.service.js';

export function emailLogRoutes(app: Api, deps: Deps): void {
  app.get(
    '/email_log',
    {
      config: { action: 'email_log.read' },
      schema: {
        tags: ['email'],
        summary: 'Read the email log',
        description: [
          "Every email Muster sent or tried to send, newest first: `status` queued | sent | failed | suppressed | delivered | bounced | opened. `delivered`, `opened` and `bounced` (with `bounced_at` and the bounce reason in `error`) come from the email provider's webhook (POST /webhooks/email). `suppressed`: not sent because the address hard-bounced or complained earlier; `address_suppressed` says whether the recipient is on that list now.",
          'Filters: `email` (case-insensitive), `status`, `event_id` (numeric). Paging: `limit` (1..200, default 50); pass the last `id` as `before_id` for the next page while `has_more`.',
          'Global admins only (mobile token or unscoped global API token). Everyone else, API keys included, gets 403 `Only global admins can read the email log`; a `bans:write`-scoped token gets 403 `This token is limited to: bans:write`. Bad filters 422.',
        ].join('\n\n'),
        querystring: EmailLogQuery,
        response: { 200: EmailLogBody, ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => listEmailLog(routeCtx(deps, request), request.query),
  );
}
