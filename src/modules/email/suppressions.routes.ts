/** GET /email_suppressions, DELETE /email_suppressions/{email}: the suppression list, for global admins. */

import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import {
  SuppressionLifted,
  SuppressionList,
  SuppressionParams,
  SuppressionQuery,
} from './suppressions.schemas.js';
import { liftSuppression, listSuppressions } from './suppressions.service.js';

const WHO =
  'Global admins only (mobile token or unscoped global API token). Everyone else, API keys included, gets 403 `Only global admins can manage email suppressions`; a `bans:write`-scoped token gets 403 `This token is limited to: bans:write`.';

export function suppressionRoutes(app: Api, deps: Deps): void {
  app.get(
    '/email_suppressions',
    {
      config: { action: 'email_suppressions.manage' },
      schema: {
        tags: ['email'],
        summary: 'List suppressed addresses',
        description: `Addresses no email is sent to, newest first: added by a hard bounce or spam complaint reported by the email provider (POST /webhooks/email). Filter \`email\` (case-insensitive); paging \`limit\` (1..200, default 50) and \`before_id\` (the last \`id\`) while \`has_more\`. Bad filters 422. ${WHO}`,
        querystring: SuppressionQuery,
        response: { 200: SuppressionList, ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => listSuppressions(routeCtx(deps, request), request.query),
  );

  app.delete(
    '/email_suppressions/:email',
    {
      config: { action: 'email_suppressions.manage' },
      schema: {
        tags: ['email'],
        summary: 'Lift a suppression',
        description: `Removes the address (case-insensitive) from the suppression list, so it receives email again (e.g. after the recipient fixed their mailbox). 200 \`{success:true, email}\`; an address not on the list → 404 \`Suppression not found\`. Audited \`email_suppressions.delete\` (entry id and reason). ${WHO}`,
        params: SuppressionParams,
        response: { 200: SuppressionLifted, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => liftSuppression(routeCtx(deps, request), request.params.email),
  );
}
