/**
 * SQL of the guardian portal: the guardian a link names (by the SHA-256 digest of its token) and
 * the portal view. JSON is built by PostgreSQL with the same timestamp format as the rest of the API.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { one } from '../../../db/rows.js';
import type { RegistrationStatus } from '../../../db/schema/index.js';
import { isoSqlText as iso } from '../../../lib/time.js';

export type GuardianLink = {
  id: number;
  registrationId: number;
  guardianUserId: number | null;
  status: string;
  expired: boolean;
  registrationStatus: RegistrationStatus;
  eventId: number;
  seriesId: string;
  missingAnswers: string[];
};

/** The guardian whose invite token has this digest (row-locked when `lock`), or null. */
export async function guardianById(db: Tx, id: number, lock = false): Promise<GuardianLink | null> {
  const res = await db.execute<GuardianLink>(sql`
    SELECT g.id, g.registration_id AS "registrationId", g.guardian_user_id AS "guardianUserId", g.status,
           (g.invite_expires_at IS NULL OR g.invite_expires_at <= now()) AS expired,
           r.status AS "registrationStatus", r.event_id AS "eventId", e.series_id AS "seriesId",
           array_remove(ARRAY[
             CASE WHEN g.media_permission IS NULL THEN 'media_permission' END,
             CASE WHEN g.photo_permission IS NULL THEN 'photo_permission' END,
             CASE WHEN g.travel_permission IS NULL THEN 'travel_permission' END,
             CASE WHEN g.emergency_medical_consent IS NULL THEN 'emergency_medical_consent' END
           ], NULL) AS "missingAnswers"
      FROM guardians g JOIN registrations r ON r.id = g.registration_id JOIN events e ON e.id = r.event_id
     WHERE g.id = ${id}${lock ? sql` FOR UPDATE OF g, r` : sql``}`);
  const row = res.rows[0];
  return row ? { ...row, id: Number(row.id), registrationId: Number(row.registrationId) } : null;
}

const VIEW = `
  SELECT json_build_object(
    'guardian', json_build_object(
      'id', g.id, 'name', g.name, 'email', g.email, 'phone', g.phone, 'relationship', g.relationship,
      'is_primary', g.is_primary, 'status', g.status, 'accepted_at', ${iso('g.accepted_at')},
      'completed_at', ${iso('g.completed_at')}, 'invite_token_sent_at', ${iso('g.invite_token_sent_at')},
      'media_permission', g.media_permission, 'photo_permission', g.photo_permission,
      'travel_permission', g.travel_permission, 'emergency_medical_consent', g.emergency_medical_consent,
      'otc_medication_consent', g.otc_medication_consent,
      'emergency_contacts', COALESCE((SELECT json_agg(json_build_object('id', c.id, 'name', c.name,
          'phone', c.phone, 'email', c.email, 'relationship', c.relationship, 'priority', c.priority)
          ORDER BY c.priority, c.id) FROM emergency_contacts c WHERE c.guardian_id = g.id), '[]'::json)),
    'child', json_build_object(
      'participant_event_id', r.id,
      'display_name', COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name || ' ' || p.legal_last_name),
      'full_name', p.legal_first_name || ' ' || p.legal_last_name,
      'date_of_birth', to_char(p.date_of_birth, 'YYYY-MM-DD'),
      'age', date_part('year', age(COALESCE((e.starts_at AT TIME ZONE e.timezone)::date, current_date), p.date_of_birth))::int,
      'status', r.status,
      'authorized_pickup_adults', (SELECT sg.authorized_pickup_adults FROM registration_safeguarding sg
                                    WHERE sg.registration_id = r.id),
      'event', json_build_object('name', e.name, 'slug', e.slug, 'starts_at', ${iso('e.starts_at')},
        'ends_at', ${iso('e.ends_at')}, 'timezone', e.timezone, 'location_city', e.location_city,
        'support_email', e.support_email)),
    'consents', COALESCE((SELECT json_agg(json_build_object('id', c.id, 'consent_type', c.consent_type,
        'status', c.status, 'pending_on', c.pending_on, 'guardian_signed_at', ${iso('c.guardian_signed_at')},
        'signed_at', ${iso('c.signed_at')}) ORDER BY c.id)
        FROM consents c WHERE c.registration_id = r.id AND c.pending_on = 'guardian'
         AND c.status NOT IN ('signed', 'declined', 'expired')), '[]'::json),
    'expires_at', ${iso('g.invite_expires_at')}
  ) AS j
  FROM guardians g JOIN registrations r ON r.id = g.registration_id
  JOIN people p ON p.id = r.person_id JOIN events e ON e.id = r.event_id`;

/** The portal view of one guardian (without `permissions`, which the service adds). */
export async function portalView(db: Tx, guardianId: number): Promise<Record<string, unknown>> {
  const res = await db.execute<{ j: Record<string, unknown> }>(
    sql`${sql.raw(VIEW)} WHERE g.id = ${guardianId}`,
  );
  return one(res.rows).j;
}
