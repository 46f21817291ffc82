/**
 * The `protections:` section of the config: account-wide limits that pause trading when the
 * account as a whole loses too much, falls too far from its best, or holds too much at risk.
 * Every key is optional; a section with none set builds nothing (src/protections/protections.ts).
 *
 * A limit is written alone (`max_daily_loss_usd: 250`) or with its own `pauses`
 * (`max_daily_loss_usd: { limit: 250, pauses: all }`); `pauses` at the top of the section is the
 * default of every protection that sets none. Dollar limits stay decimal text in the config (it is
 * printed and compared as written); the protections parse them into exact fixed-point.
 */
import { z } from 'zod';
import { durationSchema, parseDuration } from '../config/duration.js';

/** What a tripped protection pauses: `buying` strategies only (exits and stops keep working), or `all` of them. */
export const PAUSES = ['buying', 'all'] as const;
export type Pauses = (typeof PAUSES)[number];

/** The protections by name, in the order `/status` lists them. */
export const PROTECTION_NAMES = ['max_daily_loss', 'max_drawdown', 'max_exposure', 'loss_cooldown'] as const;
export type ProtectionName = (typeof PROTECTION_NAMES)[number];

const pausesSchema = z.enum(PAUSES);

/** Dollars: a YAML number or a quoted decimal, more than 0; kept as its decimal text. */
const usdLimit = z.union([z.number(), z.string()]).transform((input, ctx): string => {
  const text = typeof input === 'number' ? String(input) : input.trim();
  if (!/^\d+(\.\d{1,18})?$/.test(text) || !/[1-9]/.test(text)) {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(input)} is not an amount of dollars above 0 (e.g. 250 or "99.5")`, input });
    return z.NEVER;
  }
  return text;
});

/** A percent above 0 and below 100: `15%`, `"12.5%"` or the number 15; kept as its decimal text ("15"). */
const percentLimit = z.union([z.number(), z.string()]).transform((input, ctx): string => {
  const text = typeof input === 'number' ? String(input) : input.trim().replace(/%$/, '');
  const value = Number(text);
  if (!/^\d+(\.\d{1,6})?$/.test(text) || !(value > 0 && value < 100)) {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(input)} is not a percent above 0 and below 100 (e.g. 15%)`, input });
    return z.NEVER;
  }
  return text;
});

/** `limit` alone, or `{ limit, pauses }`. */
function limitSchema<T extends z.ZodType>(limit: T) {
  return z.preprocess(
    (input) => (input !== null && typeof input === 'object' ? input : input === undefined ? undefined : { limit: input }),
    z.strictObject({ limit, pauses: pausesSchema.optional() }),
  );
}

const cooldownSchema = z.strictObject({
  /** Losing exits in a row, across every strategy, that start the cooldown. */
  losing_exits: z.int().min(1).max(1_000),
  for: durationSchema({ min: parseDuration('1m'), max: parseDuration('30d') }),
  pauses: pausesSchema.optional(),
});

const sectionSchema = z.strictObject({
  pauses: pausesSchema.default('buying'),
  max_daily_loss_usd: limitSchema(usdLimit).optional(),
  max_drawdown: limitSchema(percentLimit).optional(),
  max_exposure_usd: limitSchema(usdLimit).optional(),
  loss_cooldown: cooldownSchema.optional(),
});

/** Each protection resolved: null when not configured, else its limit and what it pauses. */
export interface ProtectionsConfig {
  readonly max_daily_loss: { readonly limitUsd: string; readonly pauses: Pauses } | null;
  readonly max_drawdown: { readonly percent: string; readonly pauses: Pauses } | null;
  readonly max_exposure: { readonly limitUsd: string; readonly pauses: Pauses } | null;
  readonly loss_cooldown: { readonly losingExits: number; readonly forMs: number; readonly pauses: Pauses } | null;
}

export const NO_PROTECTIONS: ProtectionsConfig = { max_daily_loss: null, max_drawdown: null, max_exposure: null, loss_cooldown: null };

/** The section as the config file holds it, resolved into {@link ProtectionsConfig}. */
export const protectionsSchema = sectionSchema.transform((s): ProtectionsConfig => {
  const pauses = (own: Pauses | undefined): Pauses => own ?? s.pauses;
  return {
    max_daily_loss: s.max_daily_loss_usd ? { limitUsd: s.max_daily_loss_usd.limit, pauses: pauses(s.max_daily_loss_usd.pauses) } : null,
    max_drawdown: s.max_drawdown ? { percent: s.max_drawdown.limit, pauses: pauses(s.max_drawdown.pauses) } : null,
    max_exposure: s.max_exposure_usd ? { limitUsd: s.max_exposure_usd.limit, pauses: pauses(s.max_exposure_usd.pauses) } : null,
    loss_cooldown: s.loss_cooldown ? { losingExits: s.loss_cooldown.losing_exits, forMs: s.loss_cooldown.for, pauses: pauses(s.loss_cooldown.pauses) } : null,
  };
});

/** Whether any protection is configured. */
export function anyProtection(config: ProtectionsConfig): boolean {
  return PROTECTION_NAMES.some((name) => config[name] !== null);
}
