/**
 * Where the full sync's time goes inside PostgreSQL: EXPLAIN (ANALYZE, BUFFERS) of one batch of the
 * list (the first 500 rows, as participants.service reads them; the endpoint runs n / 500 of them), as the server runs it by default and with `SET LOCAL jit = off`. Reports execution,
 * planning and JIT compilation time and temporary-file spill. These counters are far less noisy
 * than latency, so they back the src/ suggestions in the bench report. PostgreSQL only (PGlite has
 * no JIT); each run executes the full query, so it costs as much as a sync.
 */
import { currentWatermark, waitForQuiet } from '../mutate.js';
import { listBatchStatement, listStatement } from '../sql.js';
import type { Scenario } from './types.js';

interface Explained {
  Plan: { 'Temp Written Blocks'?: number; 'Shared Hit Blocks'?: number };
  'Planning Time'?: number;
  'Execution Time'?: number;
  JIT?: { Functions?: number; Timing?: { Total?: number | { Total?: number } } };
}

function summary(doc: Explained) {
  const total = doc.JIT?.Timing?.Total;
  const jitMs = typeof total === 'number' ? total : (total?.Total ?? 0);
  return {
    executionMs: Math.round(doc['Execution Time'] ?? 0),
    planningMs: Math.round(doc['Planning Time'] ?? 0),
    jitMs: Math.round(jitMs),
    jitFunctions: doc.JIT?.Functions ?? 0,
    tempWrittenMB: Math.round(((doc.Plan['Temp Written Blocks'] ?? 0) * 8) / 1024),
  };
}

export const sqlProfile: Scenario = {
  name: 'sql-profile',
  sizes: (all) => all,
  async run(ctx) {
    if (ctx.db !== 'pg') return;
    await waitForQuiet(ctx);
    const watermark = await currentWatermark(ctx);
    const list = listStatement(ctx.event.eventId, watermark);
    const ids = (await ctx.query(list)).rows.map((r) => Number(r.id));
    const st = listBatchStatement(ctx.event.eventId, ids.slice(0, 500), watermark);
    const explain = {
      text: `EXPLAIN (ANALYZE, BUFFERS, SUMMARY, FORMAT JSON) ${st.text}`,
      params: st.params,
    };
    const parse = (rows: Record<string, unknown>[]) => {
      const raw = Object.values(rows[0]!)[0];
      return summary(((typeof raw === 'string' ? JSON.parse(raw) : raw) as Explained[])[0]!);
    };
    const [asIs] = await ctx.host.call('script', { statements: [explain] });
    const [, jitOff] = await ctx.host.call('script', {
      statements: [{ text: 'SET LOCAL jit = off', params: [] }, explain],
    });
    const a = parse(asIs!.rows);
    const b = parse(jitOff!.rows);
    ctx.log(
      `  list batch (500 of ${ids.length} rows) at n=${ctx.n}: execution ${a.executionMs} ms (JIT ${a.jitMs} ms, ${a.jitFunctions} functions), ` +
        `planning ${a.planningMs} ms, temp written ${a.tempWrittenMB} MB; with jit=off: execution ${b.executionMs} ms`,
    );
    ctx.attach(`sql-profile@${ctx.n}`, { default: a, jitOff: b });
  },

  summary(details) {
    const lines: string[] = [];
    for (const [key, byDb] of Object.entries(details)) {
      if (!key.startsWith('sql-profile@')) continue;
      for (const [db, d] of Object.entries(byDb)) {
        const v = d as { default: ReturnType<typeof summary>; jitOff: ReturnType<typeof summary> };
        lines.push(
          `  ${db} n=${key.slice('sql-profile@'.length)}: execution ${v.default.executionMs} ms of which JIT ${v.default.jitMs} ms, ` +
            `temp spill ${v.default.tempWrittenMB} MB; jit=off: ${v.jitOff.executionMs} ms`,
        );
      }
    }
    return lines.length ? ['full-sync statement inside PostgreSQL (EXPLAIN ANALYZE):', ...lines] : [];
  },
};
