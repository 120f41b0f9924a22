/**
 * SQL of the participants endpoints. Every query on event-owned data carries the event id in its
 * WHERE clause (architecture). JSON is produced by PostgreSQL via the serializers.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Visibility } from '../../access/policy.js';
import type { Tx } from '../../db/client.js';
import { preparedSqlFamily } from '../../db/prepared.js';
import { participantDetailSelect } from './detail.serialize.js';
import { cachedRowsCtes } from './participants.cache.js';
import { participantFrom, participantSelect } from './participants.serialize.js';

const p = (name: string) => sql.placeholder(name);
const sinceSql = (delta: boolean) => (delta ? sql` AND r.updated_at > ${p('since')}::timestamptz` : sql``);

/**
 * Ids (and updated_at) of the list, ascending; delta lists read only changed rows
 * (registrations_event_updated). The first CTE of the list's first statement (listHeadSql).
 */
export const listIdsSql = (delta: boolean) =>
  sql`SELECT r.id, r.updated_at FROM registrations r
       WHERE r.event_id = ${p('event')} AND r.updated_at <= ${p('watermark')}::timestamptz${sinceSql(delta)}
       ORDER BY r.id`;

/**
 * The list's first statement, by visibility × delta: the participant JSON (`j`, through the cache,
 * participants.cache.ts) of the first `limit` ids of the list, then the ids after them with `j`
 * NULL, all ascending by id. One statement, one snapshot: a delta of up to `limit` rows is answered
 * by it alone.
 */
export const listHeadSql = ({ v, delta }: { v: Visibility; delta: boolean }) =>
  sql`WITH ids AS MATERIALIZED (${listIdsSql(delta)}),
       head AS MATERIALIZED (SELECT id, updated_at FROM ids ORDER BY id LIMIT ${p('limit')}),
       ${cachedRowsCtes(v, 'head', p('event'))}
     SELECT id, j FROM rows
     UNION ALL
     SELECT id, NULL FROM ids WHERE id > (SELECT max(id) FROM head)
     ORDER BY 1`;
const listHeadStatement = preparedSqlFamily<
  { v: Visibility; delta: boolean },
  { id: number; j: string | null }
>(
  ({ v, delta }) => `participants_head_${v.pii ? 'p' : ''}${v.sensitive ? 's' : ''}${delta ? '_delta' : ''}`,
  listHeadSql,
);

/**
 * The start of a sync list (registrations with updated_since < updated_at <= watermark, ascending
 * id): the JSON texts of its first `limit` rows, and the ids of the rest, whose JSON
 * participantsJsonBatch then reads a batch at a time.
 */
export async function listParticipantsHead(
  db: Tx,
  eventId: number,
  v: Visibility,
  watermark: string,
  updatedSince: string | undefined,
  limit: number,
): Promise<{ rows: string[]; rest: number[] }> {
  const res = await listHeadStatement({ v, delta: updatedSince !== undefined })(db).execute({
    event: eventId,
    watermark,
    since: updatedSince,
    limit,
  });
  const rows: string[] = [];
  const rest: number[] = [];
  for (const row of res.rows) {
    if (row.j === null) rest.push(Number(row.id));
    else rows.push(row.j);
  }
  return { rows, rest };
}

/** A batch's participant JSON (through the cache, participants.cache.ts), by visibility × delta. */
export const batchSql = ({ v, delta }: { v: Visibility; delta: boolean }) =>
  // The list's conditions again: a row changed since its id was read is left to the next delta.
  sql`WITH want AS MATERIALIZED (
         SELECT r.id, r.updated_at FROM registrations r
          WHERE r.id = ANY(${p('ids')}::int[]) AND r.event_id = ${p('event')}
            AND r.updated_at <= ${p('watermark')}::timestamptz${sinceSql(delta)}),
       ${cachedRowsCtes(v, 'want', p('event'))}
     SELECT j FROM rows ORDER BY id`;
const batchStatement = preparedSqlFamily<{ v: Visibility; delta: boolean }, { j: string }>(
  ({ v, delta }) => `participants_batch_${v.pii ? 'p' : ''}${v.sensitive ? 's' : ''}${delta ? '_delta' : ''}`,
  batchSql,
);

/**
 * Participant JSON texts (one per row, ascending id) of the registrations in `ids` that still
 * satisfy the list's conditions, for a caller of visibility `v`.
 */
export async function participantsJsonBatch(
  db: Tx,
  eventId: number,
  v: Visibility,
  ids: readonly number[],
  watermark: string,
  updatedSince: string | undefined,
): Promise<string[]> {
  const res = await batchStatement({ v, delta: updatedSince !== undefined })(db).execute({
    ids,
    event: eventId,
    watermark,
    since: updatedSince,
  });
  return res.rows.map((r) => r.j);
}

/**
 * Everything a search term may match in a person (`alias` = people), lower-cased, as ONE text:
 * the expression of the trigram index people_search_trgm (migration 0009_search_trgm; keep both
 * identical or the planner cannot use the index). Legal first and last name are adjacent, so the
 * full name is a substring too.
 */
export const SEARCH_HAYSTACK = (alias: string) =>
  `lower(${alias}.legal_first_name || ' ' || ${alias}.legal_last_name || ' ' || COALESCE(${alias}.preferred_name, '') || ' ' || ${alias}.email)`;

/** Escapes LIKE wildcards so `%`, `_` and `\` in a search term match literally. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The API search's matching rules (docs/decisions.md "Participants API") for a trimmed, non-blank term, over aliases
 * r = registrations, p = people: `text` is the case-insensitive substring match on legal/preferred
 * names, full name and email (LIKE wildcards literal), read through the trigram index
 * people_search_trgm; `id` is the exact registration or person id of an all-digit term (null
 * otherwise); `rank` orders matches (id, exact, prefix, substring) before the name. Shared by the
 * search endpoint and the staff participants table, so both find the same people. `phoneRuns`
 * (lib/phone.ts phoneSearchDigits; only for callers who may see phones, so a match never reveals
 * a number to someone who may not read it): digit runs that also match inside the stored phone.
 */
export function searchMatch(
  q: string,
  phoneRuns: readonly string[] = [],
): { text: SQL; id: SQL | null; rank: SQL; fullName: SQL; head: SQL } {
  const needle = q.toLowerCase();
  const contains = `%${escapeLike(needle)}%`;
  const prefix = `${escapeLike(needle)}%`;
  const id = /^[0-9]{1,9}$/.test(q) ? Number(q) : null;
  const fullName = sql.raw(`lower(p.legal_first_name || ' ' || p.legal_last_name)`);
  const idMatch: SQL | null = id === null ? null : sql`(r.id = ${id} OR p.id = ${id})`;
  const exact = sql`lower(p.email) = ${needle} OR ${fullName} = ${needle} OR lower(p.preferred_name) = ${needle}`;
  const prefixes = sql`lower(p.legal_first_name) LIKE ${prefix} OR lower(p.legal_last_name) LIKE ${prefix}
        OR lower(p.preferred_name) LIKE ${prefix} OR lower(p.email) LIKE ${prefix}`;
  const rank = sql`CASE WHEN ${idMatch ?? sql`false`} THEN 0 WHEN ${exact} THEN 1 WHEN ${prefixes} THEN 2 ELSE 3 END`;
  // Ranks 1 and 2 (exact, prefix) without the id: each test is a B-tree lookup (0023_search_prefix).
  const head = sql`(${exact} OR ${prefixes})`;
  // SEARCH_HAYSTACK contains every field the five LIKEs test, so its LIKE is a necessary condition
  // that the index answers; the five LIKEs then keep exactly the rows of the rules.
  const text = sql`(${sql.raw(SEARCH_HAYSTACK('p'))} LIKE ${contains}
      AND (lower(p.legal_first_name) LIKE ${contains} OR lower(p.legal_last_name) LIKE ${contains}
        OR lower(p.preferred_name) LIKE ${contains} OR ${fullName} LIKE ${contains}
        OR lower(p.email) LIKE ${contains}))`;
  if (phoneRuns.length === 0) return { text, id: idMatch, rank, fullName, head };
  // Phones are stored in E.164: its digits (the + dropped) contain any run of the number's digits.
  const phone = sql.join(
    phoneRuns.map((run) => sql`replace(p.phone, '+', '') LIKE ${`%${run}%`}`),
    sql` OR `,
  );
  return { text: sql`(${text} OR ${phone})`, id: idMatch, rank, fullName, head };
}

/**
 * Up to `limit` participants matching `q` (already trimmed, non-blank), best matches first. Two
 * steps: rank and limit the matching ids, then build JSON only for those (building it for every
 * match first cost ~10× on a common fragment at 20,000 registrations; see bench/).
 *
 * The ids are found in stages, in one statement: first the id, exact and prefix
 * matches (ranks 0–2), each a B-tree lookup (0023_search_prefix); only when they are fewer than
 * `limit` are the substring matches read through the trigram index (a one-time filter skips that
 * branch otherwise). Every substring-only match ranks 3, after all of the first stage, so when the
 * first stage fills `limit` its best `limit` are the answer: results and order are those of the
 * full conditions (test/http/participants-search-index.test.ts compares them).
 */
export async function searchParticipantsJson(
  db: Tx,
  eventId: number,
  v: Visibility,
  q: string,
  limit = 20,
  phoneRuns: readonly string[] = [],
): Promise<string> {
  const m = searchMatch(q, phoneRuns);
  const id = /^[0-9]{1,9}$/.test(q) ? Number(q) : null;
  const matches = (where: SQL) =>
    sql`SELECT r.id, ${m.rank} AS rank, ${m.fullName} AS full_name
          FROM registrations r JOIN people p ON p.id = r.person_id WHERE r.event_id = ${eventId} AND ${where}`;
  // Id matches (all-digit terms) are their own branches, each an index lookup.
  const ids0 = id === null ? [] : [matches(sql`r.id = ${id}`), matches(sql`p.id = ${id}`)];
  const union = (branches: SQL[]) => sql.join(branches, sql` UNION `);
  const order = sql`ORDER BY rank, full_name, id LIMIT ${limit}`;
  const ranked = await db.execute<{ id: number }>(
    sql`WITH head AS MATERIALIZED (SELECT * FROM (${union([matches(m.head), ...ids0])}) h ${order})
      SELECT id, rank, full_name FROM head WHERE (SELECT count(*) FROM head) >= ${limit}
      UNION ALL
      (SELECT id, rank, full_name FROM (${union([matches(m.text), ...ids0])}) a
        WHERE (SELECT count(*) FROM head) < ${limit} ${order})
      ORDER BY rank, full_name, id`,
  );
  const ids = ranked.rows.map((r) => Number(r.id));
  if (ids.length === 0) return '[]';
  const res = await db.execute<{ arr: string | null }>(
    sql`SELECT string_agg(x.j, ',' ORDER BY array_position(${sql.raw(`ARRAY[${ids.join(',')}]::int[]`)}, x.id)) AS arr FROM (
      SELECT r.id, ${sql.raw(participantSelect(v))} FROM ${sql.raw(participantFrom(v))}
       WHERE r.event_id = ${eventId} AND r.id IN (${sql.raw(ids.join(','))})) x`,
  );
  return `[${res.rows[0]?.arr ?? ''}]`;
}

/** JSON text of one ParticipantDetail, or null when the registration is not in this event. */
export async function participantDetailJson(
  db: Tx,
  eventId: number,
  registrationId: number,
  v: Visibility,
): Promise<string | null> {
  const res = await db.execute<{ j: string }>(
    sql`${sql.raw(participantDetailSelect(v))} WHERE r.event_id = ${eventId} AND r.id = ${registrationId}`,
  );
  return res.rows[0]?.j ?? null;
}

export async function lookupByEmail(db: Tx, eventId: number, email: string) {
  const res = await db.execute<{ participant_id: number; status: string }>(
    sql`SELECT p.id AS participant_id, r.status FROM people p
          JOIN registrations r ON r.person_id = p.id AND r.event_id = ${eventId}
         WHERE lower(p.email) = ${email}`,
  );
  return res.rows[0] ?? null;
}

export async function rosterRows(db: Tx, eventId: number) {
  const res = await db.execute<{
    email: string;
    first_name: string;
    last_name: string;
    chat_user_id: string | null;
    slack_user_id: string | null;
    status: string;
  }>(
    sql`SELECT p.email, p.legal_first_name AS first_name, p.legal_last_name AS last_name, p.chat_user_id,
               p.chat_user_id AS slack_user_id, r.status
          FROM registrations r JOIN people p ON p.id = r.person_id
         WHERE r.event_id = ${eventId} AND r.status NOT IN ('withdrawn', 'rejected')
         ORDER BY r.id`,
  );
  return res.rows;
}
