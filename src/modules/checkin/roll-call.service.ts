/**
 * The roll call of a presence-tracking scan context (docs/checkin.md "Roll call"): who is inside
 * (newest scan an entry), who left (newest scan an exit: when, and who collected them), and who
 * was expected and never arrived (a registration that is not withdrawn or rejected, with no scan
 * there). Names only, plus `collected_by` for callers who may read personal data (as the scan
 * answers carry it). Read by the roll-call page (staff-web/roll-call.web.ts).
 */
import { sql } from 'drizzle-orm';
import type { EventCtx } from '../../deps.js';

export interface RollCallPerson {
  participant_event_id: number;
  display_name: string;
  /** Newest entry in the context (ISO 8601 UTC), or null. */
  entered_at: string | null;
  /** Newest exit in the context (ISO 8601 UTC), or null. */
  left_at: string | null;
  /** Who collected them at that exit (callers who may read personal data only; else null). */
  collected_by: string | null;
}

export interface RollCall {
  inside: RollCallPerson[];
  left: RollCallPerson[];
  not_arrived: RollCallPerson[];
}

type Row = RollCallPerson & { last_type: 'entry' | 'exit' | null } & Record<string, unknown>;

/** The roll call of context `contextId` (a context of the caller's event). */
export async function rollCall(ctx: EventCtx, contextId: number): Promise<RollCall> {
  const pii = ctx.access.visibility.pii;
  const res = await ctx.db.execute<Row>(sql`
    SELECT r.id AS participant_event_id,
           COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name || ' ' || p.legal_last_name) AS display_name,
           last.type AS last_type,
           to_char((SELECT max(s.scanned_at) FROM scans s WHERE s.registration_id = r.id
                      AND s.scan_context_id = ${contextId} AND s.type = 'entry') AT TIME ZONE 'UTC',
                   'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS entered_at,
           to_char(CASE WHEN last.type = 'exit' THEN last.scanned_at END AT TIME ZONE 'UTC',
                   'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS left_at,
           CASE WHEN ${pii} AND last.type = 'exit' THEN last.collected_by END AS collected_by
      FROM registrations r JOIN people p ON p.id = r.person_id
      LEFT JOIN LATERAL (SELECT s.type, s.scanned_at, s.collected_by FROM scans s
                          WHERE s.registration_id = r.id AND s.scan_context_id = ${contextId}
                          ORDER BY s.scanned_at DESC, s.id DESC LIMIT 1) last ON true
     WHERE r.event_id = ${ctx.access.event.id}
       AND (last.type IS NOT NULL OR r.status NOT IN ('withdrawn', 'rejected'))
     ORDER BY lower(COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name || ' ' || p.legal_last_name)), r.id`);
  const out: RollCall = { inside: [], left: [], not_arrived: [] };
  for (const { last_type, ...row } of res.rows) {
    const person = { ...row, participant_event_id: Number(row.participant_event_id) };
    if (last_type === 'entry') out.inside.push(person);
    else if (last_type === 'exit') out.left.push(person);
    else out.not_arrived.push(person);
  }
  return out;
}
