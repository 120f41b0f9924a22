/**
 * Catering summary (docs/exports.md "Catering summary"): counts without names, for everyone with
 * exports access. Diets, intolerances (each comma- or semicolon-separated entry counted on its
 * own, case-insensitively) and allergy-risk flags, in total and per day of the event (a person is
 * counted on the days between their accommodation's arrival and departure dates, or on every day
 * when those are not set). Muster has no meal schedule, so there are no per-meal counts.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { EventCtx } from '../../deps.js';
import type { Typed } from './cells.js';
import type { ExportPlan } from './exports.service.js';
import { filterSql } from './filters.js';
import type { SheetColumn } from './xlsx-writer.js';

/** At most this many event days get their own column. */
const MAX_DAYS = 31;

const SECTIONS = ['People', 'Diet', 'Intolerances', 'Allergy risk'] as const;
/** Each section's place in the sheet (a row's section read from SQL as text). */
const SECTION_ORDER = new Map<string, number>(SECTIONS.map((s, i) => [s, i]));

function itemsSql(eventId: number, filters: SQL[]): SQL {
  const where = sql.join([sql`r.event_id = ${eventId}`, ...filters], sql` AND `);
  return sql`WITH base AS (
      SELECT r.id, acc.check_in_date AS arrives, acc.check_out_date AS leaves, diet.diet_type,
             diet.intolerances, COALESCE(diet.cross_contamination_risk, false) AS cross_risk,
             COALESCE(med.has_anaphylaxis_risk, false) AS anaphylaxis,
             COALESCE(med.requires_refrigeration, false) AS fridge,
             COALESCE(btrim(med.life_threatening_allergies), '') <> '' AS life_threatening,
             COALESCE(btrim(med.allergies), '') <> '' AS any_allergy
        FROM registrations r JOIN people p ON p.id = r.person_id JOIN events e ON e.id = r.event_id
        LEFT JOIN registration_medical med ON med.registration_id = r.id
        LEFT JOIN registration_dietary diet ON diet.registration_id = r.id
        LEFT JOIN registration_accommodations acc ON acc.registration_id = r.id
       WHERE ${where}),
    items AS (
      SELECT id, arrives, leaves, 'People' AS section, 'Registrations counted' AS item FROM base
      UNION ALL SELECT id, arrives, leaves, 'Diet', COALESCE(NULLIF(lower(btrim(diet_type)), ''), 'no special diet') FROM base
      UNION ALL SELECT id, arrives, leaves, 'Intolerances', lower(btrim(x)) FROM base, regexp_split_to_table(base.intolerances, '[,;\n]') x WHERE btrim(x) <> ''
      UNION ALL SELECT id, arrives, leaves, 'Allergy risk', 'Anaphylaxis risk' FROM base WHERE anaphylaxis
      UNION ALL SELECT id, arrives, leaves, 'Allergy risk', 'Life-threatening allergies' FROM base WHERE life_threatening
      UNION ALL SELECT id, arrives, leaves, 'Allergy risk', 'Any allergies listed' FROM base WHERE any_allergy
      UNION ALL SELECT id, arrives, leaves, 'Allergy risk', 'Cross-contamination risk' FROM base WHERE cross_risk
      UNION ALL SELECT id, arrives, leaves, 'Allergy risk', 'Medication needs a fridge' FROM base WHERE fridge),
    days AS (
      SELECT d::date AS day FROM events e,
        generate_series((e.starts_at AT TIME ZONE e.timezone)::date,
          LEAST((COALESCE(e.ends_at, e.starts_at) AT TIME ZONE e.timezone)::date,
                (e.starts_at AT TIME ZONE e.timezone)::date + ${MAX_DAYS - 1}::int), interval '1 day') d
       WHERE e.id = ${eventId})`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The event's days (`YYYY-MM-DD` in its time zone, at most 31), each a column of the summary. */
export async function eventDays(ctx: EventCtx): Promise<string[]> {
  const days = await ctx.db.execute<{ day: string }>(
    sql`${itemsSql(ctx.access.event.id, [sql`false`])} SELECT to_char(day, 'YYYY-MM-DD') AS day FROM days ORDER BY day`,
  );
  return days.rows.map((d) => d.day);
}

export function cateringRows(ctx: EventCtx, plan: ExportPlan) {
  const eventId = ctx.access.event.id;
  const items = itemsSql(eventId, filterSql(plan.filters, false));
  const dayList = plan.days ?? [];
  const columns: SheetColumn[] = [
    { header: plan.keys ? 'section' : 'What', type: 'text', width: 16 },
    { header: plan.keys ? 'item' : 'Item', type: 'text', width: 30 },
    { header: plan.keys ? 'total' : 'Total', type: 'int', width: 8 },
    ...dayList.map((d): SheetColumn => ({ header: d, type: 'int', width: 11 })),
  ];
  return {
    columns,
    async rows(): Promise<Typed[][]> {
      const totals = await ctx.db.execute<{ section: string; item: string; n: number }>(
        sql`${items} SELECT section, item, count(DISTINCT id)::int AS n FROM items GROUP BY section, item`,
      );
      const perDay = await ctx.db.execute<{ section: string; item: string; day: string; n: number }>(
        sql`${items} SELECT section, item, to_char(day, 'YYYY-MM-DD') AS day, count(DISTINCT id)::int AS n
              FROM items JOIN days ON (arrives IS NULL OR arrives <= day) AND (leaves IS NULL OR leaves >= day)
             GROUP BY section, item, day`,
      );
      const byDay = new Map(
        perDay.rows.map((r) => [`${r.section}\u0000${r.item}\u0000${r.day}`, Number(r.n)]),
      );
      const sorted = [...totals.rows].sort(
        (a, b) =>
          (SECTION_ORDER.get(a.section) ?? -1) - (SECTION_ORDER.get(b.section) ?? -1) ||
          Number(b.n) - Number(a.n) ||
          a.item.localeCompare(b.item),
      );
      if (!sorted.some((r) => r.section === 'People'))
        sorted.unshift({ section: 'People', item: 'Registrations counted', n: 0 });
      return sorted.map((r) => [
        r.section,
        capital(r.item),
        Number(r.n),
        ...dayList.map((d) => byDay.get(`${r.section}\u0000${r.item}\u0000${d}`) ?? 0),
      ]);
    },
  };
}
