/**
 * Counts behind the staff home and the event overview (docs/staff-dashboard.md). Check-in progress
 * counts `complete` registrations (the people expected at the door) that have a scan in a
 * `checks_in` context (docs/decisions.md "Participants API" `checked_in_at`). Every query carries the event id(s).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';

const idArray = (ids: readonly number[]) => `{${ids.join(',')}}`;

/** Registrations per event and status. */
export async function statusCounts(db: Tx, eventIds: readonly number[]) {
  if (eventIds.length === 0) return [];
  const res = await db.execute<{ event_id: number; status: string; n: string | number }>(
    sql`SELECT r.event_id, r.status, count(*) AS n FROM registrations r
         WHERE r.event_id = ANY(${idArray(eventIds)}::int[]) GROUP BY r.event_id, r.status`,
  );
  return res.rows.map((r) => ({ event_id: Number(r.event_id), status: r.status, n: Number(r.n) }));
}

/** Per event: complete registrations and how many of them are checked in. */
export async function checkinProgress(db: Tx, eventIds: readonly number[]) {
  if (eventIds.length === 0) return [];
  const res = await db.execute<{ event_id: number; complete: string | number; checked_in: string | number }>(
    sql`SELECT r.event_id, count(*) AS complete,
               count(*) FILTER (WHERE EXISTS (SELECT 1 FROM scans s JOIN scan_contexts sc
                 ON sc.id = s.scan_context_id AND sc.checks_in WHERE s.registration_id = r.id)) AS checked_in
          FROM registrations r
         WHERE r.event_id = ANY(${idArray(eventIds)}::int[]) AND r.status = 'complete'
         GROUP BY r.event_id`,
  );
  return res.rows.map((r) => ({
    event_id: Number(r.event_id),
    complete: Number(r.complete),
    checked_in: Number(r.checked_in),
  }));
}

/**
 * Each scan context of the event (by position) with how many complete registrations it scanned
 * and, where it tracks presence, how many registrations are inside now (newest scan there an
 * entry, docs/checkin.md "Presence"; null elsewhere).
 */
export async function contextProgress(db: Tx, eventId: number) {
  const res = await db.execute<{
    id: number;
    name: string;
    checks_in: boolean;
    is_travel_pickup: boolean;
    tracks_presence: boolean;
    scanned: string | number;
    inside: string | number | null;
  }>(
    sql`SELECT sc.id, sc.name, sc.checks_in, sc.is_travel_pickup, sc.tracks_presence,
               (SELECT count(DISTINCT s.registration_id) FROM scans s JOIN registrations r ON r.id = s.registration_id
                 WHERE s.scan_context_id = sc.id AND s.event_id = ${eventId} AND r.status = 'complete') AS scanned,
               CASE WHEN sc.tracks_presence THEN
                 (SELECT count(*) FROM (SELECT DISTINCT ON (s.registration_id) s.type FROM scans s
                                          WHERE s.scan_context_id = sc.id
                                          ORDER BY s.registration_id, s.scanned_at DESC, s.id DESC) last
                   WHERE last.type = 'entry') END AS inside
          FROM scan_contexts sc WHERE sc.event_id = ${eventId} ORDER BY sc.position, sc.id`,
  );
  return res.rows.map((r) => ({
    ...r,
    id: Number(r.id),
    scanned: Number(r.scanned),
    inside: r.inside === null ? null : Number(r.inside),
  }));
}

/**
 * Consents not yet signed (pending, sent or viewed) by type, over registrations that are neither
 * withdrawn nor rejected.
 */
export async function consentsOutstanding(db: Tx, eventId: number) {
  const res = await db.execute<{ consent_type: string; n: string | number }>(
    sql`SELECT c.consent_type, count(*) AS n FROM consents c JOIN registrations r ON r.id = c.registration_id
         WHERE r.event_id = ${eventId} AND r.status NOT IN ('withdrawn', 'rejected')
           AND c.status IN ('pending', 'sent', 'viewed')
         GROUP BY c.consent_type ORDER BY c.consent_type`,
  );
  return res.rows.map((r) => ({ consent_type: r.consent_type, count: Number(r.n) }));
}

/** Guardians not yet completed, over registrations awaiting a guardian. */
export async function guardiansPending(db: Tx, eventId: number): Promise<number> {
  const res = await db.execute<{ n: string | number }>(
    sql`SELECT count(*) AS n FROM guardians g JOIN registrations r ON r.id = g.registration_id
         WHERE r.event_id = ${eventId} AND r.status = 'awaiting_guardian' AND g.status <> 'completed'`,
  );
  return Number(res.rows[0]?.n ?? 0);
}

/** Invitations emailed and not yet accepted (status `pending`, lapsed ones included) and how many lapsed. */
export async function pendingInvitationCounts(db: Tx, eventId: number) {
  const res = await db.execute<{ n: string | number; lapsed: string | number }>(
    sql`SELECT count(*) AS n, count(*) FILTER (WHERE expires_at <= now()) AS lapsed
          FROM invitations WHERE event_id = ${eventId} AND status = 'pending'`,
  );
  return { pending: Number(res.rows[0]?.n ?? 0), lapsed: Number(res.rows[0]?.lapsed ?? 0) };
}
