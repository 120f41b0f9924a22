/**
 * The badge printout alone, in one process (docs/performance.md "Papers: what a badge page
 * keeps"): no database, no HTTP; badges drawn exactly as the export draws them (`BadgeSheet` into
 * `pdfOut`, 500 a batch, waiting for `flushed()`), the PDF read into a null sink. At each
 * checkpoint (badge counts, ascending) it forces a full collection and prints the live JavaScript
 * heap above the start, in MB, and per page in bytes: what the document keeps for every page
 * written. `--layout=a4|letter|label-4x3|label-62x100` (default a4); `--snapshot=FILE` writes a
 * heap snapshot at the last checkpoint (open in Chrome DevTools, or summarise it with
 * `bench/heap-summary.ts FILE`).
 *
 *   node --expose-gc --import tsx bench/badges-heap.ts 2000 20000 100000
 */
import { writeHeapSnapshot } from 'node:v8';
import { BADGE_LAYOUTS, type BadgeLayout, BadgeSheet } from '../src/modules/exports/printouts/badges.js';
import { pdfOut } from '../src/modules/exports/printouts/pdf.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const layout = (flag('layout') ?? 'a4') as BadgeLayout;
const snapshot = flag('snapshot');
const checkpoints = args.filter((a) => !a.startsWith('--')).map(Number);
if (checkpoints.length === 0) checkpoints.push(2_000, 20_000, 100_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const spec = BADGE_LAYOUTS[layout];
const perPage = spec.cols * spec.rows;
const BATCH = 500;

function rec(i: number) {
  const hex = (i * 2654435761) >>> 0;
  return {
    uuid: `${hex.toString(16).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`,
    first: `First${i}`,
    last: `Last${i % 997}`,
    preferred: i % 3 === 0 ? `Pref${i}` : null,
    pronouns: i % 2 === 0 ? 'they/them' : null,
    group: `Group ${i % 40}`,
    color: `#${(hex & 0xffffff).toString(16).padStart(6, '0')}`,
    photo: null,
  };
}

const size = typeof spec.size === 'string' ? spec.size : [spec.size[0], spec.size[1]];
const pdf = pdfOut('Badges', size as [number, number] | string);
let bytes = 0;
pdf.out.on('data', (c: Buffer) => {
  bytes += c.length;
});
const sheet = new BadgeSheet(pdf.doc, layout, 'Bench event');
gc();
const base = process.memoryUsage();
const start = base.heapUsed;
// Peaks between checkpoints (garbage included), sampled every 20 ms like bench/memory.ts.
const peak = { rss: 0, heapUsed: 0, external: 0 };
const timer = setInterval(() => {
  const m = process.memoryUsage();
  for (const k of ['rss', 'heapUsed', 'external'] as const) peak[k] = Math.max(peak[k], m[k] - base[k]);
}, 20);
const mb = (n: number) => Math.round(n / 2 ** 20);
let drawn = 0;
for (const target of checkpoints) {
  while (drawn < target) {
    const n = Math.min(BATCH, target - drawn);
    // A batch is read whole before it is drawn, as the export reads it from the database.
    const batch = Array.from({ length: n }, (_, i) => rec(drawn + i));
    for (const r of batch) {
      sheet.badge(r, null);
      await pdf.flushed();
    }
    drawn += n;
    await new Promise((resolve) => setImmediate(resolve));
  }
  gc();
  const live = process.memoryUsage().heapUsed - start;
  const pages = Math.ceil(drawn / perPage);
  console.log(
    `${String(drawn).padStart(7)} badges, ${String(pages).padStart(6)} pages (${layout}), ` +
      `${(bytes / 2 ** 20).toFixed(1)} MB written: live heap +${(live / 2 ** 20).toFixed(1)} MB, ` +
      `${Math.round(live / pages)} B a page; peaks so far: RSS +${mb(peak.rss)}, heap +${mb(peak.heapUsed)}, ` +
      `external +${mb(peak.external)} MB`,
  );
}
if (snapshot) console.log(`snapshot: ${writeHeapSnapshot(snapshot)}`);
await pdf.finish();
clearInterval(timer);
console.log(`finished: ${(bytes / 2 ** 20).toFixed(1)} MB`);
