/**
 * Groups of an event (teams, cohorts, buses) and which registrations belong to them. Callers:
 * event admins, series roles and global admins (action `groups.manage`). Every write is audited
 * (group id and name; assignments: the registration and its new group ids).
 *
 * Errors: 404 `Group not found` (unknown id or another event's group), 404 `Participant not found
 * for this event`, 409 `A group with this name already exists` (names are unique per event,
 * case-insensitively), 422 for a blank/over-long name, a colour that is not `#RRGGBB`, or group ids
 * that are not groups of this event.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { UserEventCtx } from '../../deps.js';
import { conflict, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.js';
import { isoSql } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import { registrationInEvent } from '../notes/notes.service.js';
import { touchGroupMembers, touchRegistration } from '../participants/record/touch.js';
import {
  type CreateGroupInput,
  GROUP_NAME_MAX,
  type GroupJson,
  type SetGroupsInput,
  type UpdateGroupInput,
} from './groups.schemas.js';

export const GROUP_NOT_FOUND = 'Group not found';
const DUPLICATE = 'A group with this name already exists';
const INT = /^[0-9]{1,9}$/;
const COLOR = /^#[0-9a-f]{6}$/i;

function cleanName(raw: string): string {
  const name = raw.trim();
  if (!name) throw unprocessable('Group name cannot be blank');
  if (name.length > GROUP_NAME_MAX)
    throw unprocessable(`Group name must be at most ${GROUP_NAME_MAX} characters`);
  return name;
}

function cleanColor(raw: string | null): string | null {
  if (raw === null) return null;
  if (!COLOR.test(raw.trim())) throw unprocessable('Color must be a hex colour like #EC3750');
  return raw.trim().toUpperCase();
}

const groupSelect = sql`SELECT g.id, g.name, g.color,
  (SELECT count(*)::int FROM registration_groups rg WHERE rg.group_id = g.id) AS member_count,
  ${isoSql('g.created_at')} AS created_at, ${isoSql('g.updated_at')} AS updated_at FROM groups g`;

async function loadGroup(tx: Tx, eventId: number, id: number): Promise<GroupJson | undefined> {
  const res = await tx.execute<GroupJson>(sql`${groupSelect} WHERE g.event_id = ${eventId} AND g.id = ${id}`);
  return res.rows[0];
}

function groupId(raw: string): number {
  if (!INT.test(raw)) throw notFound(GROUP_NOT_FOUND);
  return Number(raw);
}

/** 404 `Group not found` unless `raw` names a group of the event (checked before the body). */
export async function groupInEvent(ctx: UserEventCtx, raw: string): Promise<void> {
  if (!(await loadGroup(ctx.db, ctx.access.event.id, groupId(raw)))) throw notFound(GROUP_NOT_FOUND);
}

/** The event's groups by name (case-insensitive), then id. */
export async function listGroups(ctx: UserEventCtx): Promise<{ groups: GroupJson[] }> {
  const event = ctx.access.event;
  const res = await ctx.db.execute<GroupJson>(
    sql`${groupSelect} WHERE g.event_id = ${event.id} ORDER BY lower(g.name), g.id`,
  );
  return { groups: res.rows };
}

async function writeGroup<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(DUPLICATE);
    throw error;
  }
}

export async function createGroup(ctx: UserEventCtx, input: CreateGroupInput): Promise<{ group: GroupJson }> {
  const event = ctx.access.event;
  const name = cleanName(input.name);
  const color = cleanColor(input.color ?? null);
  return writeGroup(() =>
    ctx.db.transaction(async (tx) => {
      const res = await tx.execute<{ id: number }>(
        sql`INSERT INTO groups (event_id, name, color) VALUES (${event.id}, ${name}, ${color}) RETURNING id`,
      );
      const id = Number(one(res.rows).id);
      await audit(ctx, tx, 'groups.create', id, { name, color });
      return { group: (await loadGroup(tx, event.id, id))! };
    }),
  );
}

export async function updateGroup(
  ctx: UserEventCtx,
  rawId: string,
  input: UpdateGroupInput,
): Promise<{ group: GroupJson }> {
  const event = ctx.access.event;
  const id = groupId(rawId);
  const name = input.name === undefined ? undefined : cleanName(input.name);
  const color = input.color === undefined ? undefined : cleanColor(input.color);
  return writeGroup(() =>
    ctx.db.transaction(async (tx) => {
      const res = await tx.execute(
        sql`UPDATE groups SET name = COALESCE(${name ?? null}::text, name),
                   color = CASE WHEN ${color !== undefined} THEN ${color ?? null}::text ELSE color END
             WHERE event_id = ${event.id} AND id = ${id} RETURNING id`,
      );
      if (res.rows.length === 0) throw notFound(GROUP_NOT_FOUND);
      await audit(ctx, tx, 'groups.update', id, { fields: Object.keys(input).sort() });
      return { group: (await loadGroup(tx, event.id, id))! };
    }),
  );
}

export async function deleteGroup(ctx: UserEventCtx, rawId: string): Promise<void> {
  const event = ctx.access.event;
  const id = groupId(rawId);
  await ctx.db.transaction(async (tx) => {
    // Memberships go with the group (ON DELETE CASCADE); their registrations count as changed.
    await touchGroupMembers(tx, event.id, id);
    const res = await tx.execute<{ name: string }>(
      sql`DELETE FROM groups WHERE event_id = ${event.id} AND id = ${id} RETURNING name`,
    );
    if (res.rows.length === 0) throw notFound(GROUP_NOT_FOUND);
    await audit(ctx, tx, 'groups.delete', id, { name: one(res.rows).name });
  });
}

export interface Membership {
  participant_event_id: number;
  groups: { id: number; name: string; color: string | null }[];
}

/**
 * Replaces the registration's groups with `group_ids` (duplicates ignored) and bumps its
 * `updated_at` so participant syncs pick the change up.
 */
export async function setRegistrationGroups(
  ctx: UserEventCtx,
  rawRegistration: string,
  input: SetGroupsInput,
): Promise<Membership> {
  const event = ctx.access.event;
  const registrationId = await registrationInEvent(ctx, rawRegistration);
  const ids = [...new Set(input.group_ids)].sort((a, b) => a - b);
  return ctx.db.transaction(async (tx) => {
    const idList = sql.raw(ids.length ? ids.join(',') : 'NULL');
    const known = await tx.execute<{ id: number }>(
      sql`SELECT id FROM groups WHERE event_id = ${event.id} AND id IN (${idList})`,
    );
    const found = new Set(known.rows.map((r) => Number(r.id)));
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length > 0) throw unprocessable(`Not groups of this event: ${unknown.join(', ')}`);
    await tx.execute(sql`DELETE FROM registration_groups WHERE registration_id = ${registrationId}`);
    if (ids.length > 0)
      await tx.execute(
        sql`INSERT INTO registration_groups (registration_id, group_id)
            SELECT ${registrationId}, id FROM groups WHERE event_id = ${event.id} AND id IN (${idList})`,
      );
    await touchRegistration(tx, registrationId);
    await recordAudit(tx, {
      action: 'groups.assign',
      principal: ctx.access.principal,
      eventId: event.id,
      targetType: 'registration',
      targetId: registrationId,
      metadata: { group_ids: ids },
    });
    const res = await tx.execute<{ id: number; name: string; color: string | null }>(
      sql`SELECT g.id, g.name, g.color FROM registration_groups rg JOIN groups g ON g.id = rg.group_id
           WHERE rg.registration_id = ${registrationId} ORDER BY lower(g.name), g.id`,
    );
    return { participant_event_id: registrationId, groups: res.rows };
  });
}

function audit(ctx: UserEventCtx, tx: Tx, action: string, id: number, metadata: Record<string, unknown>) {
  return recordAudit(tx, {
    action,
    principal: ctx.access.principal,
    eventId: ctx.access.event.id,
    targetType: 'group',
    targetId: id,
    metadata,
  });
}
