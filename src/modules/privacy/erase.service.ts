/**
 * Erasure (docs/privacy.md "Erasure"): anonymises one person across every event in one transaction,
 * as the data map says (src/modules/privacy/data-map.ts): identifying columns overwritten, sensitive
 * sections, contacts, travel and notes deleted, sessions and tokens revoked, pending jobs naming
 * them deleted. Registrations, scans, consent statuses and group memberships stay, so every count
 * and check-in statistic is unchanged. Returns the rows touched per table (also the audit metadata).
 */
import type { Tx } from '../../db/client.js';
import { DATA_MAP, jobPayloadWhere } from './data-map.js';
import { applyErase, deleteJobs } from './rows.js';
import type { Subject } from './subject.js';

export type ErasureCounts = Record<string, number>;

/** Applies every entry's `erase` for `s` (which must be `whole`); run inside the caller's transaction. */
export async function erasePerson(tx: Tx, s: Subject): Promise<ErasureCounts> {
  if (!s.whole) throw new Error('erasure needs the whole person in scope');
  const counts: ErasureCounts = {};
  const add = (table: string, n: number | null | undefined) => {
    if (n) counts[table] = (counts[table] ?? 0) + n;
  };
  for (const entry of DATA_MAP) {
    if (!('keep' in entry.erase))
      add(entry.table, await applyErase(tx, entry.table, entry.erase, entry.where(s)));
  }
  for (const [table, n] of Object.entries(await deleteJobs(tx, jobPayloadWhere(s)))) add(table, n);
  return counts;
}
