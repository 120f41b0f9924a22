/**
 * Summarises V8 heap snapshots by kind of object (docs/performance.md "Papers: what a badge page
 * keeps"): for each (node type, constructor or string) the count and the bytes the objects
 * themselves take (self size). With two snapshots it prints the difference, largest first: what
 * grew between them (e.g. `bench/badges-heap.ts` at 2,000 and at 20,000 badges).
 *
 *   node --import tsx bench/heap-summary.ts small.heapsnapshot [large.heapsnapshot] [--top=25]
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

type Summary = Map<string, { count: number; bytes: number }>;

function summarise(file: string): Summary {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const out: Summary = new Map();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const t = types[snap.nodes[i + type]!]!;
    // Strings are grouped by kind, not by text; objects by constructor name.
    const label =
      t === 'string' || t === 'concatenated string' || t === 'sliced string'
        ? t
        : `${t}:${snap.strings[snap.nodes[i + name]!]!.slice(0, 60)}`;
    const entry = out.get(label) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snap.nodes[i + size]!;
    out.set(label, entry);
  }
  return out;
}

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
const files = args.filter((a) => !a.startsWith('--'));
const a = summarise(files[0]!);
const b = files[1] ? summarise(files[1]) : null;
const rows = [...new Set([...a.keys(), ...(b?.keys() ?? [])])].map((label) => {
  const x = a.get(label) ?? { count: 0, bytes: 0 };
  const y = b?.get(label) ?? { count: 0, bytes: 0 };
  return b ? { label, count: y.count - x.count, bytes: y.bytes - x.bytes } : { label, ...x };
});
rows.sort((p, q) => q.bytes - p.bytes);
let total = 0;
for (const r of rows) total += r.bytes;
for (const r of rows.slice(0, top))
  console.log(`${String(r.bytes).padStart(11)} B ${String(r.count).padStart(9)} × ${r.label}`);
console.log(`${String(total).padStart(11)} B in all${b ? ' (difference)' : ''}`);
