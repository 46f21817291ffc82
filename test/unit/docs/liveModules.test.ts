/**
 * What the CLI loads before any command runs — and so what a live daemon carries: the static
 * imports reachable from src/cli/main.ts. The simulator (paper mode, `sim`, backtests) is loaded
 * only when one of those runs, by a dynamic import, and so is the readable log printer (only for a
 * person at a terminal) and the fleet's Redis client (only with `fleet.redis`); the token catalogue and program ids are shared data and may be reached.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli.js';

/** Static value imports of one file (type-only imports and `import()` do not load code). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^import\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gms)) {
    const spec = m[1] as string;
    out.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
  }
  return out;
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}

const SHARED = new Set(['src/sim/tokenCatalog.ts', 'src/sim/paperTokenSearch.ts', 'src/sim/programIds.ts']);

describe('the modules every command loads', () => {
  const loaded = [...reachable(join(repoRoot, 'src/cli/main.ts'))].map((f) => relative(repoRoot, f));

  it('include the daemon, but not the simulator, the paper world, the backtest runner or the pretty printer', () => {
    expect(loaded).toContain('src/daemon.ts');
    expect(loaded).toContain('src/engine/engine.ts');
    expect(loaded.filter((f) => f.startsWith('src/sim/') && !SHARED.has(f))).toEqual([]);
    expect(loaded).not.toContain('src/paper/openPaperWorld.ts');
    expect(loaded).not.toContain('src/backtest/runBacktest.ts');
    expect(loaded).not.toContain('src/ops/prettyLog.ts');
  });

  it('leave out the Redis client: only a daemon with `fleet.redis` (or `fleet status`) loads ioredis', () => {
    const valueImport = /^import\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]ioredis['"]/ms;
    expect(loaded.filter((f) => valueImport.test(readFileSync(join(repoRoot, f), 'utf8')))).toEqual([]);
    expect(loaded).not.toContain('src/fleet/fleetRedis.ts');
    // The walk would see it: the client's own file imports ioredis as a value.
    expect(valueImport.test(readFileSync(join(repoRoot, 'src/fleet/fleetRedis.ts'), 'utf8'))).toBe(true);
  });

  it('the walk reaches the whole daemon (it is not vacuous)', () => {
    expect(loaded.length).toBeGreaterThan(100);
    expect(loaded).toContain('src/store/journal.ts');
  });
});
