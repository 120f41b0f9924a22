/**
 * Declares the tests of a row runner (one row: principal × route × target → expected answer) so
 * that each refused row runs once and still proves it changed nothing: every refused row first
 * (their fixtures prepared before a database snapshot), then a test that takes a second snapshot
 * and compares it with the first, then the allowed rows (which may change the database). Replaying
 * every refused row a second time between two snapshots, as the runners did before, doubled their
 * requests for the same proof.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { snapshotDb } from './app.js';

export interface RowCells<R, P> {
  rows: readonly R[];
  /** The test's name for a row. */
  name(row: R): string;
  refused(row: R): boolean;
  /** The database of the app under test (called when the tests run). */
  deps(): Pick<Deps, 'database'>;
  /** Builds a row's request, with any fixture it acts on (refused rows: all before the first snapshot). */
  prepare(row: R): Promise<P> | P;
  /** Sends the prepared request and checks the answer. */
  check(row: R, prepared: P): Promise<void>;
}

export function itEachRow<R, P>(cells: RowCells<R, P>): void {
  const refused = cells.rows.filter((row) => cells.refused(row));
  const allowed = cells.rows.filter((row) => !cells.refused(row));
  describe('refused rows, which change nothing', () => {
    const prepared = new Map<R, P>();
    let before: Awaited<ReturnType<typeof snapshotDb>>;
    let ran = 0;
    beforeAll(async () => {
      for (const row of refused) prepared.set(row, await cells.prepare(row));
      before = await snapshotDb(cells.deps());
    }, 120_000);

    it.each(refused.map((row) => [cells.name(row), row] as const))('%s', async (_name, row) => {
      ran++;
      await cells.check(row, prepared.get(row) as P);
    });

    it('the database is byte-for-byte the same after every refused row', async () => {
      expect(refused.length).toBeGreaterThan(0);
      expect(ran, 'every refused row ran').toBe(refused.length);
      expect(await snapshotDb(cells.deps())).toEqual(before);
    });
  });

  if (allowed.length > 0)
    it.each(allowed.map((row) => [cells.name(row), row] as const))('%s', async (_name, row) => {
      await cells.check(row, await cells.prepare(row));
    });
}
