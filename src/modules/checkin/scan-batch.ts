/**
 * POST /events/{event_id}/scans (docs/checkin.md "Group commit") with group commit. Concurrent scan requests for one
 * event are coalesced (lib/batcher.ts): a request that finds a free slot goes at once; the ones
 * that arrive while every slot is busy go together as soon as one frees. A batch costs three round
 * trips whatever its size: ONE read resolves every item and reads its verdict's facts
 * (door-facts.ts), ONE statement and ONE transaction record every scan the door lets through
 * (muster_scan_items(), drizzle/0017_door_verdicts.sql), then ONE read per field visibility returns
 * the participants' JSON. Per scan the rules are those of a single scan (scan.service.ts): the
 * same row lock on the registration, dedupe, outcome, travel pickup, NFC badge, live-feed entry.
 *
 * Every request still gets its own answer: 422 for its context, 404 for its participant, its own
 * scan and participant (serialized for its own caller's visibility). Scans in a travel-pickup
 * context, overrides and minors' collections are recorded one by one (their staff push or audit
 * row is written in the scan's transaction); a refused scan is answered 409 and writes nothing. When
 * the batch statement fails as a whole on a race (an integrity violation such as two identical
 * client_scan_ids from two server processes, a badge-token collision or a context deleted
 * meanwhile; a deadlock), nothing of it was written and each request is recorded alone by
 * recordScan(), which retries on a unique violation.
 */
import type { Db } from '../../db/client.js';
import type { EventCtx } from '../../deps.js';
import { batcherPer, type Pending } from '../../lib/batcher.js';
import { notFound, pgErrorCode } from '../../lib/errors.js';
import type { ScanInput } from './checkin.schemas.js';
import { readDoorFacts } from './door-facts.js';
import {
  type Decided,
  decideItem,
  PARTICIPANT_NOT_FOUND,
  type Recorded,
  readParticipants,
  recordedOf,
  recordScan,
  respond,
  responseBody,
  type ScanRequest,
  validateScan,
} from './scan.service.js';
import { needsTransaction, writeScanInTransaction, writeScans } from './scan-write.js';

/** Most scans recorded by one statement. */
export const SCAN_BATCH_MAX = 50;
/** Most batches of one event running at once (each holds one pooled connection). */
export const SCAN_BATCHES_IN_FLIGHT = 1;

type Job = { ctx: EventCtx; request: ScanRequest };

/** Settles `call` with `answer()`'s value or error. */
async function settle<O>(call: Pending<Job, O>, answer: () => Promise<O>): Promise<void> {
  try {
    call.resolve(await answer());
  } catch (error) {
    call.reject(error);
  }
}

/** One request alone: recordScan() (retried on a race) and its own participant read. */
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
  const items = batch.map((call, i) => ({
    i,
    contextId: call.input.request.contextId,
    ref: call.input.request.ref,
    clientScanId: call.input.request.clientScanId,
  }));
  const read = await readDoorFacts(ctx.db, ctx.access.event.id, items);
  const plain: { call: Pending<Job, string>; decided: Extract<Decided, { write: unknown }> }[] = [];
  const later: Promise<void>[] = [];
  batch.forEach((call, i) => {
    const decided = decideItem(call.input.ctx, i, call.input.request, read, false);
    if ('error' in decided) later.push(decided.error.then((e) => call.reject(e)));
    else if (needsTransaction(decided.write))
      later.push(
        settle(call, async () => {
          const r = await writeScanInTransaction(call.input.ctx, decided.write);
          return respond(call.input.ctx, recordedOf(r, read.contexts, decided));
        }),
      );
    else plain.push({ call, decided });
  });
  let results: Awaited<ReturnType<typeof writeScans>>;
  try {
    results = await writeScans(
      ctx.db,
      ctx,
      plain.map((x) => x.decided.write),
    );
  } catch (error) {
    if (!retryAlone(pgErrorCode(error))) throw error;
    await Promise.all([...later, ...plain.map(({ call }) => alone(call))]);
    return;
  }
  const recorded: { call: Pending<Job, string>; scan: Recorded }[] = [];
  for (const { call, decided } of plain) {
    const r = results.get(decided.write.i) ?? null;
    if (r === null) call.reject(notFound(PARTICIPANT_NOT_FOUND));
    else recorded.push({ call, scan: recordedOf(r, read.contexts, decided) });
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
        else call.resolve(responseBody(call.input.ctx, scan, participant));
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
