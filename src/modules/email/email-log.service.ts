/**
 * The email log read (docs/decisions.md "Messaging": provider events and suppressed addresses show in the email
 * log). Newest first, keyset-paged by id. Global admins only (action `email_log.read`).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../deps.js';
import { isoTimestamp } from '../../lib/time.js';

export interface EmailLogInput {
  email?: string;
  status?: string;
  event_id?: number;
  before_id?: number;
  limit: number;
}

type Row = {
  id: number;
  to_email: string;
  from_email: string;
  template: string;
  subject: string;
  status: string;
  event_id: number | null;
  error: string | null;
  address_suppressed: boolean;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  opened_at: string | null;
  bounced_at: string | null;
};

export async function listEmailLog(ctx: Ctx, input: EmailLogInput) {
  const where: SQL[] = [sql`true`];
  if (input.email) where.push(sql`lower(l.to_email) = lower(${input.email.trim()})`);
  if (input.status) where.push(sql`l.status = ${input.status}`);
  if (input.event_id) where.push(sql`l.event_id = ${input.event_id}`);
  if (input.before_id) where.push(sql`l.id < ${input.before_id}`);
  const res = await ctx.db.execute<Row>(sql`
    SELECT l.id, l.to_email, l.from_email, l.template, l.subject, l.status, l.event_id, l.error,
           EXISTS (SELECT 1 FROM email_suppressions s WHERE lower(s.email) = lower(l.to_email)) AS address_suppressed,
           l.created_at, l.sent_at, l.delivered_at, l.opened_at, l.bounced_at
      FROM email_log l
     WHERE ${sql.join(where, sql` AND `)}
     ORDER BY l.id DESC
     LIMIT ${input.limit + 1}`);
  const rows = res.rows.slice(0, input.limit);
  return {
    email_log: rows.map((r) => ({
      id: Number(r.id),
      to_email: r.to_email,
      from_email: r.from_email,
      template: r.template,
      subject: r.subject,
      status: r.status,
      event_id: r.event_id === null ? null : Number(r.event_id),
      error: r.error,
      address_suppressed: r.address_suppressed,
      created_at: isoTimestamp(r.created_at)!,
      sent_at: isoTimestamp(r.sent_at),
      delivered_at: isoTimestamp(r.delivered_at),
      opened_at: isoTimestamp(r.opened_at),
      bounced_at: isoTimestamp(r.bounced_at),
    })),
    has_more: res.rows.length > input.limit,
  };
}
