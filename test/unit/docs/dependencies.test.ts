/**
 * Every runtime dependency says why it is there: docs/architecture.md's table lists exactly the
 * packages package.json depends on, so one added or removed without a word fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli.js';

describe('runtime dependencies', () => {
  it("docs/architecture.md's table names exactly package.json's dependencies", () => {
    const pkg = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as { dependencies: Record<string, string> };
    const doc = readFileSync(`${repoRoot}/docs/architecture.md`, 'utf8');
    const section = doc.slice(doc.indexOf('## Runtime dependencies'));
    const listed = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(Object.keys(pkg.dependencies).sort());
    // Exact pins only: a range would let a fresh install pick a version nobody tested.
    expect(Object.entries(pkg.dependencies).filter(([, v]) => !/^\d+\.\d+\.\d+$/.test(v))).toEqual([]);
  });
});
