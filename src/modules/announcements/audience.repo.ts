/**
 * Who an announcement reaches, resolved now: one row per distinct address (lower-cased), so a
 * guardian of two children, or a person on the team twice, gets one email. Ordered by the first
 * registration (or user) they come from, then address: the preview shows the first row.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import { IS_MINOR } from '../exports/presets.js';
import type { Audience } from './announcements.schemas.js';

export type AudienceMember = {
  email: string;
  /** Participants: preferred or legal first name; guardians and staff: their name ('' unknown). */
  name: string;
  kind: 'participant' | 'guardian' | 'staff';
  /** Guardians: their children's first names; participants: their own; staff: empty. */
  participant_names: string[];
  registration_id: number | null;
  /** The language they chose (a participant's or staff member's account, a guardian's own), or null. */
  language: string | null;
};

const FIRST_NAME = `COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name)`;

function query(eventId: number, audience: Audience, statuses: readonly string[]): SQL {
  const inStatus = sql`r.status IN (${sql.join(
    statuses.map((s) => sql`${s}`),
    sql`, `,
  )})`;
  if (audience === 'staff')
    return sql`SELECT lower(btrim(u.email)) AS email, min(u.name) AS name, 'staff' AS kind,
                      ARRAY[]::text[] AS participant_names, NULL::int AS registration_id, min(u.id) AS k,
                      min(u.language) AS language
                 FROM event_roles er JOIN users u ON u.id = er.user_id
                WHERE er.event_id = ${eventId} AND btrim(u.email) <> ''
                GROUP BY lower(btrim(u.email))`;
  if (audience === 'participants')
    return sql`SELECT lower(btrim(p.email)) AS email, min(${sql.raw(FIRST_NAME)}) AS name, 'participant' AS kind,
                      array_agg(${sql.raw(FIRST_NAME)} ORDER BY r.id) AS participant_names,
                      min(r.id) AS registration_id, min(r.id) AS k,
                      (array_agg(u.language ORDER BY r.id) FILTER (WHERE u.language IS NOT NULL))[1] AS language
                 FROM registrations r JOIN people p ON p.id = r.person_id
                 LEFT JOIN users u ON u.id = p.user_id
                WHERE r.event_id = ${eventId} AND ${inStatus} AND btrim(p.email) <> ''
                GROUP BY lower(btrim(p.email))`;
  const primary = audience === 'guardians_primary' ? sql` AND g.is_primary` : sql``;
  return sql`SELECT lower(btrim(g.email)) AS email,
                    COALESCE((array_agg(btrim(g.name) ORDER BY g.is_primary DESC, g.id) FILTER (WHERE btrim(g.name) <> ''))[1], '') AS name,
                    'guardian' AS kind,
                    array_agg(DISTINCT ${sql.raw(FIRST_NAME)}) AS participant_names,
                    min(r.id) AS registration_id, min(r.id) AS k,
                    (array_agg(g.language ORDER BY g.is_primary DESC, g.id) FILTER (WHERE g.language IS NOT NULL))[1] AS language
               FROM guardians g JOIN registrations r ON r.id = g.registration_id
               JOIN people p ON p.id = r.person_id JOIN events e ON e.id = r.event_id
              WHERE r.event_id = ${eventId} AND ${inStatus} AND ${sql.raw(IS_MINOR)}
                AND g.email IS NOT NULL AND btrim(g.email) <> ''${primary}
              GROUP BY lower(btrim(g.email))`;
}

/** Every member of the audience (`limit`: the first ones only, e.g. 1 for a preview). */
export async function resolveAudience(
  db: Tx,
  eventId: number,
  audience: Audience,
  statuses: readonly string[],
  limit?: number,
): Promise<AudienceMember[]> {
  const res = await db.execute<AudienceMember & { k: number }>(
    sql`SELECT * FROM (${query(eventId, audience, statuses)}) a ORDER BY a.k, a.email${limit ? sql` LIMIT ${limit}` : sql``}`,
  );
  return res.rows.map(({ k: _k, ...m }) => ({
    ...m,
    registration_id: m.registration_id === null ? null : Number(m.registration_id),
  }));
}

/** How many distinct addresses the audience has now. */
export async function countAudience(
  db: Tx,
  eventId: number,
  audience: Audience,
  statuses: readonly string[],
): Promise<number> {
  const res = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM (${query(eventId, audience, statuses)}) a`,
  );
  return one(res.rows).n;
}
