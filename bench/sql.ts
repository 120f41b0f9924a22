/**
 * SQL the benchmarks reuse from the application, so the floor and the EXPLAIN measure exactly what
 * the endpoints run: repo functions are called with a capturing stand-in for the Drizzle handle,
 * which records the statement (text + parameters) instead of executing it.
 */
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Visibility } from '../src/access/policy.js';
import type { Tx } from '../src/db/client.js';
import { syncWatermarkSql } from '../src/db/watermark.js';
import {
  batchSql,
  listIdsSql,
  searchParticipantsJson,
} from '../src/modules/participants/participants.repo.js';
import { participantFrom, participantSelect } from '../src/modules/participants/participants.serialize.js';

/** What a global admin sees (the bench's caller): every key of the participant payload. */
export const FULL: Visibility = { pii: true, sensitive: true };

export interface Statement {
  text: string;
  params: unknown[];
}

const dialect = new PgDialect();

/** Runs `fn` against a stand-in `db` and returns the statements it would have executed. */
export async function captureSql(fn: (db: Tx) => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const fake = {
    execute: async (query: SQL) => {
      const q = dialect.sqlToQuery(query);
      seen.push({ text: q.sql, params: q.params });
      // A row shaped like every repo query's result, so callers get past reading it.
      return { rows: [{ hw: '1970-01-01T00:00:00.000000Z', arr: null }] };
    },
  };
  await fn(fake as unknown as Tx);
  return seen;
}

/** The sync high-water-mark query of the list endpoint (column `hw`, ISO text). */
export const watermarkStatement = async (): Promise<Statement> => filled(syncWatermarkSql(), {});

/** A prepared repo statement (placeholders) with its values, as text + positional parameters. */
function filled(query: SQL, values: Record<string, unknown>): Statement {
  const q = dialect.sqlToQuery(query);
  return { text: q.sql, params: fillPlaceholders(q.params, values) };
}

/**
 * The ids of the list, exactly as the list endpoint's first statement (listParticipantsHead) reads
 * them in its CTE (column `id`): the rows of the list; with `updatedSince` it must read only the changed rows (delta-plan.ts).
 */
export const listStatement = (eventId: number, watermark: string, updatedSince?: string) =>
  filled(listIdsSql(updatedSince !== undefined), { event: eventId, watermark, since: updatedSince });

/** One batch of the list's participant JSON, exactly as participantsJsonBatch runs it (column `j`). */
export const listBatchStatement = (eventId: number, ids: number[], watermark: string) =>
  filled(batchSql({ v: FULL, delta: false }), { event: eventId, ids, watermark });

/**
 * The search endpoint's ranking statement, exactly as searchParticipantsJson runs it first (column
 * `id`, best first, at most `limit`); the endpoint then builds JSON for those ids only. `phoneRuns`:
 * the phone digit runs a caller who may see phones also matches (participants.service.ts phoneRunsFor).
 */
export async function searchRankStatement(
  eventId: number,
  q: string,
  limit = 20,
  phoneRuns: readonly string[] = [],
): Promise<Statement> {
  const [rank] = await captureSql((db) => searchParticipantsJson(db, eventId, FULL, q, limit, phoneRuns));
  if (!rank) throw new Error('search issued no statement');
  return rank;
}

/** Table of the floor: one row per registration with its participant JSON text, precomputed. */
export const FLOOR_TABLE = 'bench_floor_participants';

/**
 * (Re)fills the floor table for the event from the per-row serializer (FULL visibility): the same
 * bytes the endpoint sends per participant, read later as one text column with no JSON work.
 */
export function floorFillStatements(eventId: number): Statement[] {
  return [
    {
      text: `CREATE UNLOGGED TABLE IF NOT EXISTS ${FLOOR_TABLE} (
        event_id int NOT NULL, id int NOT NULL, updated_at timestamptz NOT NULL, j text NOT NULL,
        PRIMARY KEY (event_id, id))`,
      params: [],
    },
    {
      text: `CREATE INDEX IF NOT EXISTS ${FLOOR_TABLE}_updated ON ${FLOOR_TABLE} (event_id, updated_at)`,
      params: [],
    },
    { text: `DELETE FROM ${FLOOR_TABLE} WHERE event_id = $1`, params: [eventId] },
    {
      text: `INSERT INTO ${FLOOR_TABLE} (event_id, id, updated_at, j)
             SELECT r.event_id, r.id, r.updated_at, ${participantSelect(FULL)} FROM ${participantFrom(FULL)}
              WHERE r.event_id = $1`,
      params: [eventId],
    },
    { text: `ANALYZE ${FLOOR_TABLE}`, params: [] },
  ];
}

/**
 * Floor of the search endpoint: `{"results":[…]}` from ONE statement: the repo's ranking query as a
 * materialised CTE, then the precomputed JSON of those ids (FLOOR_TABLE) in rank order.
 */
export async function searchFloorStatement(eventId: number, q: string): Promise<Statement> {
  const rank = await searchRankStatement(eventId, q);
  const eventParam = rank.params.length + 1;
  return {
    text: `WITH ranked AS MATERIALIZED (SELECT q.id, row_number() OVER () AS ord FROM (${rank.text}) q)
SELECT '{"results":[' || COALESCE((
    SELECT string_agg(f.j, ',' ORDER BY k.ord) FROM ranked k
      JOIN ${FLOOR_TABLE} f ON f.event_id = $${eventParam} AND f.id = k.id), '') || ']}' AS body`,
    params: [...rank.params, eventId],
  };
}

/**
 * The whole list body as ONE statement on the per-row serializer ($1 = event id): what the endpoint
 * ran before it streamed batches; used by event-loop.ts to block an in-process PGlite with it.
 */
export async function wholeListSql(): Promise<string> {
  const wm = await watermarkStatement();
  return `WITH w AS MATERIALIZED (${wm.text})
SELECT '{"participants":[' || COALESCE((
    SELECT string_agg(x.j, ',' ORDER BY x.id) FROM (
      SELECT r.id, ${participantSelect(FULL)} FROM ${participantFrom(FULL)}
       WHERE r.event_id = $1 AND r.updated_at <= (SELECT hw FROM w)::timestamptz) x
  ), '') || '],"synced_at":"' || (SELECT hw FROM w) || '"}' AS body`;
}
