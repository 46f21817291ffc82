import { z } from 'zod';

/** Milliseconds per unit, largest first: the order a combined duration must be written in. */
const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
] as const;

const UNIT_MS = new Map<string, number>(UNITS);
const EXAMPLES = 'use e.g. 500ms, 10s, 5m, 2h, 30d';
/** `10s`, `1.5h`, `1h30m`: numbers each followed by a unit, nothing between them. */
const SHAPE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;

export type DurationResult = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly error: string };

/**
 * Reads a duration written as text: `500ms`, `10s`, `5m`, `2h`, `30d`, or a combination from the
 * largest unit down, each unit once (`1h30m`, `2m30s`). Decimals are allowed when the result is a
 * whole number of milliseconds (`1.5s`). Zero, negative values and bare numbers are refused: a
 * bare `30` could mean seconds or milliseconds, and a zero interval would spin.
 *
 * The error text quotes the input and reads as a sentence: `"10 seconds" is not a duration (…)`.
 */
export function tryParseDuration(input: unknown): DurationResult {
  if (typeof input === 'number') {
    return fail(`${input} has no unit (write e.g. ${input}s or ${input}ms)`);
  }
  if (typeof input !== 'string') return fail(`expected a duration such as 10s, not ${input === null ? 'an empty value' : typeof input}`);
  const text = input.trim();
  const quoted = JSON.stringify(input);
  if (/^-/.test(text) && SHAPE.test(text.slice(1))) return fail(`${quoted} is negative; a duration must be greater than zero`);
  if (!SHAPE.test(text)) return fail(`${quoted} is not a duration (${EXAMPLES})`);

  let total = 0;
  let previousRank = -1;
  for (const [, amount, unit] of text.matchAll(PART)) {
    const rank = UNITS.findIndex(([u]) => u === unit);
    if (rank <= previousRank) {
      return fail(`${quoted} must list its units from largest to smallest, each once (e.g. 1h30m)`);
    }
    previousRank = rank;
    total += Number(amount) * (UNIT_MS.get(unit ?? '') ?? Number.NaN);
  }
  // Decimal parts are summed in floating point: snap sums like 0.1h+… that are whole to the nearest ms.
  const rounded = Math.round(total);
  if (Math.abs(total - rounded) > 1e-6) return fail(`${quoted} is not a whole number of milliseconds`);
  if (rounded === 0) return fail(`${quoted} is zero; a duration must be greater than zero`);
  if (!Number.isSafeInteger(rounded)) return fail(`${quoted} is too long`);
  return { ok: true, ms: rounded };
}

function fail(error: string): DurationResult {
  return { ok: false, error };
}

/** Like {@link tryParseDuration} for trusted text (defaults, tests); throws a RangeError otherwise. */
export function parseDuration(text: string): number {
  const result = tryParseDuration(text);
  if (!result.ok) throw new RangeError(result.error);
  return result.ms;
}

/**
 * Writes milliseconds the way a user would, in the same grammar {@link parseDuration} reads:
 * 90_000 → `1m30s`, 1_500 → `1s500ms`, 0 → `0ms`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`formatDuration expects a whole number of ms >= 0, got ${ms}`);
  if (ms === 0) return '0ms';
  let rest = ms;
  let out = '';
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) out += `${count}${unit}`;
    rest -= count * size;
  }
  return out;
}

export interface DurationBounds {
  /** Smallest allowed value, in ms (inclusive). */
  readonly min?: number;
  /** Largest allowed value, in ms (inclusive). */
  readonly max?: number;
}

/**
 * A zod schema that reads a duration and outputs integer milliseconds. A missing value is
 * reported as missing and a value of another type by its type, as for any other field; only
 * text and numbers get the duration-specific explanations of {@link tryParseDuration}.
 */
export function durationSchema(bounds: DurationBounds = {}): z.ZodType<number, unknown> {
  return z.unknown().transform((input, ctx): number => {
    if (typeof input !== 'string' && typeof input !== 'number') {
      // Missing, empty, a list...: reported by type, as any other field would be.
      ctx.addIssue({ code: 'invalid_type', expected: 'duration', input });
      return z.NEVER;
    }
    const result = tryParseDuration(input);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.error, input });
      return z.NEVER;
    }
    const shown = JSON.stringify(input);
    if (bounds.min !== undefined && result.ms < bounds.min) {
      ctx.addIssue({ code: 'custom', message: `${shown} is too short (at least ${formatDuration(bounds.min)})`, input });
      return z.NEVER;
    }
    if (bounds.max !== undefined && result.ms > bounds.max) {
      ctx.addIssue({ code: 'custom', message: `${shown} is too long (at most ${formatDuration(bounds.max)})`, input });
      return z.NEVER;
    }
    return result.ms;
  });
}
