/**
 * Writing decided scans (docs/checkin.md "Door verdicts"): ONE statement for any number of them,
 * muster_scan_items() (drizzle/0017_door_verdicts.sql, running muster_scan() per scan under the
 * registration's row lock, in registration-id order). A scan that needs more in its transaction (a
 * travel pickup's staff push, an override's or a minor's collection's audit row) is written alone
 * in a transaction with it.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { preparedSql } from '../../db/prepared.js';
import { one } from '../../db/rows.js';
import type { EventCtx } from '../../deps.js';
import { recordAudit } from '../audit/audit.service.js';
import { enqueueStaffPush } from '../push/push.service.js';
import type { ContextRow } from './contexts.js';
import type { Decision, ScanRequest } from './scan-decide.js';
import type { ScanRow } from './scan-row.js';

/** What muster_scan() returns, or null: the registration is not in the event (any more). */
export type ScanResult = { deduplicated: boolean; picked: number; first_at: string; scan: ScanRow } | null;

/** One scan to write: the request, its resolved registration and context, and the decision. */
export interface ScanWrite {
  i: number;
  request: ScanRequest;
  registrationId: number;
  context: ContextRow;
  decision: Decision;
  /** The scanning user (null for a non-user principal). */
  scanner: number | null;
}

const p = (name: string) => sql.placeholder(name);

const writeStatement = preparedSql<{ results: string }>(
  'scan_write',
  () => sql`SELECT muster_scan_items(${p('event')}::int, ${p('items')}::json)::text AS results`,
);

function writeItem(w: ScanWrite) {
  return {
    i: w.i,
    reg_id: w.registrationId,
    context_id: w.context.id,
    checks_in: w.context.checks_in,
    pickup: w.context.is_travel_pickup,
    scanner: w.scanner,
    source: w.request.source,
    client_scan_id: w.request.clientScanId,
    scanned_at: w.request.scannedAt,
    // 128 random bits, stored only if this is a first check-in that needs a badge token (NFC on).
    token: randomBytes(16).toString('base64url'),
    type: w.request.type,
    verdict: w.decision.verdict,
    attention: w.decision.codes,
    forced: w.decision.forced,
    collected_by: w.request.collectedBy,
  };
}

/** Writes the scans of one event (one statement); results by `i` (an unknown registration's is null). */
export async function writeScans(
  db: Tx,
  ctx: EventCtx,
  writes: ScanWrite[],
): Promise<Map<number, ScanResult>> {
  if (writes.length === 0) return new Map();
  const items = JSON.stringify(writes.map(writeItem));
  const res = await writeStatement(db).execute({ event: ctx.access.event.id, items });
  const out = JSON.parse(one(res.rows).results) as { i: number; r: ScanResult }[];
  return new Map(out.map((x) => [x.i, x.r]));
}

/** muster_scan() for one scan: the same values as one item of writeScans(). */
const writeOneStatement = preparedSql<{ r: string | null }>(
  'scan_write_one',
  () => sql`SELECT muster_scan(${p('event')}::int, ${p('reg_id')}::int, ${p('context_id')}::int,
      ${p('checks_in')}::boolean, ${p('pickup')}::boolean, ${p('scanner')}::int, ${p('source')}::text,
      ${p('client_scan_id')}::text, ${p('scanned_at')}::timestamptz, ${p('token')}::text, ${p('type')}::text,
      ${p('verdict')}::text, ARRAY(SELECT json_array_elements_text(${p('attention')}::json)),
      ${p('forced')}::boolean, ${p('collected_by')}::text)::text AS r`,
);

/** Writes one scan (its own statement: a scan recorded alone, or the one of a transaction). */
export async function writeScan(db: Tx, ctx: EventCtx, w: ScanWrite): Promise<ScanResult> {
  const { i: _i, attention, ...item } = writeItem(w);
  const res = await writeOneStatement(db).execute({
    ...item,
    event: ctx.access.event.id,
    attention: JSON.stringify(attention),
  });
  return JSON.parse(one(res.rows).r ?? 'null') as ScanResult;
}

/** Whether a scan must be written alone, in a transaction with its push job or audit row. */
export const needsTransaction = (w: Pick<ScanWrite, 'context' | 'decision'>): boolean =>
  w.context.is_travel_pickup || w.decision.audit !== null;

/**
 * One scan in a transaction: the scan, then (when it was written, not answered from a stored one)
 * the staff push of a collected traveller and the audit row of an override or a minor's collection.
 */
export async function writeScanInTransaction(ctx: EventCtx, w: ScanWrite): Promise<ScanResult> {
  const event = ctx.access.event;
  return ctx.db.transaction(async (tx) => {
    const r = await writeScan(tx, ctx, w);
    if (r === null || r.deduplicated) return r;
    const scanId = Number(r.scan.id);
    if (r.picked > 0) {
      await enqueueStaffPush(ctx, tx, {
        eventId: event.id,
        kind: 'travel_pickup',
        title: 'Traveller collected',
        body: `An inbound traveller was collected at ${w.context.name}.`,
        data: { participant_event_id: w.registrationId, scan_context_id: w.context.id, scan_id: scanId },
        excludeUserIds: w.scanner === null ? [] : [w.scanner],
      });
    }
    if (w.decision.audit !== null) {
      const forced = w.decision.audit === 'force';
      await recordAudit(tx, {
        action: forced ? 'scans.force' : 'scans.collected',
        principal: ctx.access.principal,
        eventId: event.id,
        seriesId: event.seriesId,
        targetType: 'registration',
        targetId: w.registrationId,
        // The reason and the adult's name are what was typed at the door; no sensitive detail.
        metadata: forced
          ? {
              scan_id: scanId,
              scan_context_id: w.context.id,
              reason: w.request.reason,
              attention: w.decision.codes,
            }
          : { scan_id: scanId, scan_context_id: w.context.id, collected_by: w.request.collectedBy },
      });
    }
    return r;
  });
}
