/**
 * Retention shredding (docs/privacy.md "Retention and shredding"): what an event's policy removes,
 * a preview and a download of it, and applying it. The rows come from the privacy data map
 * (modules/privacy/data-map.ts): every entry whose `category` the policy names, applied to the
 * event's registrations, plus, for `pii`/`uploads`, the people registered only at this event and the
 * event's email log, and, always, finished jobs whose payload names the event or its registrations.
 * Registrations, statuses, scans and audit entries stay: counts and check-in statistics do not change.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { RetentionCategory } from '../../db/schema/retention.js';
import { DATA_MAP, type Erase } from '../privacy/data-map.js';
import { dedupe } from '../privacy/export.service.js';
import { applyErase, deleteJobs, rowsWhere } from '../privacy/rows.js';
import { eventSubject } from '../privacy/subject.js';

export interface ShredTarget {
  table: string;
  category: RetentionCategory;
  where: SQL;
  erase: Exclude<Erase, { keep: string }>;
}

const onlyHere = (eventId: number) =>
  sql`id IN (SELECT person_id FROM registrations WHERE event_id = ${eventId})
      AND id NOT IN (SELECT person_id FROM registrations WHERE event_id <> ${eventId})`;

/** The rows a policy with `categories` removes at event `eventId`, table by table. */
export function shredTargets(eventId: number, categories: readonly RetentionCategory[]): ShredTarget[] {
  const s = eventSubject(eventId);
  const wanted = new Set(categories);
  const targets: ShredTarget[] = [];
  for (const entry of DATA_MAP) {
    if (!entry.category || !wanted.has(entry.category) || 'keep' in entry.erase) continue;
    targets.push({ table: entry.table, category: entry.category, where: entry.where(s), erase: entry.erase });
  }
  if (wanted.has('pii')) {
    // Person-level entries of the data map, applied to this event's rows: the same overwrite as erasure.
    for (const [table, where] of [
      ['people', onlyHere(eventId)],
      ['email_log', sql`event_id = ${eventId}`],
    ] as const) {
      const erase = DATA_MAP.find((e) => e.table === table)?.erase;
      if (erase && 'set' in erase) targets.push({ table, category: 'pii', where, erase });
    }
  }
  if (wanted.has('uploads') && !wanted.has('pii'))
    targets.push({
      table: 'people',
      category: 'uploads',
      where: onlyHere(eventId),
      erase: { set: sql`headshot_url = NULL, updated_at = now()` },
    });
  return targets;
}

/** Finished job payloads naming the event or one of its registrations (pg-boss's job table). */
export function finishedJobsWhere(eventId: number): SQL {
  return sql`state IN ('completed', 'failed', 'cancelled') AND (
    data->>'event_id' = ${String(eventId)}
    OR data->>'registration_id' IN (SELECT id::text FROM registrations WHERE event_id = ${eventId})
    OR data->>'registrationId' IN (SELECT id::text FROM registrations WHERE event_id = ${eventId}))`;
}

/** Row counts per table of what `targets` would remove or overwrite (the preview). */
export async function countTargets(db: Tx, targets: ShredTarget[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const t of targets) {
    const res = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(t.table)} WHERE ${t.where}`,
    );
    const n = res.rows[0]?.n ?? 0;
    if (n > 0) counts[t.table] = Math.max(counts[t.table] ?? 0, n);
  }
  return counts;
}

/** The rows themselves, per table (the download), for the targets the caller may see. */
export async function rowsOfTargets(db: Tx, targets: ShredTarget[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of targets) {
    const rows = await rowsWhere(db, t.table, t.where);
    if (rows.length > 0) out[t.table] = dedupe([...(out[t.table] ?? []), ...rows]);
  }
  return out;
}

/** Applies the targets in the caller's transaction; returns rows changed or deleted per table. */
export async function applyTargets(
  tx: Tx,
  eventId: number,
  targets: ShredTarget[],
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const t of targets) {
    const n = await applyErase(tx, t.table, t.erase, t.where);
    if (n) counts[t.table] = Math.max(counts[t.table] ?? 0, n);
  }
  Object.assign(counts, await deleteJobs(tx, finishedJobsWhere(eventId)));
  return counts;
}
