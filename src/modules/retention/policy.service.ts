/**
 * Retention policies per event (docs/privacy.md "Retention and shredding"): read, set, preview,
 * download, and the daily application by the `retention-prune` job. A policy is due `days_after_end`
 * days after the event's `ends_at` (or `starts_at` when it has no end); `due_on` is that date in the
 * event's time zone. Setting a policy, and every shredding, is audited (categories and counts only).
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { type RetentionCategory, retentionCategories } from '../../db/schema/retention.js';
import type { EventCtx, UserEventCtx } from '../../deps.js';
import { recordAudit } from '../audit/audit.service.js';
import { applyTargets, countTargets, rowsOfTargets, shredTargets } from './shred.service.js';

export type PolicyJson = {
  categories: RetentionCategory[];
  days_after_end: number;
  /** When the policy applies (the event's end + days), ISO 8601 UTC; null when the event has no dates. */
  due_at: string | null;
  /** The same day in the event's time zone, YYYY-MM-DD. */
  due_on: string | null;
  applied_at: string | null;
};

const WORDS: Record<RetentionCategory, string> = {
  sensitive: 'medical, dietary, accessibility, safeguarding and rooming data',
  pii: 'contact details, guardians and emergency contacts',
  travel: 'travel details',
  notes: 'staff notes',
  scans: 'scan details (who collected whom)',
  uploads: 'signed consent documents and photos',
};

async function readPolicy(db: Tx, eventId: number): Promise<PolicyJson | null> {
  const res = await db.execute<PolicyJson>(sql`
    SELECT p.categories, p.days_after_end,
           to_char((coalesce(e.ends_at, e.starts_at) + make_interval(days => p.days_after_end)) AT TIME ZONE 'UTC',
                   'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS due_at,
           to_char((coalesce(e.ends_at, e.starts_at) + make_interval(days => p.days_after_end)) AT TIME ZONE e.timezone,
                   'YYYY-MM-DD') AS due_on,
           to_char(p.applied_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS applied_at
      FROM retention_policies p JOIN events e ON e.id = p.event_id WHERE p.event_id = ${eventId}`);
  return res.rows[0] ?? null;
}

export async function getPolicy(ctx: EventCtx): Promise<{ policy: PolicyJson | null }> {
  return { policy: await readPolicy(ctx.db, ctx.access.event.id) };
}

/** Sets (replaces) the event's policy; `categories: []` keeps everything. */
export async function putPolicy(
  ctx: UserEventCtx,
  body: { categories: RetentionCategory[]; days_after_end: number },
): Promise<{ policy: PolicyJson | null }> {
  const eventId = ctx.access.event.id;
  const categories = [...new Set(body.categories)].sort();
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO retention_policies (event_id, categories, days_after_end)
      VALUES (${eventId}, ${sql`ARRAY[${sql.join(
        categories.map((c) => sql`${c}`),
        sql`, `,
      )}]::text[]`}, ${body.days_after_end})
      ON CONFLICT (event_id) DO UPDATE SET categories = excluded.categories,
        days_after_end = excluded.days_after_end, updated_at = now()`);
    await recordAudit(tx, {
      principal: ctx.access.principal,
      action: 'retention.policy_set',
      eventId,
      targetType: 'event',
      targetId: eventId,
      metadata: { categories, days_after_end: body.days_after_end },
    });
    return { policy: await readPolicy(tx, eventId) };
  });
}

/** What the policy will remove: rows per table, the registrations concerned, and a sentence. */
export async function previewPolicy(ctx: EventCtx) {
  const eventId = ctx.access.event.id;
  const policy = await readPolicy(ctx.db, eventId);
  if (!policy || policy.categories.length === 0)
    return {
      policy,
      registrations: 0,
      tables: {},
      message: 'No retention policy: Muster keeps this event’s data.',
    };
  const tables = await countTargets(ctx.db, shredTargets(eventId, policy.categories));
  const regs = await ctx.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM registrations WHERE event_id = ${eventId}`,
  );
  const registrations = regs.rows[0]?.n ?? 0;
  const what = retentionCategories
    .filter((c) => policy.categories.includes(c))
    .map((c) => WORDS[c])
    .join('; ');
  const when = policy.due_on ? `on ${policy.due_on}` : 'once the event has dates';
  return {
    policy,
    registrations,
    tables,
    message: `${registrations} registrations will lose their ${what} ${when}.`,
  };
}

/** The rows the policy will remove (for the organiser's records), without sections the caller may not see. */
export async function downloadPolicy(ctx: EventCtx) {
  const eventId = ctx.access.event.id;
  const policy = await readPolicy(ctx.db, eventId);
  const visible = (policy?.categories ?? []).filter(
    (c) =>
      (c !== 'sensitive' || ctx.access.visibility.sensitive) &&
      (c === 'notes' || c === 'scans' || c === 'sensitive' || ctx.access.visibility.pii),
  );
  return {
    event_id: eventId,
    policy,
    omitted_categories: (policy?.categories ?? []).filter((c) => !visible.includes(c)),
    tables: await rowsOfTargets(ctx.db, shredTargets(eventId, visible)),
  };
}

/** The daily job: applies every policy due at `now`; returns per event the rows changed. */
export async function applyDuePolicies(
  db: Db,
  now = new Date(),
): Promise<Record<number, Record<string, number>>> {
  const due = await db.execute<{ event_id: number; categories: RetentionCategory[] }>(sql`
    SELECT p.event_id, p.categories FROM retention_policies p JOIN events e ON e.id = p.event_id
     WHERE cardinality(p.categories) > 0 AND coalesce(e.ends_at, e.starts_at) IS NOT NULL
       AND coalesce(e.ends_at, e.starts_at) + make_interval(days => p.days_after_end) <= ${now.toISOString()}`);
  const out: Record<number, Record<string, number>> = {};
  for (const { event_id, categories } of due.rows) {
    out[event_id] = await db.transaction(async (tx) => {
      const counts = await applyTargets(tx, event_id, shredTargets(event_id, categories));
      await tx.execute(sql`UPDATE retention_policies SET applied_at = now() WHERE event_id = ${event_id}`);
      if (Object.keys(counts).length > 0)
        await recordAudit(tx, {
          via: 'job',
          action: 'retention.shredded',
          eventId: event_id,
          targetType: 'event',
          targetId: event_id,
          metadata: { categories, tables: counts },
        });
      return counts;
    });
  }
  return out;
}
