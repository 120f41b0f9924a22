/**
 * Who works on an event or a series: listing, granting (by email, creating and inviting the user
 * when new) and removing roles. Roles are read on every request (access/resolve.ts loadRoles and the
 * mobile-token lookup), so a removal takes effect on the next request of every device of that user.
 *
 * Who: event roles — event admins, series roles, global admins (`event_roles.manage`); series
 * roles — series owners and global admins (`series_roles.manage`). Errors: 404 `Role not found`
 * (unknown id, or a grant on another event/series); 409 `This user already has this role`; 409
 * `A series must keep at least one owner` when removing its last owner; 422 `Invalid email format`.
 * Every grant and removal is audited (`roles.grant` / `roles.revoke`, with the role and email).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { UserCtx, UserEventCtx, UserSeriesCtx } from '../../deps.js';
import { conflict, notFound } from '../../lib/errors.js';
import { normalizeEmail } from '../../lib/identifiers.js';
import { isOneOf } from '../../lib/narrow.js';
import { isoSql } from '../../lib/time.js';
import {
  createUser,
  EVENT_ROLES,
  findUserByEmail,
  grantEventRole,
  grantSeriesRole,
  revokeEventRole,
  revokeSeriesRole,
  SERIES_ROLES,
} from '../accounts/users.service.js';
import { recordAudit } from '../audit/audit.service.js';
import { queueEmail } from '../email/email.service.js';
import type { RoleEntryJson } from './team.schemas.js';

export const ROLE_NOT_FOUND = 'Role not found';
const INT = /^[0-9]{1,9}$/;

/** Where the roles live: an event's `event_roles` or a series' `series_roles`. */
interface Scope {
  table: 'event_roles' | 'series_roles';
  column: 'event_id' | 'series_id';
  id: number | string;
  name: string;
  audit: { eventId: number } | { seriesId: string };
}

function eventScope(ctx: UserEventCtx): Scope {
  const e = ctx.access.event;
  return { table: 'event_roles', column: 'event_id', id: e.id, name: e.name, audit: { eventId: e.id } };
}

function seriesScope(ctx: UserSeriesCtx): Scope {
  const s = ctx.access.series;
  return { table: 'series_roles', column: 'series_id', id: s.id, name: s.name, audit: { seriesId: s.id } };
}

async function entries(tx: Tx, scope: Scope, roleId?: number): Promise<RoleEntryJson[]> {
  const res = await tx.execute<{
    id: number;
    role: string;
    created_at: string;
    user_id: number;
    uuid: string;
    name: string;
    email: string;
  }>(
    sql`SELECT r.id, r.role, ${isoSql('r.created_at')} AS created_at, u.id AS user_id, u.uuid, u.name, u.email
          FROM ${sql.identifier(scope.table)} r JOIN users u ON u.id = r.user_id
         WHERE r.${sql.identifier(scope.column)} = ${scope.id}
           ${roleId === undefined ? sql`` : sql`AND r.id = ${roleId}`}
         ORDER BY lower(u.name), u.id, r.role`,
  );
  return res.rows.map((r) => ({
    id: r.id,
    role: r.role,
    user: { id: r.user_id, uuid: r.uuid, name: r.name, email: r.email },
    created_at: r.created_at,
  }));
}

export async function listEventRoles(ctx: UserEventCtx): Promise<{ roles: RoleEntryJson[] }> {
  return { roles: await entries(ctx.db, eventScope(ctx)) };
}

export async function listSeriesRoles(ctx: UserSeriesCtx): Promise<{ roles: RoleEntryJson[] }> {
  return { roles: await entries(ctx.db, seriesScope(ctx)) };
}

interface Granted {
  role: RoleEntryJson;
  user_created: boolean;
}

async function grant(
  ctx: UserCtx,
  scope: Scope,
  input: { email: string; role: string },
  insert: (tx: Tx, userId: number) => Promise<void>,
): Promise<Granted> {
  const actor = ctx.access.principal.user;
  return ctx.db.transaction(async (tx) => {
    const email = normalizeEmail(input.email);
    let user = await findUserByEmail(tx, email);
    const created = !user;
    // A new account is named after its email until the person signs in and sets a name.
    user ??= await createUser(tx, { email, name: email.split('@')[0] || email });
    const before = await tx.execute(
      sql`SELECT 1 FROM ${sql.identifier(scope.table)} WHERE user_id = ${user.id}
            AND ${sql.identifier(scope.column)} = ${scope.id} AND role = ${input.role}`,
    );
    if (before.rows.length > 0) throw conflict('This user already has this role');
    await insert(tx, user.id);
    const [entry] = (await entries(tx, scope)).filter((e) => e.user.id === user.id && e.role === input.role);
    if (created) {
      await queueEmail(ctx, tx, {
        to: user.email,
        template: 'staff_invitation',
        vars: {
          scope_name: scope.name,
          role: input.role.replace('_', ' '),
          invited_by: actor.name,
          sign_in_url: `${ctx.config.baseUrl}/signin`,
        },
        eventId: 'eventId' in scope.audit ? scope.audit.eventId : null,
      });
    }
    await recordAudit(tx, {
      action: 'roles.grant',
      principal: ctx.access.principal,
      ...scope.audit,
      targetType: 'user',
      targetId: user.id,
      metadata: { role: input.role, email: user.email, user_created: created },
    });
    return { role: entry!, user_created: created };
  });
}

export function grantEventRoleByEmail(
  ctx: UserEventCtx,
  input: { email: string; role: string },
): Promise<Granted> {
  const scope = eventScope(ctx);
  return grant(ctx, scope, input, (tx, userId) =>
    grantEventRole(tx, userId, ctx.access.event.id, input.role),
  );
}

export function grantSeriesRoleByEmail(
  ctx: UserSeriesCtx,
  input: { email: string; role: string },
): Promise<Granted> {
  const scope = seriesScope(ctx);
  return grant(ctx, scope, input, (tx, userId) =>
    grantSeriesRole(tx, userId, ctx.access.series.id, input.role),
  );
}

async function revoke(
  ctx: UserCtx,
  scope: Scope,
  rawId: string,
  remove: (tx: Tx, entry: RoleEntryJson) => Promise<void>,
): Promise<void> {
  if (!INT.test(rawId)) throw notFound(ROLE_NOT_FOUND);
  await ctx.db.transaction(async (tx) => {
    if (scope.table === 'series_roles') {
      // Serialises removals on this series so two concurrent ones cannot remove both last owners.
      await tx.execute(sql`SELECT id FROM series WHERE id = ${scope.id} FOR UPDATE`);
    }
    const [entry] = await entries(tx, scope, Number(rawId));
    if (!entry) throw notFound(ROLE_NOT_FOUND);
    if (scope.table === 'series_roles' && entry.role === 'owner') {
      const owners = await tx.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM series_roles WHERE series_id = ${scope.id} AND role = 'owner'`,
      );
      if (Number(one(owners.rows).n) <= 1) throw conflict('A series must keep at least one owner');
    }
    await remove(tx, entry);
    await recordAudit(tx, {
      action: 'roles.revoke',
      principal: ctx.access.principal,
      ...scope.audit,
      targetType: 'user',
      targetId: entry.user.id,
      metadata: { role: entry.role, email: entry.user.email },
    });
  });
}

export function removeEventRole(ctx: UserEventCtx, rawId: string): Promise<void> {
  const scope = eventScope(ctx);
  return revoke(ctx, scope, rawId, async (tx, e) => {
    if (!isOneOf(EVENT_ROLES, e.role)) throw notFound(ROLE_NOT_FOUND);
    await revokeEventRole(tx, e.user.id, ctx.access.event.id, e.role);
  });
}

export function removeSeriesRole(ctx: UserSeriesCtx, rawId: string): Promise<void> {
  const scope = seriesScope(ctx);
  return revoke(ctx, scope, rawId, async (tx, e) => {
    if (!isOneOf(SERIES_ROLES, e.role)) throw notFound(ROLE_NOT_FOUND);
    await revokeSeriesRole(tx, e.user.id, ctx.access.series.id, e.role);
  });
}
