import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withErrorTable } from '../../../scripts/errorTable.js';
import { ERROR_CATALOGUE, isErrorCode } from '../../../src/errorCatalogue.js';
import { repoRoot } from '../../support/cli.js';
import { codeUses, readSources } from './codePositions.js';

/** Every .ts file under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The daemon's source (the simulator speaks Jupiter's codes, not ours; the catalogue is the list itself). */
const sources = readSources(
  sourceFiles(join(repoRoot, 'src')).filter((file) => {
    const rel = relative(repoRoot, file);
    return !rel.startsWith(join('src', 'sim')) && rel !== join('src', 'errorCatalogue.ts');
  }),
);

/** SQLite's own codes, compared with a failure's `code` where the store translates them into its own. */
const SQLITE_CODES = /^SQLITE_[A-Z_]+$/;

/** Upper-snake string literals anywhere in the daemon's code: what may name a catalogue code. */
function literals(): Set<string> {
  const found = new Set<string>();
  for (const { text } of sources) for (const match of text.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)) found.add(match[1] as string);
  return found;
}

describe('the error catalogue', () => {
  it('is what docs/operations.md lists, code by code', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'operations.md'), 'utf8');
    // Run `npm run docs:errors` after changing src/errorCatalogue.ts.
    expect(withErrorTable(doc)).toBe(doc);
  });

  it('holds every code the source raises or records', () => {
    const uncatalogued = codeUses(sources)
      .filter((use) => !isErrorCode(use.code) && !SQLITE_CODES.test(use.code))
      .map((use) => `${use.code} at ${relative(repoRoot, use.file)}:${use.line}`);
    expect(uncatalogued).toEqual([]);
  });

  it('holds no code the source never uses', () => {
    const used = literals();
    const unused = Object.keys(ERROR_CATALOGUE).filter((code) => !used.has(code));
    expect(unused).toEqual([]);
  });
});
