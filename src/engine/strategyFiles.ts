import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { StrategyFileText } from '../strategies/loadStrategies.js';

/** A strategy file: YAML, not hidden (editors' swap and backup files start with a dot or end in ~). */
export function isStrategyFileName(name: string): boolean {
  return /\.ya?ml$/i.test(name) && !name.startsWith('.');
}

/** The strategy files directly in `dir`, sorted, as absolute paths. A missing directory has none. */
export async function listStrategyFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter(isStrategyFileName)
    .sort()
    .map((name) => join(dir, name));
}

/**
 * Expands command-line paths: a directory gives its strategy files, a file itself. Names are
 * shown relative to `cwd` when inside it, as the user would type them.
 */
export async function readStrategyPaths(paths: readonly string[], cwd: string): Promise<{ files: StrategyFileText[]; missing: string[] }> {
  const files: StrategyFileText[] = [];
  const missing: string[] = [];
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    let isDir: boolean;
    try {
      isDir = (await stat(absolute)).isDirectory();
    } catch {
      missing.push(path);
      continue;
    }
    const list = isDir ? await listStrategyFiles(absolute) : [absolute];
    for (const file of list) files.push({ file: shown(file, cwd), text: await readFile(file, 'utf8') });
  }
  return { files, missing };
}

export function shown(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel.startsWith('..') || rel === '' ? file : rel;
}
