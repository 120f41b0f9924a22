/**
 * The registrations of an event with their groups, for the groups page's assignment table
 * (docs/staff-dashboard.md "Groups"): names (preferred or legal first name, legal last name),
 * status and group ids, by last then first name; `q` narrows by name or email (case-insensitive),
 * `ids` to given registrations. Callers: `groups.manage` (event admins, series roles, global admins).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { UserEventCtx } from '../../deps.js';

export type MemberRow = {
  id: number;
  name: string;
  status: string;
  group_ids: number[];
};

export async function listMembers(
  ctx: UserEventCtx,
  opts: { q?: string; ids?: number[]; limit: number },
): Promise<{ members: MemberRow[]; has_more: boolean }> {
  const where: SQL[] = [sql`r.event_id = ${ctx.access.event.id}`];
  const q = opts.q?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      sql`(p.legal_first_name || ' ' || p.legal_last_name ILIKE ${like} OR p.preferred_name ILIKE ${like} OR p.email ILIKE ${like})`,
    );
  }
  if (opts.ids)
    where.push(
      opts.ids.length
        ? sql`r.id IN (${sql.join(
            opts.ids.map((i) => sql`${i}`),
            sql`, `,
          )})`
        : sql`false`,
    );
  const res = await ctx.db.execute<MemberRow>(
    sql`SELECT r.id, COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name) || ' ' || p.legal_last_name AS name,
               r.status, COALESCE((SELECT array_agg(rg.group_id ORDER BY rg.group_id) FROM registration_groups rg WHERE rg.registration_id = r.id), '{}') AS group_ids
          FROM registrations r JOIN people p ON p.id = r.person_id
         WHERE ${sql.join(where, sql` AND `)}
         ORDER BY lower(p.legal_last_name), lower(p.legal_first_name), r.id LIMIT ${opts.limit + 1}`,
  );
  return {
    members: res.rows
      .slice(0, opts.limit)
      .map((r) => ({ ...r, id: Number(r.id), group_ids: r.group_ids.map(Number) })),
    has_more: res.rows.length > opts.limit,
  };
}
