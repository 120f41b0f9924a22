/** GET /me and GET /events (spec "Account and credentials"; docs/decisions.md "Credentials and roles"). */
import { sql } from 'drizzle-orm';
import type { EventRole, SeriesRole } from '../../access/policy.js';
import { userMeets, visibilityFor, widestRole, widestSeriesRole } from '../../access/policy.js';
import { one } from '../../db/rows.js';
import type { EventModules } from '../../db/schema/index.js';
import type { UserCtx } from '../../deps.js';
import { isoTimestamp } from '../../lib/time.js';

/** `{id, email, name, global_admin, is_organizer, is_participant}`. */
export async function getMe(ctx: UserCtx) {
  const { user } = ctx.access.principal;
  const res = await ctx.db.execute<{ organizer: boolean; participant: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM event_roles WHERE user_id = ${user.id})
        OR EXISTS (SELECT 1 FROM series_roles WHERE user_id = ${user.id}) AS organizer,
           EXISTS (SELECT 1 FROM registrations r JOIN people p ON p.id = r.person_id
                    WHERE p.user_id = ${user.id} OR lower(p.email) = lower(${user.email})) AS participant`);
  const row = one(res.rows);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    global_admin: user.globalAdmin,
    is_organizer: user.globalAdmin || row.organizer,
    is_participant: row.participant,
  };
}

interface AccessibleEventRow extends Record<string, unknown> {
  id: number;
  name: string;
  slug: string;
  starts_at: string | null;
  ends_at: string | null;
  timezone: string;
  location_city: string | null;
  logo_url: string | null;
  banner_url: string | null;
  modules: EventModules;
  event_roles: EventRole[];
  series_roles: SeriesRole[];
}

/**
 * Accessible-event entries, ordered by start date (no date last): all events for a global admin,
 * otherwise events where the user holds an event role or a series role. Each entry also carries
 * `role` (global_admin, the widest event role, or `series_member` when reached only through a
 * series role), `series_role` (owner/organizer or null) and the mobile app's capability flags
 * (docs/decisions.md "Credentials and roles").
 */
export async function listAccessibleEvents(ctx: UserCtx) {
  const { user } = ctx.access.principal;
  const res = await ctx.db.execute<AccessibleEventRow>(sql`
    SELECT e.id, e.name, e.slug, e.starts_at, e.ends_at, e.timezone, e.location_city, e.logo_url, e.banner_url, e.modules,
           COALESCE((SELECT array_agg(er.role ORDER BY er.role) FROM event_roles er WHERE er.event_id = e.id AND er.user_id = ${user.id}), '{}') AS event_roles,
           COALESCE((SELECT array_agg(sr.role ORDER BY sr.role) FROM series_roles sr WHERE sr.series_id = e.series_id AND sr.user_id = ${user.id}), '{}') AS series_roles
      FROM events e
     WHERE ${user.globalAdmin}
        OR EXISTS (SELECT 1 FROM event_roles er WHERE er.event_id = e.id AND er.user_id = ${user.id})
        OR EXISTS (SELECT 1 FROM series_roles sr WHERE sr.series_id = e.series_id AND sr.user_id = ${user.id})
     ORDER BY e.starts_at ASC NULLS LAST, e.name, e.id`);
  return {
    events: res.rows.map((e) => {
      const roles = { event: new Set(e.event_roles), series: new Set(e.series_roles) };
      const visibility = visibilityFor(ctx.access.principal, roles);
      return {
        id: e.id,
        name: e.name,
        slug: e.slug,
        starts_at: isoTimestamp(e.starts_at),
        ends_at: isoTimestamp(e.ends_at),
        timezone: e.timezone,
        location_city: e.location_city,
        logo_url: e.logo_url,
        banner_url: e.banner_url,
        role: widestRole(user, roles),
        series_role: widestSeriesRole(roles),
        can_view_participants: userMeets('participants', user, roles),
        can_view_participant_pii: visibility.pii,
        can_view_sensitive_data: visibility.sensitive,
        travel_enabled: e.modules.travel_enabled,
      };
    }),
  };
}
