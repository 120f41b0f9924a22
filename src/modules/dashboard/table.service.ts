/**
 * The staff participants table (docs/staff-dashboard.md "Participants table"): search with the
 * API search's rules (participants.repo.ts searchMatch; docs/decisions.md "Participants API"), filters, sort and pages
 * of 50, with the columns the caller's visibility allows (docs/decisions.md "Credentials and roles"). The dietary/medical flags
 * filter is applied only for callers who may see sensitive data (for anyone else it is dropped,
 * so the result never depends on what they may not see). Errors: `q` over 200 characters → 422.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { RegistrationStatus } from '../../db/schema/index.js';
import type { EventCtx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import { searchMatch } from '../participants/participants.repo.js';
import { phoneRunsFor, SEARCH_MAX_LENGTH } from '../participants/participants.service.js';
import { pageIds, rowsOf } from './table.repo.js';
import {
  AWAITING_PICKUP,
  CHECKED_IN,
  consentOutstanding,
  HAS_DIETARY,
  HAS_INBOUND,
  HAS_MEDICAL,
  HAS_OUTBOUND,
  IS_MINOR,
  SORT_KEYS,
  type SortKey,
} from './table.sql.js';

export const PER_PAGE = 50;
/**
 * The count is exact up to this many matches (or up to the end of the page shown, when deeper);
 * past it the table says "More than …". An exact total over a large event reads every match.
 */
export const COUNT_BOUND = 1000;

export interface TableQuery {
  q?: string;
  status?: RegistrationStatus;
  minor?: 'yes' | 'no';
  checked_in?: 'yes' | 'no';
  travel?: 'inbound' | 'outbound';
  pickup?: 'awaiting';
  flags?: 'medical' | 'dietary';
  /** A consent type outstanding (pending, sent or viewed) on a registration neither withdrawn nor rejected. */
  consent?: string;
  sort?: SortKey | 'relevance';
  dir?: 'asc' | 'desc';
  /** 1-based. */
  page?: number;
}

/** One row; `phone`/`date_of_birth` only with PII visibility, diet/medical only with sensitive. */
export interface TableRow {
  participant_event_id: number;
  participant_id: number;
  display_name: string;
  full_name: string;
  email: string;
  status: RegistrationStatus;
  minor: boolean;
  checked_in_at: string | null;
  inbound: boolean;
  arrival_at: string | null;
  outbound: boolean;
  departure_at: string | null;
  awaiting_pickup: boolean;
  has_anaphylaxis_risk: boolean;
  cross_contamination_risk: boolean;
  high_support_flag: boolean;
  phone?: string | null;
  date_of_birth?: string | null;
  diet_type?: string | null;
  allergies?: string | null;
  medical_conditions?: string | null;
}

export interface TablePage {
  rows: TableRow[];
  /** How many match when `exact`; else a lower bound (more than `total` match). */
  total: number;
  exact: boolean;
  page: number;
  /** The number of pages when the total is exact; null when it is not known. */
  pages: number | null;
  per_page: number;
  /** The query as applied: blank values dropped, flags dropped for callers without sensitive access. */
  query: TableQuery;
  columns: { pii: boolean; sensitive: boolean };
}

const yesNo = (cond: string, value: 'yes' | 'no' | undefined): SQL[] =>
  value === undefined ? [] : [sql.raw(value === 'yes' ? cond : `NOT ${cond}`)];

function conditions(query: TableQuery, phoneRuns: readonly string[]): SQL[] {
  const where: SQL[] = [];
  if (query.q) {
    const m = searchMatch(query.q, phoneRuns);
    where.push(m.id ? sql`(${m.text} OR ${m.id})` : m.text);
  }
  if (query.status) where.push(sql`r.status = ${query.status}`);
  where.push(...yesNo(IS_MINOR, query.minor), ...yesNo(CHECKED_IN, query.checked_in));
  if (query.travel) where.push(sql.raw(query.travel === 'inbound' ? HAS_INBOUND : HAS_OUTBOUND));
  if (query.pickup === 'awaiting') where.push(sql.raw(AWAITING_PICKUP));
  if (query.flags) where.push(sql.raw(query.flags === 'medical' ? HAS_MEDICAL : HAS_DIETARY));
  if (query.consent) where.push(consentOutstanding(query.consent));
  return where;
}

function orderBy(query: TableQuery): { order: SQL; person: boolean } {
  const dir = query.dir === 'desc' ? 'DESC' : 'ASC';
  if (query.sort === 'relevance' && query.q) {
    const m = searchMatch(query.q);
    return { order: sql`${m.rank}, lower(p.legal_last_name), lower(p.legal_first_name), r.id`, person: true };
  }
  const sort = query.sort === 'relevance' || !query.sort ? 'name' : query.sort;
  // Only the check-in time can be NULL (never checked in: last either way). The name keys keep
  // PostgreSQL's default NULLS order, so the index people_name_sort serves both directions.
  const nulls = sort === 'checked_in' ? ' NULLS LAST' : '';
  const keys: readonly string[] = SORT_KEYS[sort];
  return {
    order: sql.raw(`${keys.map((k) => `${k} ${dir}${nulls}`).join(', ')}, r.id ${dir}`),
    // An order by registration columns alone lets the page read registrations without people.
    person: keys.some((k) => /\bp\./.test(k)),
  };
}

/** The applied query: trimmed search, flags only for sensitive callers, relevance only with a term. */
function normalise(ctx: EventCtx, input: TableQuery): TableQuery {
  const q = (input.q ?? '').trim();
  if (q.length > SEARCH_MAX_LENGTH) throw unprocessable(`q must be at most ${SEARCH_MAX_LENGTH} characters`);
  const query: TableQuery = { ...input, page: Math.max(1, input.page ?? 1) };
  if (q) query.q = q;
  else delete query.q;
  if (!ctx.access.visibility.sensitive) delete query.flags;
  query.sort = input.sort ?? (q ? 'relevance' : 'name');
  if (query.sort === 'relevance' && !q) query.sort = 'name';
  return query;
}

/** One page of the table for the authorised event (participants access checked by the gate). */
export async function participantsTable(ctx: EventCtx, input: TableQuery): Promise<TablePage> {
  const query = normalise(ctx, input);
  const event = ctx.access.event;
  const page = query.page ?? 1;
  const order = orderBy(query);
  const { ids, total, exact } = await pageIds(ctx.db, event.id, {
    where: conditions(query, query.q ? phoneRunsFor(ctx, query.q) : []),
    person: query.q !== undefined || query.minor !== undefined,
    order: order.order,
    orderPerson: order.person,
    limit: PER_PAGE,
    offset: (page - 1) * PER_PAGE,
    bound: COUNT_BOUND,
  });
  const rows = await rowsOf<TableRow>(ctx.db, event.id, ctx.access.visibility, ids);
  return {
    rows,
    total,
    exact,
    page,
    pages: exact ? Math.max(1, Math.ceil(total / PER_PAGE)) : null,
    per_page: PER_PAGE,
    query,
    columns: { pii: ctx.access.visibility.pii, sensitive: ctx.access.visibility.sensitive },
  };
}
