/**
 * What fills a V8 heap snapshot: self size summed by constructor (objects), or by type for strings,
 * code, arrays and the rest, largest first. For finding where a bench's heap goes.
 *
 *   npx tsx bench/heapSummary.ts FILE.heapsnapshot [rows, default 25]
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: heapSummary.ts FILE.heapsnapshot [rows]');
const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const fields = snap.snapshot.meta.node_fields;
const types = snap.snapshot.meta.node_types[0];
const width = fields.length;
const typeAt = fields.indexOf('type');
const nameAt = fields.indexOf('name');
const sizeAt = fields.indexOf('self_size');
const totals = new Map<string, { bytes: number; count: number }>();
let all = 0;
for (let i = 0; i < snap.nodes.length; i += width) {
  const type = types[snap.nodes[i + typeAt] as number] ?? '?';
  const size = snap.nodes[i + sizeAt] as number;
  all += size;
  const key = type === 'object' || type === 'closure' ? `${type} ${snap.strings[snap.nodes[i + nameAt] as number] ?? '?'}` : `(${type})`;
  const t = totals.get(key) ?? { bytes: 0, count: 0 };
  t.bytes += size;
  t.count += 1;
  totals.set(key, t);
}
const mb = (n: number): string => (n / 1024 / 1024).toFixed(2);
console.log(`${mb(all)} MB in ${snap.nodes.length / width} nodes`);
for (const [key, t] of [...totals].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(rowsArg ?? 25))) {
  console.log(`${mb(t.bytes).padStart(8)} MB ${String(t.count).padStart(9)}  ${key.slice(0, 100)}`);
}
