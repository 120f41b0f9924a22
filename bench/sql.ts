/**
 * SQL the benchmarks reuse from the application, so the floor and the EXPLAIN measure exactly what
 * the endpoints run: repo functions are called with a capturing stand-in for the Drizzle handle,
 * which records the statement (text + parameters) instead of executing it.
 */
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Visibility } from '../src/access/policy.js';
import type { Tx } from '../src/db/client.js';
import {
  listParticipantsJson,
  searchParticipantsJson,
  syncWatermark,
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

async function captureOne(fn: (db: Tx) => Promise<unknown>): Promise<Statement> {
  const [first, ...rest] = await captureSql(fn);
  if (!first || rest.length > 0) throw new Error('expected exactly one captured statement');
  return first;
}

/** The sync high-water-mark query of the list endpoint (column `hw`, ISO text). */
export const watermarkStatement = () => captureOne((db) => syncWatermark(db));

/** The list endpoint's participants query, exactly as listParticipantsJson runs it (column `arr`). */
export const listStatement = (eventId: number, watermark: string, updatedSince?: string) =>
  captureOne((db) => listParticipantsJson(db, eventId, FULL, watermark, updatedSince));

/**
 * The search endpoint's ranking statement, exactly as searchParticipantsJson runs it first (column
 * `id`, best first, at most `limit`); the endpoint then builds JSON for those ids only.
 */
export async function searchRankStatement(eventId: number, q: string, limit = 20): Promise<Statement> {
  const [rank] = await captureSql((db) => searchParticipantsJson(db, eventId, FULL, q, limit));
  if (!rank) throw new Error('search issued no statement');
  return rank;
}

/**
 * Floor of the list endpoint: the whole response body `{"participants":[…],"synced_at":"…"}` from
 * ONE statement ($1 = event id, $2 = updated_since when `delta`), built from the same
 * participantSelect/participantFrom fragments and the same watermark expression.
 */
export async function listFloorSql(delta: boolean): Promise<string> {
  const wm = await watermarkStatement();
  return `WITH w AS MATERIALIZED (${wm.text})
SELECT '{"participants":[' || COALESCE((
    SELECT string_agg(x.j, ',' ORDER BY x.id) FROM (
      SELECT r.id, ${participantSelect(FULL)} FROM ${participantFrom(FULL)}
       WHERE r.event_id = $1 AND r.updated_at <= (SELECT hw FROM w)::timestamptz${delta ? ' AND r.updated_at > $2::timestamptz' : ''}) x
  ), '') || '],"synced_at":"' || (SELECT hw FROM w) || '"}' AS body`;
}

/**
 * Floor of the search endpoint: `{"results":[…]}` from ONE statement: the repo's ranking query as a
 * materialised CTE, then the same participant JSON fragments for those ids in rank order.
 */
export async function searchFloorStatement(eventId: number, q: string): Promise<Statement> {
  const rank = await searchRankStatement(eventId, q);
  const eventParam = rank.params.length + 1;
  return {
    text: `WITH ranked AS MATERIALIZED (SELECT q.id, row_number() OVER () AS ord FROM (${rank.text}) q)
SELECT '{"results":[' || COALESCE((
    SELECT string_agg(x.j, ',' ORDER BY x.ord) FROM (
      SELECT k.ord, ${participantSelect(FULL)} FROM ${participantFrom(FULL)}
        JOIN ranked k ON k.id = r.id
       WHERE r.event_id = $${eventParam}) x
  ), '') || ']}' AS body`,
    params: [...rank.params, eventId],
  };
}
