/**
 * The XLSX writer alone, at growing row counts, in a fresh process each (docs/performance.md
 * "Papers"): no database, no HTTP, rows of 60 text cells made as fast as the writer takes them.
 * Prints the process's peak growth above its start (after a forced full collection), in MB: RSS,
 * JavaScript heap and ArrayBuffers. It separates the writer's own memory from the database's and
 * the server's, and shows where it stops growing: V8 sizes its young generation and heap limits to
 * the allocation rate it sees, so the first tens of thousands of rows raise the peak once; after
 * that a flat writer stays level however many rows follow, and a leaking one keeps climbing.
 *
 *   node --expose-gc --import tsx bench/xlsx-plateau.ts 2000 20000 60000 200000
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { xlsxSink } from '../src/modules/exports/xlsx-writer.js';

const COLUMNS = Array.from({ length: 60 }, (_, i) => ({
  header: `Column ${i}`,
  type: 'text' as const,
  width: 12,
}));
const BATCH = 500;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Writes `n` rows and prints one line of peak growth. */
async function measure(n: number): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.memoryUsage();
  const peak = { ...start };
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    for (const k of ['rss', 'heapUsed', 'arrayBuffers'] as const) peak[k] = Math.max(peak[k], now[k]);
  }, 20);
  const sink = xlsxSink(COLUMNS, 'Full');
  let bytes = 0;
  sink.stream.on('data', (c: Buffer) => {
    bytes += c.length;
  });
  const ended = new Promise((resolve) => sink.stream.on('end', resolve));
  for (let b = 0; b * BATCH < n; b++) {
    const rows = Array.from({ length: Math.min(BATCH, n - b * BATCH) }, (_, r) =>
      COLUMNS.map((_, i) => `row ${b * BATCH + r} column ${i} text`),
    );
    await sink.write(rows);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await sink.end([['Rows', n]]);
  await ended;
  clearInterval(timer);
  console.log(
    `${String(n).padStart(7)} rows, ${String(mb(bytes)).padStart(3)} MB file: peak growth RSS +${mb(peak.rss - start.rss)}, ` +
      `heap +${mb(peak.heapUsed - start.heapUsed)}, ArrayBuffers +${mb(peak.arrayBuffers - start.arrayBuffers)} MB`,
  );
}

const sizes = process.argv.slice(2).map(Number);
if (process.env.XLSX_PLATEAU_CHILD) await measure(sizes[0]!);
else
  for (const n of sizes.length ? sizes : [2_000, 20_000, 60_000]) {
    // A fresh process per size: a process that has already written a large file starts warm.
    execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), String(n)], {
      stdio: 'inherit',
      env: { ...process.env, XLSX_PLATEAU_CHILD: '1' },
    });
  }
