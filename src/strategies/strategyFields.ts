import { Cron } from 'croner';
import { z } from 'zod';
import { didYouMean } from '../config/didYouMean.js';
import type { Fixed } from '../money/decimal.js';
import { ONE, parseFixed } from '../money/decimal.js';

/**
 * Value schemas of strategy files. Each reads what an author types and outputs an exact value
 * (never a float): prices and shares become {@link Fixed}, and the text is kept for `jupbot plan`.
 * Each carries JSON Schema metadata so editors check the same shape as authors type.
 */

/** A USD price, e.g. `"182.5"` (a bare YAML number is accepted when it reads back exactly). */
export interface UsdPrice {
  readonly text: string;
  readonly usd: Fixed;
}

/** A trigger level: an absolute USD price or a change relative to the reference price. */
export type PriceLevel =
  { readonly kind: 'absolute'; readonly text: string; readonly usd: Fixed } | { readonly kind: 'relative'; readonly text: string; readonly fraction: Fixed };

/** How much: whole tokens as a decimal string, or a share of the balance. */
export type Amount =
  { readonly kind: 'tokens'; readonly text: string; readonly tokens: Fixed } | { readonly kind: 'share'; readonly text: string; readonly fraction: Fixed };

/** A positive percentage, as a fraction: `"5%"` → 0.05. */
export interface Percent {
  readonly text: string;
  readonly fraction: Fixed;
}

const PLAIN = /^\d+(?:\.\d+)?$/;
const PERCENT = /^(\d+(?:\.\d+)?)%$/;
const CHANGE = /^([+-])(\d+(?:\.\d+)?)%$/;

/** Numbers from YAML are accepted only when their text form is plain decimal (not 1e-7). */
function numberText(input: unknown): string | undefined {
  if (typeof input === 'string') return input.trim();
  if (typeof input === 'number' && Number.isFinite(input) && input >= 0 && PLAIN.test(String(input))) return String(input);
  return undefined;
}

function wrongType(ctx: z.RefinementCtx, expected: string, input: unknown): never {
  ctx.addIssue({ code: 'invalid_type', expected, input });
  return z.NEVER;
}

function custom(ctx: z.RefinementCtx, message: string, input: unknown): never {
  ctx.addIssue({ code: 'custom', message, input });
  return z.NEVER;
}

const TOO_PRECISE = 'has more than 18 decimal places';

/** A USD price: `"182.5"`, `0.00002`. Must be greater than zero. */
export function usdPriceSchema(): z.ZodType<UsdPrice, unknown> {
  return z
    .unknown()
    .transform((input, ctx): UsdPrice => {
      if (typeof input !== 'string' && typeof input !== 'number') return wrongType(ctx, 'USD price', input);
      const text = numberText(input);
      const usd = text === undefined ? undefined : parseFixed(text);
      if (text === undefined || usd === undefined) {
        const why = text !== undefined && PLAIN.test(text) ? TOO_PRECISE : 'is not a USD price (write e.g. "182.5")';
        return custom(ctx, `${JSON.stringify(String(input))} ${why}`, input);
      }
      if (usd === 0n) return custom(ctx, `${JSON.stringify(text)} is zero; a price must be greater than zero`, input);
      return { text, usd };
    })
    .meta({
      anyOf: [
        { type: 'string', pattern: '^\\d+(\\.\\d+)?$' },
        { type: 'number', exclusiveMinimum: 0 },
      ],
      description: 'USD price, e.g. "182.5"',
    });
}

/** A trigger: `"180"` (USD) or `"+20%"` / `"-10%"` (relative to the reference price). */
export function priceLevelSchema(): z.ZodType<PriceLevel, unknown> {
  return z
    .unknown()
    .transform((input, ctx): PriceLevel => {
      if (typeof input !== 'string' && typeof input !== 'number') return wrongType(ctx, 'price or change', input);
      const text = numberText(input) ?? String(input);
      const change = CHANGE.exec(text);
      if (change) {
        const size = parseFixed(change[2] ?? '');
        if (size === undefined) return custom(ctx, `${JSON.stringify(text)} ${TOO_PRECISE}`, input);
        if (size === 0n) return custom(ctx, `${JSON.stringify(text)} is no change; write e.g. "+20%" or "-10%"`, input);
        const fraction = size / 100n;
        if (change[1] === '-' && fraction >= ONE) return custom(ctx, `${JSON.stringify(text)} would be a price of zero or less`, input);
        return { kind: 'relative', text, fraction: change[1] === '-' ? -fraction : fraction };
      }
      if (PERCENT.test(text)) return custom(ctx, `${JSON.stringify(text)} needs a sign: "+${text}" above or "-${text}" below the reference price`, input);
      const usd = PLAIN.test(text) ? parseFixed(text) : undefined;
      if (usd === undefined) {
        const why = PLAIN.test(text) ? TOO_PRECISE : 'is not a price or a change (write e.g. "180" for USD, "+20%" or "-10%" from the reference)';
        return custom(ctx, `${JSON.stringify(text)} ${why}`, input);
      }
      if (usd === 0n) return custom(ctx, `${JSON.stringify(text)} is zero; a price must be greater than zero`, input);
      return { kind: 'absolute', text, usd };
    })
    .meta({
      anyOf: [
        { type: 'string', pattern: '^([+-]\\d+(\\.\\d+)?%|\\d+(\\.\\d+)?)$' },
        { type: 'number', exclusiveMinimum: 0 },
      ],
      description: 'USD price ("180") or change from the reference price ("+20%", "-10%")',
    });
}

/** A positive percentage `"5%"`, at most `max` percent (inclusive). */
export function percentSchema(bounds: { min?: string; max?: string } = {}): z.ZodType<Percent, unknown> {
  const min = bounds.min === undefined ? undefined : (parseFixed(bounds.min) ?? 0n) / 100n;
  const max = bounds.max === undefined ? undefined : (parseFixed(bounds.max) ?? 0n) / 100n;
  return z
    .unknown()
    .transform((input, ctx): Percent => {
      if (typeof input === 'number') return custom(ctx, `${input} needs a % sign (write "${input}%")`, input);
      if (typeof input !== 'string') return wrongType(ctx, 'percentage', input);
      const text = input.trim();
      const match = PERCENT.exec(text);
      const size = match ? parseFixed(match[1] ?? '') : undefined;
      if (size === undefined) return custom(ctx, `${JSON.stringify(text)} is not a percentage (write e.g. "5%")`, input);
      const fraction = size / 100n;
      if (fraction === 0n) return custom(ctx, `${JSON.stringify(text)} is zero; it must be greater than 0%`, input);
      if (min !== undefined && fraction < min) return custom(ctx, `${JSON.stringify(text)} is too small (at least ${bounds.min}%)`, input);
      if (max !== undefined && fraction > max) return custom(ctx, `${JSON.stringify(text)} is too large (at most ${bounds.max}%)`, input);
      return { text, fraction };
    })
    .meta({ type: 'string', pattern: '^\\d+(\\.\\d+)?%$', description: 'percentage, e.g. "5%"' });
}

/**
 * A token amount: whole tokens as a quoted decimal string (`"2.5"`) or a share of the balance
 * (`"50%"`, at most 100%). Bare numbers are refused: a float may not keep every digit.
 */
/** The largest amount a token account holds, in base units. */
export const U64_MAX = 2n ** 64n - 1n;

export function amountSchema(): z.ZodType<Amount, unknown> {
  return z
    .unknown()
    .transform((input, ctx): Amount => {
      if (typeof input === 'number') {
        return custom(ctx, `${input} must be quoted ("${input}" tokens, or a share such as "50%"), so every digit is kept`, input);
      }
      if (typeof input !== 'string') return wrongType(ctx, 'amount', input);
      const text = input.trim();
      const pct = PERCENT.exec(text);
      if (pct) {
        const size = parseFixed(pct[1] ?? '');
        if (size === undefined || size === 0n) return custom(ctx, `${JSON.stringify(text)} must be a share above 0%`, input);
        if (size > 100n * ONE) return custom(ctx, `${JSON.stringify(text)} is more than the whole balance (at most "100%")`, input);
        return { kind: 'share', text, fraction: size / 100n };
      }
      const tokens = PLAIN.test(text) ? parseFixed(text) : undefined;
      if (tokens === undefined) {
        const why = PLAIN.test(text) ? TOO_PRECISE : 'is not an amount (write whole tokens such as "2.5", or a share such as "50%")';
        return custom(ctx, `${JSON.stringify(text)} ${why}`, input);
      }
      if (tokens === 0n) return custom(ctx, `${JSON.stringify(text)} is zero; an amount must be greater than zero`, input);
      // Even a token without decimals cannot hold more than a u64 of base units.
      if (tokens > U64_MAX * ONE) return custom(ctx, `${JSON.stringify(text)} is more than any token account can hold (2^64 - 1 base units)`, input);
      return { kind: 'tokens', text, tokens };
    })
    .meta({ type: 'string', pattern: '^(\\d+(\\.\\d+)?|\\d+(\\.\\d+)?%)$', description: 'whole tokens ("2.5") or a share of the balance ("50%")' });
}

/** A token: symbol (`SOL`), name, or mint address. Resolved later through token search. */
export const tokenRefSchema = z.string().trim().min(1).max(64).meta({ description: 'token symbol (SOL), name, or mint address' });

/** Strategy names appear in logs, the audit log and URLs: keep them plain. */
export const strategyNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
    error: 'must be 1 to 64 lower-case letters, digits, "-" or "_", starting with a letter or digit (e.g. sol-take-profit)',
  })
  .meta({ description: 'unique name across all strategy files' });

let zones: string[] | undefined;
function timeZones(): string[] {
  zones ??= Intl.supportedValuesOf('timeZone');
  return zones;
}

/** True when `zone` is an IANA zone the runtime knows (croner would only fail at the first run). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string()
  .min(1)
  .superRefine((zone, ctx) => {
    if (isTimeZone(zone)) return;
    ctx.addIssue({
      code: 'custom',
      message: `${JSON.stringify(zone)} is not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)${didYouMean(zone, timeZones())}`,
      input: zone,
    });
  })
  .meta({ description: 'IANA time zone, e.g. Europe/Berlin' });

/** Five fields (minute hour day month weekday) or six with seconds first. */
export const cronSchema = z
  .string()
  .min(1)
  .superRefine((pattern, ctx) => {
    const fields = pattern.trim().split(/\s+/).length;
    if (fields !== 5 && fields !== 6) {
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(pattern)} has ${fields} field${fields === 1 ? '' : 's'}; write 5 (minute hour day month weekday, e.g. "0 9 * * *") or 6 with seconds first`,
        input: pattern,
      });
      return;
    }
    try {
      new Cron(pattern, { paused: true });
    } catch (error) {
      const why = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error);
      ctx.addIssue({ code: 'custom', message: `${JSON.stringify(pattern)} is not a cron pattern: ${why}`, input: pattern });
    }
  })
  .meta({ description: 'cron pattern, e.g. "0 9 * * *" (09:00 every day)' });
