/**
 * Where the memory of a started daemon comes from before it does anything: each dependency and
 * each entry point of the build imported alone into a fresh `node --expose-gc` (plain node, the
 * compiled dist/), measured after a GC against an empty node. Prints RSS and heap added per import.
 *
 *   npm run build && npx tsx bench/modules.ts
 *
 * The numbers do not add up to a whole: modules share what they import (pino and the CLI both
 * bring `node:` internals), so each row is "what importing this alone costs".
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mb } from './memoryBreakdown.js';

const root = resolve(import.meta.dirname, '..');
if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');

const dist = (file: string): string => pathToFileURL(join(root, 'dist', file)).href;
const TARGETS: readonly (readonly [string, string])[] = [
  ['@solana/web3.js', '@solana/web3.js'],
  ['better-sqlite3', 'better-sqlite3'],
  ['pino', 'pino'],
  ['zod', 'zod'],
  ['prom-client', 'prom-client'],
  ['yaml', 'yaml'],
  ['commander', 'commander'],
  ['croner + p-queue', 'croner'],
  ['dist/cli/index.js (every command, as `jupbot run` loads it)', dist('cli/index.js')],
  ['dist/daemon.js (the daemon alone)', dist('daemon.js')],
  ['dist/sim/simulator.js (what paper mode adds)', dist('sim/simulator.js')],
  ['dist/ops/prettyLog.js (what a terminal adds)', dist('ops/prettyLog.js')],
];

interface Reading {
  readonly rss: number;
  readonly heap: number;
}

/** Imports `specifier` (nothing when null) into a fresh node and reads its memory after a GC. */
function measure(specifier: string | null): Reading {
  const script = `
    ${specifier === null ? '' : `await import(${JSON.stringify(specifier)});`}
    ${specifier === 'croner' ? "await import('p-queue');" : ''}
    for (let i = 0; i < 3; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); }
    const m = process.memoryUsage();
    process.stdout.write(JSON.stringify({ rss: m.rss, heap: m.heapUsed }));`;
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out) as Reading;
}

/** The median of a few runs, so one noisy start does not decide a row. */
function median(specifier: string | null, runs = 3): Reading {
  const readings = Array.from({ length: runs }, () => measure(specifier));
  const mid = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  return { rss: mid(readings.map((r) => r.rss)), heap: mid(readings.map((r) => r.heap)) };
}

const empty = median(null);
console.log(`node ${process.version}: an empty node after GC: rss ${mb(empty.rss)} MB, heap ${mb(empty.heap)} MB`);
console.log('');
console.log(`${'import'.padEnd(62)} ${'+rss MB'.padStart(8)} ${'+heap MB'.padStart(9)}`);
for (const [label, specifier] of TARGETS) {
  const r = median(specifier);
  console.log(`${label.padEnd(62)} ${mb(r.rss - empty.rss).padStart(8)} ${mb(r.heap - empty.heap).padStart(9)}`);
}
