/**
 * The list of kinds `audit actions --kind` accepts is kept by hand: every kind the source writes as
 * a literal (`kind: 'order.placed'`) or through a named constant (`export const …_KIND = 'basis.set'`)
 * must be on it, or an auditor asking for it would be told it is a typo.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_ACTION_KINDS } from '../../../src/store/actionKinds.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('the known action kinds', () => {
  it('include every dotted kind the source writes as a literal', () => {
    const written = new Set<string>();
    for (const file of sourceFiles(join(import.meta.dirname, '../../../src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/kind: '([a-z_]+\.[a-z_.]+)'/g)) written.add(match[1] as string);
    }
    expect(written.size).toBeGreaterThan(20);
    expect([...written].filter((kind) => !KNOWN_ACTION_KINDS.includes(kind)).sort()).toEqual([]);
  });

  it('include every dotted kind the source names as a constant', () => {
    const named = new Set<string>();
    for (const file of sourceFiles(join(import.meta.dirname, '../../../src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/export const [A-Z_]+_KIND = '([a-z_]+\.[a-z_.]+)'/g)) named.add(match[1] as string);
    }
    // The upgrade's record of a re-kinded intent is written only through its constant.
    expect(named).toContain('intent.rekinded');
    expect([...named].filter((kind) => !KNOWN_ACTION_KINDS.includes(kind)).sort()).toEqual([]);
  });
});
