/**
 * POST /events/{event_id}/scans (docs/decisions.md "Check-in") with group commit. Concurrent scan requests for one
 * event are coalesced (lib/batcher.ts): a request that finds a free slot goes at once; the ones
 * that arrive while every slot is busy go together as soon as one frees. A batch costs two round
 * trips whatever its size: ONE statement and ONE transaction record every scan
 * (muster_scan_items(), drizzle/0007_scan_batch.sql), then ONE read per field visibility returns
 * the participants' JSON. Per scan the rules are those of a single scan (scan.service.ts): the
 * same row lock on the registration, dedupe, outcome, travel pickup, NFC badge, live-feed entry.
 *
 * Every request still gets its own answer: 422 for its context, 404 for its participant, its own
 * scan and participant (serialized for its own caller's visibility). Scans in a travel-pickup
 * context are recorded one by one (their staff push is enqueued in the scan's transaction). When
 * the batch statement fails as a whole on a race (an integrity violation such as two identical
 * client_scan_ids from two server processes, a badge-token collision or a context deleted
 * meanwhile; a deadlock), nothing of it was written and each request is recorded alone by
 * recordScan(), which retries on a unique violation.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { preparedSql } from '../../db/prepared.js';
import type { EventCtx } from '../../deps.js';
import { batcherPer, type Pending } from '../../lib/batcher.js';
import { notFound, pgErrorCode, unprocessable } from '../../lib/errors.js';
import type { ScanInput } from './checkin.schemas.js';
import { CONTEXT_COLUMNS, type ContextRow } from './contexts.js';
import { registrationIdSql } from './participant-ref.js';
import {
  CONTEXT_REQUIRED,
  PARTICIPANT_NOT_FOUND,
  type Recorded,
  readParticipants,
  recordScan,
  resolutionError,
  respond,
  responseBody,
  type ScanRequest,
  type ScanResult,
  scanValues,
  validateScan,
} from './scan.service.js';

/** Most scans recorded by one statement. */
export const SCAN_BATCH_MAX = 50;
/** Most batches of one event running at once (each holds one pooled connection). */
export const SCAN_BATCHES_IN_FLIGHT = 1;

type Job = { ctx: EventCtx; request: ScanRequest };

const p = (name: string) => sql.placeholder(name);

/** The registration an item names: registrationIdSql() chosen by the item's `kind`. */
const itemRegistration = sql`CASE x.kind
  WHEN 'number' THEN ${registrationIdSql('number', p('event'), sql`x.num`)}
  WHEN 'person' THEN ${registrationIdSql('person', p('event'), sql`x.num`)}
  WHEN 'uuid' THEN ${registrationIdSql('uuid', p('event'), sql`x.ref`)}
  WHEN 'badge' THEN ${registrationIdSql('badge', p('event'), sql`x.ref`)} END`;

/**
 * The batch statement. Values: `event` (id) and `items` (JSON array of batchItem()). Columns:
 * `contexts` (the event's contexts, JSON array of ContextRow), `resolved` (per item: `i`,
 * `reg_id`, `n` = contexts matching its `scan_context_id`, or all when it sent none,
 * `context_id`), `results` (muster_scan_items(): `[{i, r}]` for the items it recorded).
 */
const batchStatement = preparedSql<{ contexts: string | null; resolved: string; results: string }>(
  'scan_batch',
  () => sql`WITH x AS (SELECT * FROM json_to_recordset(${p('items')}::json) AS x(i int, context int, kind text,
                  num int, ref text, scanner int, source text, client_scan_id text, scanned_at text, token text)),
       c AS (SELECT ${CONTEXT_COLUMNS} FROM scan_contexts sc JOIN events e ON e.id = sc.event_id
              WHERE sc.event_id = ${p('event')}),
       q AS (SELECT x.*, ${itemRegistration} AS reg_id,
                    (SELECT count(*)::int FROM c WHERE x.context IS NULL OR c.id = x.context) AS n,
                    COALESCE(x.context, (SELECT min(c.id) FROM c)) AS context_id
               FROM x)
  SELECT (SELECT json_agg(c)::text FROM c) AS contexts,
         (SELECT json_agg(json_build_object('i', q.i, 'reg_id', q.reg_id, 'n', q.n, 'context_id', q.context_id))::text
            FROM q) AS resolved,
         muster_scan_items(${p('event')}::int, (
           SELECT json_agg(json_build_object('i', q.i, 'reg_id', q.reg_id, 'context_id', q.context_id,
                    'checks_in', c.checks_in, 'scanner', q.scanner, 'source', q.source,
                    'client_scan_id', q.client_scan_id, 'scanned_at', q.scanned_at, 'token', q.token))
             FROM q JOIN c ON c.id = q.context_id
            WHERE q.n = 1 AND q.reg_id IS NOT NULL AND NOT c.is_travel_pickup))::text AS results`,
);

/** One item of the batch statement's `items`: the request's values as muster_scan() takes them. */
function batchItem(i: number, { ctx, request }: Job) {
  const { ref } = request;
  return {
    i,
    context: request.contextId ?? null,
    kind: ref.kind,
    num: ref.kind === 'number' || ref.kind === 'person' ? ref.value : null,
    ref: ref.kind === 'uuid' || ref.kind === 'badge' ? ref.value : null,
    ...scanValues(ctx, request),
  };
}

type Resolved = { i: number; reg_id: number | null; n: number; context_id: number | null };

/** Settles `call` with `answer()`'s value or error. */
async function settle<O>(call: Pending<Job, O>, answer: () => Promise<O>): Promise<void> {
  try {
    call.resolve(await answer());
  } catch (error) {
    call.reject(error);
  }
}

/** One request alone: recordScan() (one statement, retried on a race) and its own participant read. */
const alone = (call: Pending<Job, string>) =>
  settle(call, async () => respond(call.input.ctx, await recordScan(call.input.ctx, call.input.request)));

/**
 * Errors after which the batch's requests are recorded one by one: an integrity violation (23xxx:
 * a race on a unique index, a context deleted meanwhile) or a deadlock. The failed statement wrote
 * nothing; alone, each request gets its own answer (a retry, a 404, a 422). Anything else (the
 * database gone) fails the batch's requests.
 */
const retryAlone = (code: string | undefined) => code?.startsWith('23') === true || code === '40P01';

/** Runs one batch (lib/batcher.ts `run`): settles every call. */
async function runBatch(batch: Pending<Job, string>[]): Promise<void> {
  const { ctx } = batch[0]!.input;
  let row: { contexts: string | null; resolved: string; results: string };
  try {
    const items = JSON.stringify(batch.map((call, i) => batchItem(i, call.input)));
    row = (await batchStatement(ctx.db).execute({ event: ctx.access.event.id, items })).rows[0]!;
  } catch (error) {
    if (!retryAlone(pgErrorCode(error))) throw error;
    await Promise.all(batch.map(alone));
    return;
  }
  const contexts = new Map((JSON.parse(row.contexts ?? '[]') as ContextRow[]).map((c) => [c.id, c]));
  const results = new Map((JSON.parse(row.results) as { i: number; r: ScanResult }[]).map((x) => [x.i, x.r]));
  const recorded: { call: Pending<Job, string>; scan: Recorded }[] = [];
  const later: Promise<void>[] = [];
  for (const item of JSON.parse(row.resolved) as Resolved[]) {
    const call = batch[item.i]!;
    const context = item.context_id === null ? undefined : contexts.get(item.context_id);
    const refused = resolutionError(call.input.request, item.n, item.reg_id);
    if (refused) call.reject(refused);
    else if (!context)
      call.reject(unprocessable(CONTEXT_REQUIRED)); // n = 1: not reached
    else if (context.is_travel_pickup) later.push(alone(call));
    else {
      const result = results.get(item.i);
      if (!result) {
        call.reject(notFound(PARTICIPANT_NOT_FOUND));
        continue;
      }
      const row = result.scan;
      // A repeated client_scan_id answers with the stored scan, whose context may be another one.
      const stored = contexts.get(row.scan_context_id) ?? context;
      recorded.push({
        call,
        scan: { row, context: stored, deduplicated: result.deduplicated, firstAt: result.first_at },
      });
    }
  }
  // The batch has committed. Its participants are read before its slot frees (letting the next
  // batch start meanwhile measured no gain: bench/README.md "Check-in, fourth pass").
  await Promise.all([...later, respondAll(ctx.db, recorded)]);
}

/** The responses of the recorded scans: one participant read per visibility among their callers. */
async function respondAll(db: Db, recorded: { call: Pending<Job, string>; scan: Recorded }[]): Promise<void> {
  const byVisibility = new Map<string, typeof recorded>();
  for (const r of recorded) {
    const v = r.call.input.ctx.access.visibility;
    const key = `${v.pii}/${v.sensitive}`;
    const group = byVisibility.get(key);
    if (group) group.push(r);
    else byVisibility.set(key, [r]);
  }
  await Promise.all(
    [...byVisibility.values()].map(async (group) => {
      const visibility = group[0]!.call.input.ctx.access.visibility;
      const ids = [...new Set(group.map((r) => r.scan.row.registration_id))];
      const json = await readParticipants(db, visibility, ids);
      for (const { call, scan } of group) {
        const participant = json.get(scan.row.registration_id);
        // Read after the batch committed: a registration deleted in between answers 404 (not a 500).
        if (participant === undefined) call.reject(notFound(PARTICIPANT_NOT_FOUND));
        else call.resolve(responseBody(scan, participant));
      }
    }),
  );
}

/** A batcher per database handle and event, dropped when idle. */
const submitterFor = batcherPer<Db, number, Job, string>(() => ({
  maxBatch: SCAN_BATCH_MAX,
  maxInFlight: SCAN_BATCHES_IN_FLIGHT,
  run: runBatch,
}));

/**
 * POST /events/{e}/scans: records the scan (with whatever other scans of the event arrive with
 * it) and returns the response body as JSON text: `{success, outcome, first_scan_in_context,
 * first_scanned_at, deduplicated, scan, scan_context, participant}`. Errors: 422 (body, context),
 * 404 `Participant not found for this event`.
 */
export async function createScan(ctx: EventCtx, input: ScanInput): Promise<string> {
  const request = validateScan(input);
  return submitterFor(ctx.db, ctx.access.event.id)({ ctx, request });
}
