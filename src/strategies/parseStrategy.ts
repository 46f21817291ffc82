import { createHash } from 'node:crypto';
import type { Diagnostic } from '../config/diagnostics.js';
import { sortDiagnostics } from '../config/diagnostics.js';
import { validateSource } from '../config/validateSource.js';
import type { YamlSource } from '../config/yamlSource.js';
import { diagnosticAt, parseYamlSource } from '../config/yamlSource.js';
import { limitFindings, type StrategyLimits } from './strategyLimits.js';
import { checkStrategyRules } from './strategyRules.js';
import type { StrategySpec } from './strategySchema.js';
import { strategySchema } from './strategySchema.js';

/** A strategy file that passed its schema and cross-field rules; tokens are not resolved yet. */
export interface ParsedStrategy {
  readonly file: string;
  readonly text: string;
  /** sha256 of the exact text, hex: the version identity stored in strategy_versions. */
  readonly hash: string;
  readonly spec: StrategySpec;
  readonly source: YamlSource;
  /** The config's limits it was checked against, and runs under. */
  readonly limits: StrategyLimits;
}

export type ParseResult =
  | { readonly ok: true; readonly strategy: ParsedStrategy }
  | {
      readonly ok: false;
      readonly diagnostics: readonly Diagnostic[];
      /** Set when every field passed and only cross-field rules failed: tokens can still be checked. */
      readonly partial?: ParsedStrategy;
    };

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Reads one strategy file's text: YAML problems, then every schema problem, then (once every
 * field is valid) the cross-field rules and the config's `limits`. Pure: the caller reads the file.
 */
/** The spec a parse yields, whole or partial (a file with errors whose tokens can still be resolved); none when unreadable. */
export function specOf(parsed: ParseResult): StrategySpec[] {
  if (parsed.ok) return [parsed.strategy.spec];
  return parsed.partial ? [parsed.partial.spec] : [];
}

export function parseStrategyText(text: string, file: string, limits: StrategyLimits): ParseResult {
  const source = parseYamlSource(text, file);
  const result = validateSource(source, strategySchema);
  if (!result.ok) return { ok: false, diagnostics: result.diagnostics };
  const findings = [...checkStrategyRules(result.data), ...limitFindings(result.data, limits)];
  const strategy = { file, text, hash: sha256Hex(text), spec: result.data, source, limits };
  if (findings.length > 0) {
    return { ok: false, diagnostics: sortDiagnostics(findings.map((f) => diagnosticAt(source, f.path, f.message, f.target ?? 'value'))), partial: strategy };
  }
  return { ok: true, strategy };
}
