import type { z } from 'zod';
import type { Diagnostic } from './diagnostics.js';
import { sortDiagnostics } from './diagnostics.js';
import { describeIssue, issueErrorMap } from './describeIssue.js';
import type { YamlSource } from './yamlSource.js';
import { diagnosticAt, parseYamlSource } from './yamlSource.js';

/** The outcome of checking a YAML file against a schema: the typed data, or every problem. */
export type Validation<T> =
  { readonly ok: true; readonly data: T; readonly diagnostics: readonly Diagnostic[] } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export interface ValidateOptions {
  /** What an empty file (or one holding only comments) stands for, e.g. `{}` when every key has a default. */
  readonly valueIfEmpty?: unknown;
}

/**
 * Checks a parsed YAML file against a zod schema and reports every problem at its position:
 * YAML syntax and duplicate keys first found by the parser, then every schema issue. Schema
 * checks are skipped for malformed YAML, whose recovered value would only produce noise.
 *
 * `ok` is true only when there is no diagnostic at all (a duplicate key fails the file even if
 * the value that won passes the schema: the user meant one of the two, and we cannot know which).
 */
export function validateSource<S extends z.ZodType>(source: YamlSource, schema: S, options: ValidateOptions = {}): Validation<z.output<S>> {
  if (source.malformed) return { ok: false, diagnostics: sortDiagnostics(source.diagnostics) };
  const value = source.value === null && 'valueIfEmpty' in options ? options.valueIfEmpty : source.value;
  const result = schema.safeParse(value, { error: issueErrorMap, reportInput: true });
  const diagnostics = sortDiagnostics([...source.diagnostics, ...(result.success ? [] : issuesToDiagnostics(source, result.error.issues))]);
  if (result.success && diagnostics.length === 0) return { ok: true, data: result.data, diagnostics };
  return { ok: false, diagnostics };
}

/** Parses and validates in one step; see {@link parseYamlSource} and {@link validateSource}. */
export function validateYamlText<S extends z.ZodType>(text: string, file: string, schema: S, options: ValidateOptions = {}): Validation<z.output<S>> {
  return validateSource(parseYamlSource(text, file), schema, options);
}

/**
 * Places zod issues in the document. Issues must come from a parse given
 * `{ error: issueErrorMap, reportInput: true }`; otherwise messages fall back to zod's wording.
 */
export function issuesToDiagnostics(source: YamlSource, issues: readonly z.core.$ZodIssue[]): Diagnostic[] {
  return issues.flatMap((issue) => describeIssue(issue).map((f) => diagnosticAt(source, f.path, f.message, f.target)));
}
