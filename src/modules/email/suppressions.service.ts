/**
 * The email suppression list (docs/decisions.md "Messaging": hard bounces and complaints stop further mail). Read it
 * and lift an entry (global admins only, action `email_suppressions.manage`): after a lift the
 * address receives email again; the lift is audited (`email_suppressions.delete`, the entry's id and
 * reason; the address itself stays out of the audit metadata).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../deps.js';
import { notFound } from '../../lib/errors.js';
import { isoTimestamp } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';

export const SUPPRESSION_NOT_FOUND = 'Suppression not found';

export interface SuppressionListInput {
  email?: string;
  before_id?: number;
  limit: number;
}

type Row = { id: number; email: string; reason: string; email_log_id: number | null; created_at: string };

/** GET /email_suppressions → `{email_suppressions, has_more}`, newest first, keyset-paged by id. */
export async function listSuppressions(ctx: Ctx, input: SuppressionListInput) {
  const where: SQL[] = [sql`true`];
  if (input.email) where.push(sql`lower(s.email) = lower(${input.email.trim()})`);
  if (input.before_id) where.push(sql`s.id < ${input.before_id}`);
  const res = await ctx.db.execute<Row>(sql`
    SELECT s.id, s.email, s.reason, s.email_log_id, s.created_at FROM email_suppressions s
     WHERE ${sql.join(where, sql` AND `)} ORDER BY s.id DESC LIMIT ${input.limit + 1}`);
  return {
    email_suppressions: res.rows.slice(0, input.limit).map((r) => ({
      id: Number(r.id),
      email: r.email,
      reason: r.reason,
      email_log_id: r.email_log_id === null ? null : Number(r.email_log_id),
      created_at: isoTimestamp(r.created_at)!,
    })),
    has_more: res.rows.length > input.limit,
  };
}

/** DELETE /email_suppressions/{email} → `{success, email}`; 404 `Suppression not found`. */
export async function liftSuppression(ctx: Ctx, email: string) {
  return ctx.db.transaction(async (tx) => {
    const res = await tx.execute<{ id: number; email: string; reason: string }>(
      sql`DELETE FROM email_suppressions WHERE lower(email) = lower(${email.trim()}) RETURNING id, email, reason`,
    );
    const row = res.rows[0];
    if (!row) throw notFound(SUPPRESSION_NOT_FOUND);
    await recordAudit(tx, {
      action: 'email_suppressions.delete',
      principal: ctx.access.principal,
      targetType: 'email_suppression',
      targetId: Number(row.id),
      metadata: { reason: row.reason },
    });
    return { success: true as const, email: row.email };
  });
}
