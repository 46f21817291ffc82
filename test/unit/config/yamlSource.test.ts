import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/config/diagnostics.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { locate, parseYamlSource } from '../../../src/config/yamlSource.js';

const repo = resolve(import.meta.dirname, '../../..');
const lines = (text: string, file = 'f.yaml'): string[] => parseYamlSource(text, file).diagnostics.map(formatDiagnostic);

function configProblems(file: string): string[] {
  const text = readFileSync(resolve(repo, file), 'utf8');
  try {
    parseConfigText(text, file, {}, repo);
  } catch (error) {
    return (error as Error).message.split('\n');
  }
  throw new Error('expected problems');
}

describe('parseYamlSource', () => {
  it('reports a syntax error at its position and stops there (no schema noise from the recovered value)', () => {
    // The over-indented `scores:` on line 4 continues the plain scalar `10s` of line 3, which the
    // parser then reads as a two-line key: it reports where that key starts.
    expect(configProblems('test/fixtures/config/syntax-error.yaml')).toEqual([
      'test/fixtures/config/syntax-error.yaml:3:11: invalid YAML: nested mappings are not allowed in compact mappings',
      'test/fixtures/config/syntax-error.yaml:3:11: invalid YAML: implicit keys need to be on a single line',
    ]);
  });

  it('reports a duplicate key at the repeat, naming the first', () => {
    expect(configProblems('test/fixtures/config/duplicate-key.yaml')).toEqual([
      'test/fixtures/config/duplicate-key.yaml:4:3: duplicate key "requests_per_second" in api (first at line 3)',
    ]);
  });

  it('reports a duplicate top-level key', () => {
    expect(lines('mode: paper\ndata_dir: a\nmode: live\n')).toEqual(['f.yaml:3:1: duplicate key "mode" (first at line 1)']);
  });

  it('reports tabs used for indentation', () => {
    expect(lines('poll:\n\tprices: 10s\n')).toEqual(['f.yaml:2:1: invalid YAML: tabs are not allowed as indentation']);
  });

  it('reports an alias without an anchor instead of throwing', () => {
    const source = parseYamlSource('a: 1\nb: *missing\n', 'f.yaml');
    expect(source.malformed).toBe(true);
    expect(source.diagnostics.map(formatDiagnostic)).toEqual(['f.yaml:2:4: alias *missing has no anchor &missing before it']);
  });

  it('refuses keys that are not plain text', () => {
    expect(lines('? [a, b]\n: 1\n')).toEqual(['f.yaml:1:3: a key must be plain text, not a list or a mapping']);
  });

  it('flags integers too large to read exactly', () => {
    expect(lines('amount: 123456789012345678901\n')).toEqual([
      'f.yaml:1:9: 123456789012345678901 is too large to read exactly; quote it ("123456789012345678901") to keep every digit',
    ]);
  });

  it('accepts several << merge keys in one mapping', () => {
    expect(lines('a: &a { x: 1 }\nb: &b { y: 1 }\nc:\n  <<: *a\n  <<: *b\n')).toEqual([]);
  });

  it('reports a second document', () => {
    expect(lines('a: 1\n---\nb: 2\n')).toEqual(['f.yaml:2:1: invalid YAML: source contains multiple documents; please use YAML.parseAllDocuments()']);
  });

  it('reads an empty file as null and keeps columns right after a byte-order mark', () => {
    expect(parseYamlSource('', 'f.yaml').value).toBeNull();
    const source = parseYamlSource('\uFEFFa:\n  b: x\n', 'f.yaml');
    expect(locate(source, ['a', 'b'], 'key')).toEqual({ line: 2, col: 3 });
    expect(locate(source, ['a'], 'key')).toEqual({ line: 1, col: 1 });
  });
});

describe('locate', () => {
  const source = parseYamlSource(
    ['base: &b', '  x: 1', 'm:', '  <<: *b', '  y: 2', '  empty:', 'list:', '  - { k: v }', '  - k: w', 'flow: { p: 1 }'].join('\n'),
    'f.yaml',
  );

  it.each([
    [['m', 'y'], 'value', { line: 5, col: 6 }],
    [['m', 'y'], 'key', { line: 5, col: 3 }],
    [['list', 1, 'k'], 'value', { line: 9, col: 8 }],
    [['list', 0, 'k'], 'key', { line: 8, col: 7 }],
    [['flow', 'p'], 'value', { line: 10, col: 12 }],
    // An empty value points at its key: the spot after the colon helps nobody.
    [['m', 'empty'], 'value', { line: 6, col: 3 }],
    // A key merged in with <<: *b is found at its anchor.
    [['m', 'x'], 'value', { line: 2, col: 6 }],
    // A missing key: its parent mapping, where it belongs.
    [['flow', 'nope'], 'value', { line: 10, col: 7 }],
    [['list', 5], 'value', { line: 8, col: 3 }],
    [['nope', 'deeper'], 'value', { line: 1, col: 1 }],
  ] as const)('%j (%s) → %j', (path, target, expected) => {
    expect(locate(source, path, target)).toEqual(expected);
  });
});
