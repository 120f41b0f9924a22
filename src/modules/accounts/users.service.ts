/** Users and role grants (docs/decisions.md "Credentials and roles"). Used by the CLI, the demo seed and tests. */
import { and, eq, sql } from 'drizzle-orm';
import type { EventRole, SeriesRole } from '../../access/policy.js';
import type { Tx } from '../../db/client.js';
import { eventRoles, seriesRoles, users } from '../../db/schema/index.js';
import { notFound, unprocessable } from '../../lib/errors.js';
import { EMAIL_PATTERN, normalizeEmail } from '../../lib/identifiers.js';
import { isOneOf } from '../../lib/narrow.js';

export type UserRow = typeof users.$inferSelect;
export const EVENT_ROLES: readonly EventRole[] = [
  'event_admin',
  'ops',
  'safeguarding_lead',
  'limited',
  'read_only',
];
export const SERIES_ROLES: readonly SeriesRole[] = ['owner', 'organizer'];

export async function findUserByEmail(tx: Tx, email: string): Promise<UserRow | undefined> {
  const [row] = await tx
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`);
  return row;
}

/** Creates a user; 422 for a malformed email, 409-style error when it exists. */
export async function createUser(
  tx: Tx,
  input: { email: string; name: string; globalAdmin?: boolean },
): Promise<UserRow> {
  const email = normalizeEmail(input.email);
  if (!EMAIL_PATTERN.test(email)) throw unprocessable('Invalid email format');
  if (!input.name.trim()) throw unprocessable('Name is required');
  if (await findUserByEmail(tx, email)) throw unprocessable(`A user with email ${email} already exists`);
  const [row] = await tx
    .insert(users)
    .values({ email, name: input.name.trim(), globalAdmin: input.globalAdmin ?? false })
    .returning();
  return row!;
}

export async function setGlobalAdmin(tx: Tx, userId: number, globalAdmin: boolean): Promise<void> {
  await tx.update(users).set({ globalAdmin }).where(eq(users.id, userId));
}

export async function grantEventRole(tx: Tx, userId: number, eventId: number, role: string): Promise<void> {
  if (!isOneOf(EVENT_ROLES, role)) throw unprocessable(`Unknown event role: ${role}`);
  await tx.insert(eventRoles).values({ userId, eventId, role }).onConflictDoNothing();
}

export async function grantSeriesRole(tx: Tx, userId: number, seriesId: string, role: string): Promise<void> {
  if (!isOneOf(SERIES_ROLES, role)) throw unprocessable(`Unknown series role: ${role}`);
  await tx.insert(seriesRoles).values({ userId, seriesId, role }).onConflictDoNothing();
}

export async function revokeEventRole(
  tx: Tx,
  userId: number,
  eventId: number,
  role: EventRole,
): Promise<void> {
  await tx
    .delete(eventRoles)
    .where(and(eq(eventRoles.userId, userId), eq(eventRoles.eventId, eventId), eq(eventRoles.role, role)));
}

export async function revokeSeriesRole(
  tx: Tx,
  userId: number,
  seriesId: string,
  role: SeriesRole,
): Promise<void> {
  await tx
    .delete(seriesRoles)
    .where(
      and(eq(seriesRoles.userId, userId), eq(seriesRoles.seriesId, seriesId), eq(seriesRoles.role, role)),
    );
}

export async function requireUserByEmail(tx: Tx, email: string): Promise<UserRow> {
  const user = await findUserByEmail(tx, email);
  if (!user) throw notFound(`No user with email ${normalizeEmail(email)}`);
  return user;
}
