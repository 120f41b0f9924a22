/**
 * The history of one registration for the staff participant page: the audit
 * entries about it (target the registration, one of its consents, or naming it in
 * `metadata.registration_id`), newest first, as "who did what, when, to which fields". Never
 * values: metadata passes the audit trail's allow-list (METADATA_KEYS), and for a caller who may
 * not see sensitive data, the names of sensitive fields (access/record-write.ts) are replaced by
 * `sensitive section` and entries about restricted notes are left out (the notes policy); for a
 * caller who may not see PII (`limited`), addresses in metadata are left out.
 */
import { sql } from 'drizzle-orm';
import { SENSITIVE_WRITE_KEYS } from '../../access/record-write.js';
import type { EventCtx } from '../../deps.js';
import { isoSql } from '../../lib/time.js';
import { METADATA_KEYS } from './audit-log.service.js';

export interface HistoryEntry {
  id: number;
  action: string;
  /** ISO 8601 UTC. */
  created_at: string;
  /** The user who acted (name, else email), or null (guardian link, webhook, system). */
  actor: string | null;
  /** How they acted: `mobile`, `session`, `cli`, `guardian_link`, `webhook`, … */
  via: string | null;
  /** Allow-listed metadata (identifiers, field names, statuses, counts). */
  metadata: Record<string, unknown>;
}

interface Row extends Record<string, unknown> {
  id: number | string;
  action: string;
  created_at: string;
  actor: string | null;
  via: string | null;
  metadata: Record<string, unknown> | null;
}

const SENSITIVE_HIDDEN = 'sensitive section';

function hideSensitive(names: unknown): unknown {
  if (!Array.isArray(names)) return names;
  const out = names.map((n) =>
    typeof n === 'string' && SENSITIVE_WRITE_KEYS.includes(n.split('.')[0]!) ? SENSITIVE_HIDDEN : n,
  );
  return [...new Set(out)];
}

/** At most `limit` entries about registration `registrationId` of the authorised event. */
export async function registrationHistory(
  ctx: EventCtx,
  registrationId: number,
  limit = 100,
): Promise<HistoryEntry[]> {
  const id = String(registrationId);
  const res = await ctx.db.execute<Row>(
    sql`SELECT a.id, a.action, ${isoSql('a.created_at')} AS created_at,
               COALESCE(NULLIF(u.name, ''), u.email) AS actor, a.credential_kind AS via, a.metadata
          FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
         WHERE a.event_id = ${ctx.access.event.id}
           AND ((a.target_type = 'registration' AND a.target_id = ${id})
             OR a.metadata->>'registration_id' = ${id}
             OR (a.target_type = 'consent' AND a.target_id IN
                  (SELECT c.id::text FROM consents c WHERE c.registration_id = ${registrationId})))
         ORDER BY a.id DESC LIMIT ${limit}`,
  );
  const sensitive = ctx.access.visibility.sensitive;
  return res.rows
    .filter((r) => sensitive || r.metadata?.sensitivity !== 'restricted')
    .map((r) => {
      const metadata = Object.fromEntries(
        Object.entries(r.metadata ?? {}).filter(([k]) => METADATA_KEYS.has(k)),
      );
      // An address in metadata (e.g. a guardian's invitation) is PII: hidden from `limited`.
      if (!ctx.access.visibility.pii) delete metadata.email;
      if (!sensitive) {
        for (const key of ['fields', 'sections'])
          if (key in metadata) metadata[key] = hideSensitive(metadata[key]);
      }
      return {
        id: Number(r.id),
        action: r.action,
        created_at: r.created_at,
        actor: r.actor,
        via: r.via,
        metadata,
      };
    });
}
