/**
 * No import cycles in src/. Two files that import each other, directly or round a longer loop, are
 * one idea split in two: neither can be read, tested or moved without the other, and once a value
 * import closes the loop, which module's top level runs first depends on which file was loaded
 * first (a `const` read before it is set throws at start-up). Type-only imports count: they tie the
 * files together just the same, and the next value import along them turns them into a load-order
 * problem. The fix is to move the shared piece into the module it belongs to.
 *
 * Every .ts file under src/ is read with the TypeScript compiler's own pre-processor
 * (`ts.preProcessFile`: `import`, `import type`, `export … from`, `import()`), each relative import
 * is resolved to a file of the tree, and the graph's strongly connected components are every set of
 * files that reach each other. The failure names each one's files and one loop through them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli.js';

/** File (relative to the tree's root, with `/`) → the files of the tree it imports. */
type Graph = ReadonlyMap<string, readonly string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The tree's file a relative import names, or undefined (a package, or a file outside the tree such as package.json). */
function resolveImport(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const target = posix.normalize(posix.join(posix.dirname(from), spec));
  const candidates = [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, `${target}/index.ts`];
  return candidates.find((c) => files.has(c));
}

/** The import graph of `sources` (path relative to the tree's root → its text). */
function importGraph(sources: ReadonlyMap<string, string>): Graph {
  const files = new Set(sources.keys());
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const imported = ts.preProcessFile(text, true, true).importedFiles.map((i) => resolveImport(file, i.fileName, files));
    graph.set(file, [...new Set(imported.filter((f): f is string => f !== undefined))].sort());
  }
  return graph;
}

/** The strongly connected components that hold a cycle (two files or more, or a file importing itself), each sorted (Tarjan). */
function cyclicComponents(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** One loop through a component, from its first file back to it (breadth first: the shortest). */
function loopThrough(component: readonly string[], graph: Graph): string[] {
  const inside = new Set(component);
  const start = component[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0] as string) as string);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** Each cycle as one line: its files, then a loop through them. */
function describeCycles(graph: Graph): string[] {
  return cyclicComponents(graph).map((c) => `${c.join(', ')} (${loopThrough(c, graph).join(' → ')})`);
}

describe('import cycles in src/', () => {
  const root = join(repoRoot, 'src');
  const graph = importGraph(new Map(sourceFiles(root).map((f) => [relative(root, f).split('\\').join('/'), readFileSync(f, 'utf8')])));

  it('there are none, type-only imports included', () => {
    expect(describeCycles(graph)).toEqual([]);
  });

  it('the walk reads the whole tree and its type-only imports (it is not vacuous)', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('engine/executor/swap/quoteChecks.ts')).toContain('engine/executor/swap/swapParams.ts');
    expect(graph.get('engine/executor/vault/renewVaultOrder.ts')).toContain('engine/executor/vault/vaultWithdrawal.ts');
  });

  it('finds every cycle, of type-only imports, re-exports and dynamic imports too, and names its files', () => {
    const sources = new Map([
      ['a.ts', "import type { C } from './sub/c.js';\nexport interface A { c: C }"],
      ['b.ts', "import { a } from './a.js';\nexport const b = a;"],
      ['sub/c.ts', "import type { A } from '../a';\nexport interface C { a: A }"],
      ['d.ts', "export * from './e.js';"],
      ['e.ts', "export const load = () => import('./d.js');"],
      ['f.ts', "import './f.js';\nimport 'zod';\nimport '../package.json';"],
      ['g.ts', "import { b } from './b.js';\nimport type { A } from './a.js';"],
    ]);
    expect(describeCycles(importGraph(sources))).toEqual(['a.ts, sub/c.ts (a.ts → sub/c.ts → a.ts)', 'd.ts, e.ts (d.ts → e.ts → d.ts)', 'f.ts (f.ts → f.ts)']);
  });
});
