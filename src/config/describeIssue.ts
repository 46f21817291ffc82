import type { z } from 'zod';
import type { DocPath } from './diagnostics.js';
import { formatPath } from './diagnostics.js';
import { didYouMean } from './didYouMean.js';
import type { Target } from './yamlSource.js';

type Issue = z.core.$ZodIssue;

/** One problem to report: where (a path and which end of the pair) and what, in plain words. */
export interface Finding {
  readonly path: DocPath;
  readonly target: Target;
  readonly message: string;
}

/**
 * Messages that start with this character were written by {@link issueErrorMap}, not by a schema
 * author: they are placeholders that {@link describeIssue} replaces with a message built from the
 * issue's structured fields. An author's own message (`z.string({ error: '…' })`) is kept as is.
 */
const GENERATED = '\u0000';

/**
 * Pass as `error` to `safeParse`, with `reportInput: true`. It marks zod's built-in messages for
 * rewriting and, for unknown keys, records the keys the mapping does accept (zod's final issue
 * drops the schema, and "did you mean" needs them).
 */
export function issueErrorMap(issue: z.core.$ZodRawIssue): string {
  if (issue.code !== 'unrecognized_keys') return GENERATED;
  return GENERATED + JSON.stringify(acceptedKeys(issue.inst));
}

interface SchemaLike {
  _zod: { def: { type: string; shape?: Record<string, SchemaLike>; innerType?: SchemaLike; keyType?: SchemaLike; entries?: Record<string, unknown> } };
}

function acceptedKeys(inst: unknown): string[] {
  const def = (inst as SchemaLike | undefined)?._zod.def;
  if (def?.shape) return Object.keys(def.shape).filter((key) => !isForbidden(def.shape?.[key]));
  const keyDef = def?.keyType?._zod.def;
  if (keyDef?.entries) return Object.values(keyDef.entries).map(String);
  return [];
}

/** A key whose schema is `never` exists only to explain why it is not allowed: never suggest it. */
function isForbidden(schema: SchemaLike | undefined): boolean {
  let def = schema?._zod.def;
  while (def?.innerType) def = def.innerType._zod.def;
  return def?.type === 'never';
}

/** Turns a final zod issue (parsed with {@link issueErrorMap}) into findings, one per place. */
export function describeIssue(issue: Issue, path: DocPath = docPath(issue.path)): Finding[] {
  const subject = path.length > 0 ? formatPath(path) : 'the document';
  const here = (message: string, target: Target = 'value'): Finding[] => [{ path, target, message }];
  if (!issue.message.startsWith(GENERATED)) {
    return here(path.length > 0 ? `${subject}: ${issue.message}` : issue.message);
  }
  const got = `(got ${describeValue(issue.input)})`;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = knownKeys(issue.message);
      const where = path.length > 0 ? ` in ${subject}` : '';
      return issue.keys.map((key) => ({
        path: [...path, key],
        target: 'key' as const,
        message: `unknown key ${JSON.stringify(key)}${where}${didYouMean(key, known)}`,
      }));
    }
    case 'invalid_type': {
      if (issue.input === undefined && path.length > 0) return here(missingKey(path));
      if (issue.expected === 'never') return here(`${subject} is not allowed here`);
      if (issue.expected === 'number' && typeof issue.input === 'number') return here(`${subject} must be a finite number ${got}`);
      return here(`${subject} must be ${typeName(issue.expected)} ${got}`);
    }
    case 'invalid_value': {
      const shown = typeof issue.input === 'string' ? JSON.stringify(issue.input) : describeValue(issue.input);
      if (issue.values.length === 1) return here(`${subject} must be ${literal(issue.values[0])} (got ${shown})`);
      return here(`${subject} must be one of ${issue.values.map(literal).join(', ')} (got ${shown})`);
    }
    case 'too_small':
    case 'too_big':
      return here(`${subject} ${sizeRule(issue)} ${got}`);
    case 'invalid_format':
      return here(`${subject} ${formatRule(issue)} ${got}`);
    case 'not_multiple_of':
      return here(`${subject} must be a multiple of ${issue.divisor} ${got}`);
    case 'invalid_union':
      return describeUnion(issue, path, subject);
    case 'invalid_key':
    case 'invalid_element':
      return issue.issues.flatMap((inner) => describeIssue(inner, [...path, ...docPath(inner.path)]));
    case 'custom':
      return here(`${subject} is not valid ${got}`);
  }
}

function describeUnion(issue: z.core.$ZodIssueInvalidUnion, path: DocPath, subject: string): Finding[] {
  if (issue.errors.length === 0) {
    // A discriminated union whose tag matched no option; zod already points the path at the tag.
    const options = 'options' in issue && issue.options ? issue.options.map(literal).join(', ') : '';
    const input: unknown = issue.input;
    const tag = issue.discriminator && isRecord(input) ? input[issue.discriminator] : undefined;
    if (tag === undefined && path.length > 0) return [{ path, target: 'value', message: `${missingKey(path)} (one of ${options})` }];
    const shown = typeof tag === 'string' ? JSON.stringify(tag) : describeValue(tag);
    return [{ path, target: 'value', message: `${subject} must be one of ${options} (got ${shown})` }];
  }
  const branches = issue.errors;
  const shallow = branches.every(
    (b) => b.length === 1 && b[0] !== undefined && b[0].path.length === 0 && (b[0].code === 'invalid_type' || b[0].code === 'invalid_value'),
  );
  if (shallow) {
    // Every alternative rejected the value's kind outright: list what would have done.
    const wanted = [...new Set(branches.flatMap((b) => b.flatMap(expectedOf)))];
    return [{ path, target: 'value', message: `${subject} must be ${joinOr(wanted)} (got ${describeValue(issue.input)})` }];
  }
  // Otherwise the alternative whose type matched and that got furthest is the one the author meant.
  const score = (b: Issue[]): number => (b.some((i) => i.path.length === 0 && i.code === 'invalid_type') ? 1000 : 0) + b.length;
  const best = branches.reduce((a, b) => (score(b) < score(a) ? b : a));
  return best.flatMap((inner) => describeIssue(inner, [...path, ...docPath(inner.path)]));
}

function expectedOf(issue: Issue): string[] {
  if (issue.code === 'invalid_type') return [typeName(issue.expected)];
  if (issue.code === 'invalid_value') return issue.values.map(literal);
  return [];
}

function missingKey(path: DocPath): string {
  const key = path[path.length - 1];
  const parent = path.slice(0, -1);
  const where = parent.length > 0 ? ` in ${formatPath(parent)}` : '';
  return typeof key === 'number' ? `missing item ${formatPath(path)}` : `missing required key ${JSON.stringify(key)}${where}`;
}

function sizeRule(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const bound = small ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (small && Number(bound) === 1) return 'must not be empty';
      return `must be ${small ? 'at least' : 'at most'} ${bound} characters long`;
    case 'array':
    case 'set':
      if (small && Number(bound) === 1) return 'must not be empty';
      return `must have ${small ? 'at least' : 'at most'} ${bound} item${Number(bound) === 1 ? '' : 's'}`;
    default:
      if (small) return inclusive ? `must be at least ${bound}` : `must be greater than ${bound}`;
      return inclusive ? `must be at most ${bound}` : `must be less than ${bound}`;
  }
}

function formatRule(issue: z.core.$ZodIssueInvalidStringFormat): string {
  const extra = issue as { prefix?: string; suffix?: string; includes?: string };
  switch (issue.format) {
    case 'regex':
      return `must match ${issue.pattern ?? 'the expected pattern'}`;
    case 'starts_with':
      return `must start with ${JSON.stringify(extra.prefix ?? '')}`;
    case 'ends_with':
      return `must end with ${JSON.stringify(extra.suffix ?? '')}`;
    case 'includes':
      return `must contain ${JSON.stringify(extra.includes ?? '')}`;
    case 'url':
      return 'must be a URL';
    default:
      return `must be a valid ${issue.format}`;
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  object: 'a mapping',
  record: 'a mapping',
  map: 'a mapping',
  array: 'a list',
  tuple: 'a list',
  set: 'a list',
  null: 'empty',
  undefined: 'absent',
};

function typeName(expected: string): string {
  return TYPE_NAMES[expected] ?? `${/^[aeiou]/i.test(expected) ? 'an' : 'a'} ${expected}`;
}

function literal(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function joinOr(items: string[]): string {
  if (items.length <= 1) return items[0] ?? 'something else';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** How a YAML value reads back to its author: `string "fast"`, `number 5`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)}`;
    case 'number':
      if (Number.isNaN(value)) return '.nan';
      if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
      return `number ${value}`;
    case 'bigint':
      return `number ${value}`;
    case 'boolean':
      return `boolean ${value}`;
    default:
      return Array.isArray(value) ? 'a list' : 'a mapping';
  }
}

function knownKeys(message: string): string[] {
  try {
    const parsed: unknown = JSON.parse(message.slice(GENERATED.length));
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod paths may hold symbols; YAML documents cannot, so they are dropped. */
export function docPath(path: readonly PropertyKey[]): DocPath {
  return path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number');
}
