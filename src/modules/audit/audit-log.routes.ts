/** Audit trail routes (organiser API; docs/organiser-api.md "Audit trail"). */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { AuditLogQuery, AuditPage } from './audit-log.schemas.js';
import { auditPage } from './audit-log.service.js';

const tags = ['audit'];
const PAGING =
  'Newest first (by id). `limit` 1..200 (default 50); `next_before` is the cursor of the next (older) page, null on the last one; pass it as `before`. Filters: `action` (exact, or a prefix ending in `.`), `actor` (email, UUID or numeric id of the acting user), `since` (ISO 8601 with a zone; 422 otherwise). `metadata` holds identifiers, field names, counts and roles only; free text (reasons), IP addresses and notified addresses are omitted.';

export function auditLogRoutes(app: Api, deps: Deps): void {
  app.get(
    '/events/:event_id/audit_log',
    {
      config: { action: 'audit_log.event' },
      schema: {
        tags,
        summary: 'Audit trail of an event',
        description: `Entries about this event. ${PAGING} Event admins, series owners/organizers of the event’s series and global admins; other event roles 403, API keys 403. \`{event_id}\`: numeric id or event UUID.`,
        params: Type.Object({ event_id: EventIdParam }),
        querystring: AuditLogQuery,
        response: { 200: AuditPage, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const ctx = routeCtx(deps, request);
      return auditPage(ctx, request.query, ctx.access.event.id);
    },
  );

  app.get(
    '/audit_log',
    {
      config: { action: 'audit_log.read' },
      schema: {
        tags,
        summary: 'The whole audit trail',
        description: `Every entry (events, series, bans, credentials, sign-ins). ${PAGING} Global admins only (403 \`Only global admins can read the whole audit log\`).`,
        querystring: AuditLogQuery,
        response: { 200: AuditPage, ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => auditPage(routeCtx(deps, request), request.query),
  );
}
