/**
 * A scan request and the door's decision on it (docs/checkin.md "Door verdicts", "Presence"):
 * validation that needs no database, then, from the context and the registration's facts, the
 * verdict and whether the scan is written, refused (409), or needs more (403, 422).
 */
import { mayOverrideVerdict } from '../../access/policy.js';
import type { EventCtx } from '../../deps.js';
import { forbidden, unprocessable } from '../../lib/errors.js';
import { isIsoDateTime } from '../../lib/time.js';
import type { ScanInput } from './checkin.schemas.js';
import { CONTEXT_NOT_IN_EVENT, type ContextRow, MAX_INT } from './contexts.js';
import type { ScanFacts } from './door-facts.js';
import { type ParticipantRef, participantRef } from './participant-ref.js';
import {
  type AttentionCode,
  attentionCodes,
  effectiveRefuse,
  type ScanType,
  type Verdict,
  verdictOf,
} from './verdict.js';

export const REASON_REQUIRED = 'reason is required to let someone in anyway';
export const MAY_NOT_OVERRIDE =
  'Only event admins, safeguarding leads, series organisers and global admins can let someone in anyway';
export const EXIT_NEEDS_PRESENCE = 'This scan context does not track presence: exits are not recorded here';
export const COLLECTED_BY_REQUIRED =
  'collected_by is required: this participant is a minor who may not leave unaccompanied';
export const COLLECTED_BY_EXIT_ONLY = 'collected_by is only recorded at an exit';

/** A validated scan request (validateScan()). */
export interface ScanRequest {
  ref: ParticipantRef;
  contextId: number | undefined;
  source: 'qr' | 'nfc' | 'manual';
  clientScanId: string | null;
  scannedAt: string | null;
  type: ScanType;
  force: boolean;
  reason: string | null;
  collectedBy: string | null;
}

/** Validation that needs no database (422). */
export function validateScan(input: ScanInput): ScanRequest {
  if (input.participant_id === undefined && input.badge_token === undefined) {
    throw unprocessable('participant_id or badge_token is required');
  }
  if (input.scanned_at !== undefined && !isIsoDateTime(input.scanned_at)) {
    throw unprocessable('scanned_at must be an ISO 8601 date-time, e.g. 2026-11-22T10:00:00.000Z');
  }
  const id = input.scan_context_id;
  if (id !== undefined && (id < 1 || id > MAX_INT)) throw unprocessable(CONTEXT_NOT_IN_EVENT);
  const type = input.type ?? 'entry';
  const reason = input.reason?.trim() || null;
  if (input.force === true && reason === null) throw unprocessable(REASON_REQUIRED);
  const collectedBy = input.collected_by?.trim() || null;
  if (collectedBy !== null && type !== 'exit') throw unprocessable(COLLECTED_BY_EXIT_ONLY);
  return {
    ref: participantRef(input),
    contextId: id,
    source: input.source ?? 'qr',
    clientScanId: input.client_scan_id ?? null,
    scannedAt: input.scanned_at ?? null,
    type,
    force: input.force === true,
    reason,
    collectedBy,
  };
}

/** What is written with the scan, and what is audited with it. */
export interface Decision {
  verdict: Verdict;
  codes: AttentionCode[];
  forced: boolean;
  /** Audited in the scan's transaction: an override (with its reason) or a minor's collection. */
  audit: 'force' | 'collected' | null;
}

/** A single scan the door refuses: answered 409 with the participant, nothing written. */
export class Refusal {
  constructor(
    readonly codes: AttentionCode[],
    readonly refuse: string[],
  ) {}
}

/** An exit that needs `collected_by` (422, with the attention and, for PII callers, the pickup adults). */
export class NeedsCollector {
  constructor(readonly codes: AttentionCode[]) {}
}

/**
 * The door's decision. `replay` (offline bulk replays): the person already went through, so the
 * scan is always written and reports its verdict; a `force` from a role that may override still
 * marks it forced. Otherwise a refused entry is a Refusal unless forced by a role that may
 * override (else 403), and the exit of a minor who may not leave alone needs `collected_by` (422,
 * carrying the attention codes; the caller adds the pickup adults for callers who may see them).
 */
export function decide(
  ctx: EventCtx,
  request: ScanRequest,
  context: ContextRow,
  facts: ScanFacts,
  replay: boolean,
): Decision | Refusal | NeedsCollector {
  if (request.type === 'exit' && !context.tracks_presence) throw unprocessable(EXIT_NEEDS_PRESENCE);
  const codes = attentionCodes(facts, request.type, context.tracks_presence);
  const refuse = effectiveRefuse(context);
  const verdict = verdictOf(codes, refuse, request.type);
  if (facts.dup) return { verdict, codes, forced: false, audit: null }; // answered from the stored scan
  const collected = request.type === 'exit' && codes.includes('not_unaccompanied');
  if (collected && request.collectedBy === null && !replay) return new NeedsCollector(codes);
  const audit = collected && request.collectedBy !== null ? 'collected' : null;
  if (verdict !== 'refused') return { verdict, codes, forced: false, audit };
  const may = mayOverrideVerdict(ctx.access.principal, ctx.access.roles);
  if (request.force && may) return { verdict, codes, forced: true, audit: 'force' };
  if (replay) return { verdict, codes, forced: false, audit: null };
  if (request.force) throw forbidden(MAY_NOT_OVERRIDE);
  return new Refusal(codes, refuse);
}
