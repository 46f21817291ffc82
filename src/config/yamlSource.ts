import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node, Pair, YAMLError } from 'yaml';
import type { Diagnostic, DocPath } from './diagnostics.js';
import { formatPath } from './diagnostics.js';

/**
 * A YAML file parsed with its source positions kept, so that any later check (a schema, a
 * cross-field rule, a token lookup) can point at the exact key or value it is unhappy with.
 */
export interface YamlSource {
  /** The file as the user named it; used verbatim in diagnostics. */
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
  /**
   * The document as plain data (`doc.toJS()`): `null` for an empty file, `undefined` when the
   * text is {@link malformed} (the parser's error recovery is a guess that must not be validated).
   */
  readonly value: unknown;
  /** Problems found while reading the YAML itself: syntax, duplicate keys, bad aliases. */
  readonly diagnostics: readonly Diagnostic[];
  /** True when the text is not well-formed YAML; schema checks are then skipped. */
  readonly malformed: boolean;
}

/** Which end of a `key: value` pair a diagnostic points at. */
export type Target = 'key' | 'value';

/**
 * Parses YAML 1.2 text. Duplicate keys and syntax errors become diagnostics instead of
 * exceptions, all of them, so one run shows every problem. `<<` merge keys are honoured.
 */
export function parseYamlSource(text: string, file: string): YamlSource {
  // A BOM is invisible in editors; leaving it in would shift every column on line 1.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lineCounter = new LineCounter();
  const doc = parseDocument(body, { lineCounter, prettyErrors: false, uniqueKeys: false, merge: true });
  const diagnostics: Diagnostic[] = [];
  const at = (offset: number, message: string, path: DocPath = []): void => {
    const { line, col } = lineCounter.linePos(offset);
    diagnostics.push({ file, line, col, message, path });
  };

  for (const error of doc.errors) at(error.pos[0], `invalid YAML: ${yamlMessage(error)}`);
  for (const warning of doc.warnings) at(warning.pos[0], `YAML: ${yamlMessage(warning)}`);
  let malformed = doc.errors.length > 0;
  if (!malformed) malformed = checkStructure({ doc, lineCounter, report: at }, doc.contents, []);

  let value: unknown = undefined;
  if (!malformed) {
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      // toJS throws on alias bombs and on aliases it cannot resolve; both are input problems.
      malformed = true;
      at(0, `invalid YAML: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { file, doc, lineCounter, value, diagnostics, malformed };
}

function yamlMessage(error: YAMLError): string {
  const first = error.message.split('\n')[0] ?? error.message;
  return first.charAt(0).toLowerCase() + first.slice(1);
}

interface Walk {
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
  readonly report: (offset: number, message: string, path?: DocPath) => void;
}

/**
 * Walks the tree once for what the parser accepts but a config must not: repeated keys
 * (YAML would silently keep the last one), keys that are not plain scalars, aliases without an
 * anchor, and integers too large to read exactly. Returns true if the document is unusable.
 */
function checkStructure(walk: Walk, node: unknown, path: DocPath): boolean {
  const { doc, report } = walk;
  let unusable = false;
  if (isAlias(node)) {
    if (!node.resolve(doc)) {
      report(node.range?.[0] ?? 0, `alias *${node.source} has no anchor &${node.source} before it`, path);
      unusable = true;
    }
  } else if (isMap(node)) {
    const firstLine = new Map<string, number>();
    for (const pair of node.items) {
      if (!isScalar(pair.key)) {
        report(offsetOf(pair.key), 'a key must be plain text, not a list or a mapping', path);
        unusable = true;
        continue;
      }
      const key = keyText(pair.key.value);
      const offset = offsetOf(pair.key);
      const first = firstLine.get(key);
      if (first !== undefined && !isMergeKey(pair.key)) {
        const where = path.length > 0 ? ` in ${formatPath(path)}` : '';
        report(offset, `duplicate key ${JSON.stringify(key)}${where} (first at line ${first})`, [...path, key]);
      } else {
        firstLine.set(key, walk.lineCounter.linePos(offset).line);
      }
      if (checkStructure(walk, pair.value, [...path, key])) unusable = true;
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      if (checkStructure(walk, item, [...path, index])) unusable = true;
    });
  } else if (isScalar(node) && typeof node.value === 'number' && Number.isInteger(node.value)) {
    if (!Number.isSafeInteger(node.value) && /^[-+]?[0-9]+$/.test(node.source ?? '')) {
      report(offsetOf(node), `${node.source} is too large to read exactly; quote it ("${node.source}") to keep every digit`, path);
    }
  }
  return unusable;
}

/** Keys as `toJS()` turns them into object keys: `1` → "1", `null` → "". */
function keyText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    default:
      // null keys read as "", like toJS(); collection keys were already reported as not plain.
      return '';
  }
}

/** `<<` in a mapping: with merge keys on, the parser gives it a symbol value rather than the text. */
function isMergeKey(key: unknown): boolean {
  return isScalar(key) && (typeof key.value === 'symbol' || key.value === '<<');
}

function offsetOf(node: unknown): number {
  return (node as Node | null)?.range?.[0] ?? 0;
}

/**
 * The 1-based line and column of `path` in the document. A missing step stops the walk, so a
 * missing key is reported at its parent mapping, the place where it should be added.
 */
export function locate(source: YamlSource, path: DocPath, target: Target = 'value'): { line: number; col: number } {
  const offset = locateOffset(source, path, target);
  return source.lineCounter.linePos(offset);
}

/** A diagnostic at `path` (see {@link locate}). */
export function diagnosticAt(source: YamlSource, path: DocPath, message: string, target: Target = 'value'): Diagnostic {
  return { file: source.file, ...locate(source, path, target), message, path };
}

function locateOffset(source: YamlSource, path: DocPath, target: Target): number {
  const { doc } = source;
  let node: unknown = doc.contents;
  let pair: Pair | undefined;
  for (const segment of path) {
    node = deref(doc, node);
    const next = step(doc, node, segment);
    if (!next) return pair && isEmpty(node) ? offsetOf(pair.key) : offsetOf(node);
    ({ node, pair } = next);
  }
  if (pair && (target === 'key' || isEmpty(node))) return offsetOf(pair.key);
  return offsetOf(deref(doc, node) ?? node);
}

function step(doc: Document.Parsed, node: unknown, segment: string | number): { node: unknown; pair: Pair | undefined } | undefined {
  if (isSeq(node) && typeof segment === 'number') {
    return segment < node.items.length ? { node: node.items[segment], pair: undefined } : undefined;
  }
  if (!isMap(node)) return undefined;
  const key = String(segment);
  // The last occurrence wins, as in toJS(): a duplicate's value is the one that was validated.
  const own = node.items.findLast((p) => isScalar(p.key) && keyText(p.key.value) === key);
  if (own) return { node: own.value, pair: own };
  // A key brought in by `<<: *anchor` lives in the anchored mapping.
  for (const merge of node.items.filter((p) => isMergeKey(p.key))) {
    const sources = isSeq(merge.value) ? merge.value.items : [merge.value];
    for (const src of sources) {
      const found = step(doc, deref(doc, src), segment);
      if (found) return found;
    }
  }
  return undefined;
}

function deref(doc: Document.Parsed, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

/** `key:` with nothing after it: pointing at the empty spot after the colon helps nobody. */
function isEmpty(node: unknown): boolean {
  if (node === null || node === undefined) return true;
  if (isPair(node)) return false;
  return isScalar(node) && node.range !== undefined && node.range !== null && node.range[0] === node.range[1];
}
