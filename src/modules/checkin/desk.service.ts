/**
 * The check-in desk's participant data: the compact shape the
 * desk page shows and caches for offline search. Only fields every caller with participants access
 * may see (names, email, status, where they are scanned): no PII or sensitive field, so the same
 * list is right for `limited` and for a safeguarding lead.
 *
 * - `deskSearch`: the API's search (GET /events/{e}/participants/search: same matching, ranking and
 *   limit of 20; blank → none; > 200 characters → 422), mapped to the compact shape.
 * - `deskRoster`: every registration of the event, ordered by name, for the browser's offline
 *   cache (the page asks only when the caller may list participants).
 */
import { sql } from 'drizzle-orm';
import type { EventCtx } from '../../deps.js';
import { searchParticipants } from '../participants/participants.service.js';
import { readDoorFacts } from './door-facts.js';
import { attentionCodes } from './verdict.js';

/** One participant as the desk shows it (field names from the spec's Participant). */
export type DeskParticipant = {
  participant_event_id: number;
  participant_id: number;
  display_name: string;
  full_name: string;
  email: string;
  status: string;
  /** Ids of the scan contexts the registration has at least one scan in. */
  scanned_context_ids: number[];
  /** The attention codes any entry of this registration raises (no `already_scanned`). */
  attention_codes: string[];
};

/** Attention codes per registration id: the door's facts (one statement), codes of an exit scan
 * (an exit never raises `already_scanned`, the one code that depends on the context's scans). */
async function attentionOf(ctx: EventCtx, ids: number[]): Promise<Map<number, string[]>> {
  if (ids.length === 0) return new Map();
  const items = ids.map((value, i) => ({
    i,
    contextId: undefined,
    ref: { kind: 'number' as const, value },
    clientScanId: null,
  }));
  const { resolved } = await readDoorFacts(ctx.db, ctx.access.event.id, items);
  const out = new Map<number, string[]>();
  for (const r of resolved.values()) {
    if (r.facts) out.set(ids[r.i]!, attentionCodes(r.facts, 'exit', false));
  }
  return out;
}

interface SearchHit {
  participant_event_id: number;
  participant_id: number;
  display_name: string;
  full_name: string;
  email: string;
  status: string;
  scans_by_context: { scan_context_id: number; scan_count: number }[];
}

/** `{results: DeskParticipant[]}`: the API search's matches, best first (at most 20). */
export async function deskSearch(
  ctx: EventCtx,
  q: string | undefined,
): Promise<{ results: DeskParticipant[] }> {
  const { results } = JSON.parse(await searchParticipants(ctx, { q })) as { results: SearchHit[] };
  const codes = await attentionOf(
    ctx,
    results.map((p) => p.participant_event_id),
  );
  return {
    results: results.map((p) => ({
      participant_event_id: p.participant_event_id,
      participant_id: p.participant_id,
      display_name: p.display_name,
      full_name: p.full_name,
      email: p.email,
      status: p.status,
      scanned_context_ids: p.scans_by_context.filter((s) => s.scan_count > 0).map((s) => s.scan_context_id),
      attention_codes: codes.get(p.participant_event_id) ?? [],
    })),
  };
}

/** `{participants: DeskParticipant[]}`: the whole event, by display name then id. */
export async function deskRoster(ctx: EventCtx): Promise<{ participants: DeskParticipant[] }> {
  const res = await ctx.db.execute<Omit<DeskParticipant, 'attention_codes'>>(
    sql`SELECT r.id AS participant_event_id, p.id AS participant_id,
               COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name || ' ' || p.legal_last_name) AS display_name,
               p.legal_first_name || ' ' || p.legal_last_name AS full_name, p.email, r.status,
               COALESCE((SELECT array_agg(DISTINCT s.scan_context_id ORDER BY s.scan_context_id)
                           FROM scans s WHERE s.registration_id = r.id), '{}') AS scanned_context_ids
          FROM registrations r JOIN people p ON p.id = r.person_id
         WHERE r.event_id = ${ctx.access.event.id}
         ORDER BY lower(COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name || ' ' || p.legal_last_name)), r.id`,
  );
  const codes = await attentionOf(
    ctx,
    res.rows.map((r) => Number(r.participant_event_id)),
  );
  return {
    participants: res.rows.map((r) => ({
      ...r,
      participant_event_id: Number(r.participant_event_id),
      participant_id: Number(r.participant_id),
      scanned_context_ids: (r.scanned_context_ids ?? []).map(Number),
      attention_codes: codes.get(Number(r.participant_event_id)) ?? [],
    })),
  };
}
