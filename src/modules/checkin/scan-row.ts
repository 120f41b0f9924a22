/**
 * A stored scan as the API shows it (spec "Scan", plus `type`, `verdict`, `attention_codes` and
 * `forced`: docs/checkin.md "Door verdicts"): the columns every scan read selects, and the JSON
 * built from them (never `collected_by`, a name: only exit answers show it). Shared by POST /scans, GET /scans, undo, the live feed and context delete.
 */
import { sql } from 'drizzle-orm';
import { isoTimestamp } from '../../lib/time.js';
import type { ScanJson } from './checkin.schemas.js';

export type ScanRow = {
  id: number;
  registration_id: number;
  scan_context_id: number;
  source: 'qr' | 'nfc' | 'manual';
  client_scan_id: string | null;
  outcome: 'scanned' | 'already_scanned';
  scanned_at: string;
  created_at: string;
  scanner_id: number | null;
  scanner_name: string | null;
  type: 'entry' | 'exit';
  verdict: 'admitted' | 'warning' | 'refused';
  attention: string[];
  forced: boolean;
  collected_by: string | null;
};

export const SCAN_COLUMNS =
  sql.raw(`s.id::int AS id, s.registration_id, s.scan_context_id, s.source, s.client_scan_id,
  s.outcome, s.scanned_at::text AS scanned_at, s.created_at::text AS created_at, u.id AS scanner_id, u.name AS scanner_name,
  s.type, s.verdict, s.attention, s.forced, s.collected_by`);
export const SCAN_FROM = sql.raw('scans s LEFT JOIN users u ON u.id = s.scanner_user_id');

export function scanJson(row: ScanRow): ScanJson {
  return {
    id: Number(row.id),
    participant_event_id: row.registration_id,
    scan_context_id: row.scan_context_id,
    source: row.source,
    client_scan_id: row.client_scan_id,
    scanned_at: isoTimestamp(row.scanned_at)!,
    created_at: isoTimestamp(row.created_at)!,
    scanner: row.scanner_id === null ? null : { id: row.scanner_id, name: row.scanner_name ?? '' },
    type: row.type,
    verdict: row.verdict,
    attention_codes: row.attention,
    forced: row.forced,
  };
}
