/**
 * The walk from a price to an audit row in docs/architecture.md against the tree: every step names a
 * file that exists, and the closing sentence's figures (steps, files, steps back into a file already
 * left) are the walk's own, so a change that adds back-and-forth has to say so in the doc.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli.js';

const doc = readFileSync(join(repoRoot, 'docs/architecture.md'), 'utf8');
const section = doc.slice(doc.indexOf('## From a price to an audit row'));

/** The walk's files, in order, from its numbered steps (`N. \`src/…\` — …`). */
function walk(text: string): string[] {
  return [...text.matchAll(/^(\d+)\. `([^`]+)`/gm)].map((m, i) => {
    expect(Number(m[1]), `step ${i + 1} is numbered ${m[1]}`).toBe(i + 1);
    return m[2] ?? '';
  });
}

/** Steps into a file the walk had already left (a file acting twice in a row is one step). */
function backMoves(files: readonly string[]): number {
  let back = 0;
  for (let i = 1; i < files.length; i++) if (files.slice(0, i - 1).includes(files[i] ?? '') && files[i] !== files[i - 1]) back += 1;
  return back;
}

describe('the walk from a price to an audit row', () => {
  const files = walk(section);

  it('names files that exist, in steps numbered in order', () => {
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect(existsSync(join(repoRoot, file)), file).toBe(true);
  });

  it('states its own figures: steps, files, and steps back into a file already left', () => {
    const stated = /(\d+) steps through (\d+) files, (\d+) of them back into a file already left/.exec(section);
    expect(stated?.slice(1).map(Number)).toEqual([files.length, new Set(files).size, backMoves(files)]);
  });

  it('counts a return into a file left earlier, not a file acting twice in a row', () => {
    expect(backMoves(['a', 'b', 'a', 'a', 'c', 'b'])).toBe(2);
    expect(backMoves(['a', 'b', 'c'])).toBe(0);
  });
});
