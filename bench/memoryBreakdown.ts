/**
 * Where a process's resident memory is, for the benches: V8's heap (used and merely committed,
 * by space), what V8 does not manage (malloc: SQLite, undici, native addons, fragmentation) and
 * the mapped code of node and its libraries. Read from /proc/self/smaps on Linux; elsewhere only
 * V8's own figures.
 */
import { existsSync, readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

export interface MemoryBreakdown {
  readonly rss: number;
  /** The highest RSS the process has had (VmHWM): what the machine had to have free, between GCs. */
  readonly peakRss: number;
  /** Resident pages of file-backed mappings: the node binary, shared libraries, native addons. */
  readonly code: number;
  /** Resident anonymous pages: V8's heap, malloc arenas, thread stacks. */
  readonly anonymous: number;
  readonly heapCommitted: number;
  readonly heapUsed: number;
  /** Anonymous memory that is not V8's heap: malloc (SQLite's cache, buffers, native code), stacks. */
  readonly native: number;
  /** Committed size of each V8 heap space. */
  readonly spaces: ReadonlyMap<string, { committed: number; used: number }>;
}

export function memoryBreakdown(): MemoryBreakdown {
  const usage = process.memoryUsage();
  const spaces = new Map(getHeapSpaceStatistics().map((s) => [s.space_name, { committed: s.physical_space_size, used: s.space_used_size }]));
  let code = 0;
  let anonymous = 0;
  if (existsSync('/proc/self/smaps')) {
    let fileBacked = false;
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (header) {
        const name = header[1] ?? '';
        fileBacked = name.startsWith('/');
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss) {
        const bytes = Number(rss[1]) * 1024;
        if (fileBacked) code += bytes;
        else anonymous += bytes;
      }
    }
  }
  const heapCommitted = [...spaces.values()].reduce((sum, s) => sum + s.committed, 0);
  const hwm = existsSync('/proc/self/status') ? /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8')) : null;
  return {
    rss: usage.rss,
    peakRss: hwm ? Number(hwm[1]) * 1024 : usage.rss,
    code,
    anonymous,
    heapCommitted,
    heapUsed: usage.heapUsed,
    native: Math.max(0, anonymous - heapCommitted),
    spaces,
  };
}

/** Bytes as MB with one decimal, as every bench prints memory. */
export const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

/** Lines for a bench report. */
export function describeBreakdown(b: MemoryBreakdown): string[] {
  const spaces = [...b.spaces]
    .filter(([, s]) => s.committed >= 512 * 1024)
    .map(([name, s]) => `${name.replace(/_space$/, '')} ${mb(s.committed)}/${mb(s.used)}`)
    .join(', ');
  return [
    `peak rss ${mb(b.peakRss)} MB; now, after a GC: rss ${mb(b.rss)} MB = code mapped from files ${mb(b.code)} MB (node, libraries, native addons) + anonymous ${mb(b.anonymous)} MB`,
    `  anonymous = V8 heap committed ${mb(b.heapCommitted)} MB (used ${mb(b.heapUsed)} MB) + native ${mb(b.native)} MB (malloc: SQLite, buffers, addons; thread stacks)`,
    `  V8 spaces committed/used MB: ${spaces}`,
  ];
}
