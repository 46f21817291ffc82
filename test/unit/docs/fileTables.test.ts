/**
 * The docs' file tables against the tree: every path they name exists, and every folder (README,
 * architecture.md) or executor file (executor.md) that exists is named. A move without its doc fails here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli.js';

const read = (file: string): string => readFileSync(join(repoRoot, file), 'utf8');

/** The first fenced block after `heading`. */
function blockAfter(doc: string, heading: string): string {
  const start = doc.indexOf('```', doc.indexOf(heading));
  return doc.slice(doc.indexOf('\n', start) + 1, doc.indexOf('```', start + 3));
}

/** Paths of an indented tree (`src/` then `  cli/`): each line's first word, joined to its parents'. */
function treePaths(block: string): string[] {
  const stack: { depth: number; name: string }[] = [];
  const out: string[] = [];
  for (const line of block.split('\n')) {
    const match = /^( *)(\S+)/.exec(line);
    if (!match?.[2]) continue;
    const depth = (match[1] ?? '').length;
    while (stack.length > 0 && (stack.at(-1)?.depth ?? 0) >= depth) stack.pop();
    const path = [...stack.map((s) => s.name), match[2]].join('').replaceAll('//', '/');
    out.push(path);
    if (match[2].endsWith('/')) stack.push({ depth, name: match[2] });
  }
  return out;
}

/** Directories under `dir`, recursively, relative to the repository. */
function directories(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [`${dir}/${e.name}`, ...directories(`${dir}/${e.name}`)]);
}

function files(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
}

const exists = (path: string): boolean => existsSync(join(repoRoot, path.replace(/\/$/, '')));

describe("README's layout", () => {
  const paths = treePaths(blockAfter(read('README.md'), '## Layout'));

  it('names only what exists', () => {
    expect(paths.filter((p) => !exists(p))).toEqual([]);
  });

  it('names every folder of src/ and src/engine/', () => {
    const listed = new Set(paths.map((p) => p.replace(/\/$/, '')));
    const folders = readdirSync(join(repoRoot, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/${e.name}`);
    const engine = readdirSync(join(repoRoot, 'src/engine'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/engine/${e.name}`);
    expect([...folders, ...engine].filter((f) => !listed.has(f))).toEqual([]);
  });
});

describe("architecture.md's layout", () => {
  const doc = read('docs/architecture.md');

  it('names every folder of src/, and every src path it mentions exists', () => {
    const named = new Set([...doc.matchAll(/`(src\/[\w/]+)\/`/g)].map((m) => m[1]));
    expect(directories('src').filter((d) => !named.has(d))).toEqual([]);
    const mentioned = [...doc.matchAll(/`((?:src\/|engine\/|store\/|strategies\/|solana\/|jupiter\/|executor\/)[\w/.]+)`/g)].map((m) => m[1] as string);
    const missing = mentioned.filter((p) => !exists(p) && !exists(`src/${p}`) && !exists(`src/engine/${p}`));
    expect(missing).toEqual([]);
  });
});

describe("executor.md's file table", () => {
  const paths = treePaths(blockAfter(read('docs/executor.md'), '# The executor'));

  it('names only what exists', () => {
    expect(paths.filter((p) => !exists(p))).toEqual([]);
  });

  it('names every file of the executor and the mirror', () => {
    const listed = new Set(paths);
    const all = [...files('src/engine/executor'), ...files('src/engine/mirror')].filter((f) => statSync(join(repoRoot, f)).isFile());
    expect(all.filter((f) => !listed.has(f)).map((f) => relative('.', f))).toEqual([]);
  });
});
