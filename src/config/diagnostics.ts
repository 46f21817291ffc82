/**
 * A problem found in an input file, located precisely enough for an editor to jump to it.
 * Config and strategy files report through this one type, so `jupbot validate` prints every
 * problem of every file in one format: `file:line:col: message`.
 */
export interface Diagnostic {
  /** The file as the user named it (relative paths stay relative: they are what the user typed). */
  readonly file: string;
  /** 1-based line. 0 when the problem has no place in the file (e.g. an environment variable). */
  readonly line: number;
  /** 1-based column, counted in UTF-16 code units. 0 when `line` is 0. */
  readonly col: number;
  /** One line, plain words: what was found and what was expected. Never holds a secret. */
  readonly message: string;
  /** Where in the document the problem is, e.g. `['api', 'requests_per_second']`; `[]` for the whole file. */
  readonly path: DocPath;
}

/** A path into a parsed YAML document: mapping keys and list indexes. */
export type DocPath = readonly (string | number)[];

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `api.requests_per_second`, `notify.webhooks[0].url`; odd keys are quoted: `labels["a b"]`. */
export function formatPath(path: DocPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** `file:line:col: message`, or `file: message` for a problem with no position. */
export function formatDiagnostic(d: Diagnostic): string {
  return d.line > 0 ? `${d.file}:${d.line}:${d.col}: ${d.message}` : `${d.file}: ${d.message}`;
}

/** One line per diagnostic, in reading order (see {@link sortDiagnostics}). */
export function formatDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return sortDiagnostics(diagnostics).map(formatDiagnostic).join('\n');
}

/**
 * Orders by file, then position; problems without a position (line 0) come after the positioned
 * ones of their file. Stable, and drops exact repeats: two checks that flag the same place with
 * the same words would only add noise.
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const unique = diagnostics.filter((d) => {
    const key = formatDiagnostic(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique
    .map((d, index) => ({ d, index }))
    .sort((a, b) => compareDiagnostics(a.d, b.d) || a.index - b.index)
    .map(({ d }) => d);
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  const lineA = a.line === 0 ? Number.MAX_SAFE_INTEGER : a.line;
  const lineB = b.line === 0 ? Number.MAX_SAFE_INTEGER : b.line;
  return lineA - lineB || a.col - b.col;
}
