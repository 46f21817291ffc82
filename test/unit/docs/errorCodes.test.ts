import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withErrorTable } from '../../../scripts/errorTable.js';
import { ERROR_CATALOGUE, isErrorCode } from '../../../src/errorCatalogue.js';
import { repoRoot } from '../../support/cli.js';

/** Every .ts file under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Upper-snake string literals in the daemon's code (the simulator speaks Jupiter's codes, not ours). */
function literals(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(join(repoRoot, 'src'))) {
    const rel = relative(repoRoot, file);
    if (rel.startsWith(join('src', 'sim')) || rel === join('src', 'errorCatalogue.ts')) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)) found.set(match[1] as string, rel);
  }
  return found;
}

/** Upper-snake literals that are not jupbot's codes: environment variables, and SQLite's own codes that the store translates. */
const NOT_CODES = /^(JUPBOT_[A-Z]+|JUPITER_API_KEY|SQLITE_[A-Z_]+)$/;

describe('the error catalogue', () => {
  it('is what docs/operations.md lists, code by code', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'operations.md'), 'utf8');
    // Run `npm run docs:errors` after changing src/errorCatalogue.ts.
    expect(withErrorTable(doc)).toBe(doc);
  });

  it('holds every code the source raises or records', () => {
    const uncatalogued = [...literals()].filter(([code]) => !isErrorCode(code) && !NOT_CODES.test(code));
    expect(Object.fromEntries(uncatalogued)).toEqual({});
  });

  it('holds no code the source never uses', () => {
    const used = new Set(literals().keys());
    const unused = Object.keys(ERROR_CATALOGUE).filter((code) => !used.has(code));
    expect(unused).toEqual([]);
  });
});
