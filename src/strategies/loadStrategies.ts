import type { Diagnostic } from '../config/diagnostics.js';
import { formatDiagnostic, sortDiagnostics } from '../config/diagnostics.js';
import { diagnosticAt, locate } from '../config/yamlSource.js';
import type { LoadedStrategy } from './loadedStrategy.js';
import type { StrategySpec } from './strategySchema.js';
import type { ParsedStrategy, ParseResult } from './parseStrategy.js';
import { parseStrategyText, specOf } from './parseStrategy.js';
import type { NewPin, TokenPinLookup, TokenSearch } from './tokenResolution.js';
import { mintRefs, resolveTokens } from './tokenResolution.js';
import { fixedToUnits } from '../money/decimal.js';
import { type Amount, U64_MAX } from './strategyFields.js';
import type { DocPath } from '../config/diagnostics.js';
import type { StrategyLimits } from './strategyLimits.js';

/** A strategy file's text as read by the caller (this module does no I/O). */
export interface StrategyFileText {
  readonly file: string;
  readonly text: string;
}

export interface FileOutcome {
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];
  /** Present when the file passed its schema and rules (tokens may still have failed). */
  readonly spec?: StrategySpec;
  /** Present when the file is valid in every respect, tokens resolved. */
  readonly strategy?: LoadedStrategy;
  readonly newPins: readonly NewPin[];
  /** True when a token search failed: worth trying again without an edit. */
  readonly transient?: boolean;
}

/** Parses and resolves one file (names across files are checked by {@link loadStrategyFiles}). */
export async function loadStrategyFile(
  input: StrategyFileText,
  search: TokenSearch | null,
  pins: TokenPinLookup,
  limits: StrategyLimits,
): Promise<FileOutcome> {
  const parsed = parseStrategyText(input.text, input.file, limits);
  if (!parsed.ok) return failedOutcome(input.file, parsed, search, pins);
  return resolveParsed(parsed.strategy, search, pins);
}

/**
 * A file whose fields are valid but whose cross-field rules failed still gets its tokens checked,
 * so one run shows every problem. A token problem at a place a rule already flagged is dropped.
 */
export async function failedOutcome(
  file: string,
  parsed: Extract<ParseResult, { ok: false }>,
  search: TokenSearch | null,
  pins: TokenPinLookup,
): Promise<FileOutcome> {
  if (!parsed.partial || !search) return { file, diagnostics: parsed.diagnostics, ...(parsed.partial ? { spec: parsed.partial.spec } : {}), newPins: [] };
  const resolved = await resolveTokens(parsed.partial, search, pins);
  const flagged = new Set(parsed.diagnostics.map((d) => `${d.line}:${d.col}`));
  const extra = resolved.ok ? [] : resolved.diagnostics.filter((d) => !flagged.has(`${d.line}:${d.col}`));
  return { file, diagnostics: sortDiagnostics([...parsed.diagnostics, ...extra]), spec: parsed.partial.spec, newPins: [] };
}

/** Resolves a parsed file's tokens; with `search` null (offline), only the parse counts. */
export async function resolveParsed(parsed: ParsedStrategy, search: TokenSearch | null, pins: TokenPinLookup): Promise<FileOutcome> {
  if (!search) return { file: parsed.file, diagnostics: [], spec: parsed.spec, newPins: [] };
  const resolved = await resolveTokens(parsed, search, pins);
  if (!resolved.ok)
    return {
      file: parsed.file,
      diagnostics: sortDiagnostics(resolved.diagnostics),
      spec: parsed.spec,
      newPins: [],
      ...(resolved.transient ? { transient: true } : {}),
    };
  const overflow = amountOverflows(parsed, resolved.tokens);
  if (overflow.length > 0) return { file: parsed.file, diagnostics: sortDiagnostics(overflow), spec: parsed.spec, newPins: [] };
  const strategy: LoadedStrategy = {
    name: parsed.spec.name,
    file: parsed.file,
    hash: parsed.hash,
    text: parsed.text,
    spec: parsed.spec,
    tokens: resolved.tokens,
    limits: parsed.limits,
  };
  return { file: parsed.file, diagnostics: [], spec: parsed.spec, strategy, newPins: resolved.newPins };
}

/** Token amounts that, once the token's decimals are known, need more than a u64 of base units. */
function amountOverflows(parsed: ParsedStrategy, tokens: LoadedStrategy['tokens']): Diagnostic[] {
  const spec = parsed.spec;
  const checks: [DocPath, Amount | undefined, number | undefined][] =
    spec.kind === 'price-order'
      ? [
          [['amount'], spec.amount, tokens.sell?.decimals],
          [['entry', 'spend'], spec.entry?.spend, tokens.receive?.decimals],
        ]
      : spec.kind === 'dca'
        ? [[['amount'], spec.amount, tokens.pay_with?.decimals]]
        : [];
  return checks
    .filter(([, amount, decimals]) => amount?.kind === 'tokens' && decimals !== undefined && fixedToUnits(amount.tokens, decimals) > U64_MAX)
    .map(([path, amount, decimals]) =>
      diagnosticAt(
        parsed.source,
        path,
        `${path.join('.')}: ${JSON.stringify((amount as Amount).text)} is ${fixedToUnits((amount as Extract<Amount, { kind: 'tokens' }>).tokens, decimals as number)} base units with ${decimals} decimals, more than a token account holds (2^64 - 1)`,
      ),
    );
}

/** The diagnostic for a name another file already uses, placed on this file's `name` value. */
export function duplicateNameDiagnostic(parsed: ParsedStrategy, other: { file: string; line?: number; col?: number }): Diagnostic {
  const where = other.line === undefined ? other.file : `${other.file}:${other.line}:${other.col ?? 1}`;
  return diagnosticAt(parsed.source, ['name'], `strategy name ${JSON.stringify(parsed.spec.name)} is also used by ${where}; names must be unique across files`);
}

/**
 * Loads a set of files at once, as `jupbot validate` and the daemon's first load do: every file's
 * problems, plus a name used by two files reported in both. Files are processed in the order given.
 */
export async function loadStrategyFiles(
  inputs: readonly StrategyFileText[],
  search: TokenSearch | null,
  pins: TokenPinLookup,
  limits: StrategyLimits,
): Promise<FileOutcome[]> {
  const parsedByFile = inputs.map((input) => ({ input, parsed: parseStrategyText(input.text, input.file, limits) }));
  const byName = new Map<string, ParsedStrategy[]>();
  for (const { parsed } of parsedByFile) {
    if (!parsed.ok) continue;
    const list = byName.get(parsed.strategy.spec.name) ?? [];
    list.push(parsed.strategy);
    byName.set(parsed.strategy.spec.name, list);
  }
  // Every file's mints asked about together (100 a call), before file by file.
  await search?.prefetch?.(mintRefs(parsedByFile.flatMap(({ parsed }) => specOf(parsed))));
  const outcomes: FileOutcome[] = [];
  for (const { input, parsed } of parsedByFile) {
    if (!parsed.ok) {
      outcomes.push(await failedOutcome(input.file, parsed, search, pins));
      continue;
    }
    const twins = (byName.get(parsed.strategy.spec.name) ?? []).filter((p) => p !== parsed.strategy);
    const outcome = await resolveParsed(parsed.strategy, search, pins);
    const dupes = twins.map((twin) => duplicateNameDiagnostic(parsed.strategy, { file: twin.file, ...locate(twin.source, ['name']) }));
    if (dupes.length === 0) outcomes.push(outcome);
    else outcomes.push({ file: input.file, diagnostics: sortDiagnostics([...outcome.diagnostics, ...dupes]), spec: parsed.strategy.spec, newPins: [] });
  }
  return outcomes;
}

/** Every diagnostic of a load, one `file:line:col: message` line each. */
export function formatOutcomes(outcomes: readonly FileOutcome[]): string[] {
  return outcomes.flatMap((o) => o.diagnostics.map(formatDiagnostic));
}
