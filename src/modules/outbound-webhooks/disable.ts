/**
 * Switching off an endpoint that keeps failing (docs/webhooks.md "Outbound", "Delivery"): once its
 * current run of failures is older than MUSTER_WEBHOOKS_DISABLE_AFTER_HOURS (5 days by default),
 * the endpoint is disabled, the change audited (`webhooks.disabled`, no actor) and the user who
 * created it emailed, all in one transaction. Its pending deliveries wait (they resume if it is
 * switched on again).
 */
import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../audit/audit.service.js';
import { queueEmail } from '../email/email.service.js';

export const DISABLED_REASON = 'Every delivery failed for 5 days';

export async function disableIfFailingTooLong(deps: Deps, endpointId: number): Promise<boolean> {
  const hours = deps.config.outboundWebhooks.disableAfterHours;
  return deps.db.transaction(async (tx) => {
    const res = await tx.execute<{
      event_id: number | null;
      series_id: string;
      url: string;
      email: string | null;
      scope_name: string;
    }>(sql`
      WITH w AS (
        UPDATE webhook_endpoints SET enabled = false, disabled_at = now(), disabled_reason = ${DISABLED_REASON}, updated_at = now()
         WHERE id = ${endpointId} AND enabled AND failing_since <= now() - make_interval(secs => ${hours * 3600}::double precision)
        RETURNING event_id, series_id, url, created_by_user_id)
      SELECT w.event_id, COALESCE(w.series_id, e.series_id) AS series_id, w.url, u.email,
             COALESCE(e.name, s.name) AS scope_name
        FROM w LEFT JOIN events e ON e.id = w.event_id LEFT JOIN series s ON s.id = w.series_id
        LEFT JOIN users u ON u.id = w.created_by_user_id`);
    const row = res.rows[0];
    if (!row) return false;
    const host = URL.parse(row.url)?.host ?? '';
    await recordAudit(tx, {
      action: 'webhooks.disabled',
      actorUserId: null,
      via: 'job',
      eventId: row.event_id,
      seriesId: row.series_id,
      targetType: 'webhook',
      targetId: endpointId,
      metadata: { webhook_id: endpointId, host, reason: DISABLED_REASON },
    });
    if (row.email) {
      await queueEmail(deps, tx, {
        to: row.email,
        template: 'webhook_disabled',
        vars: { host, scope_name: row.scope_name, webhooks_url: `${deps.config.baseUrl}${pagePath(row)}` },
        ...(row.event_id === null ? {} : { eventId: row.event_id }),
      });
    }
    return true;
  });
}

function pagePath(row: { event_id: number | null; series_id: string }): string {
  return row.event_id === null
    ? `/staff/series/${row.series_id}/webhooks`
    : `/staff/events/${row.event_id}/webhooks`;
}
