/**
 * Exact decimal arithmetic for prices, shares and notionals: a value is a bigint scaled by 1e18.
 * Money never goes through a float here; 18 places keep memecoin prices
 * (1e-8 USD and below) and basis-point steps exact.
 */
export type Fixed = bigint;

export const PLACES = 18;
export const ONE: Fixed = 10n ** 18n;
const BPS = 10_000n;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** `"123.45"` → Fixed; undefined for anything else (signs, exponents, spaces, more than 18 places). */
export function parseFixed(text: string): Fixed | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const frac = match[2] ?? '';
  if (frac.length > PLACES) return undefined;
  return BigInt(match[1] ?? '0') * ONE + BigInt(frac.padEnd(PLACES, '0') || '0');
}

/**
 * `"0.000019905791449550526"` → Fixed, rounded to the nearest 1e-18 (a half rounds up): for a
 * price written with more places than a Fixed keeps, such as a float's shortest text kept as it
 * came. Exact: the rounding is done on the digits, never through a float. Undefined for anything
 * that is not a plain non-negative decimal.
 */
export function parseFixedRounded(text: string): Fixed | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const frac = match[2] ?? '';
  if (frac.length <= PLACES) return parseFixed(text);
  const kept = parseFixed(`${match[1] ?? '0'}.${frac.slice(0, PLACES)}`) as Fixed;
  return frac.charCodeAt(PLACES) >= 53 ? kept + 1n : kept;
}

/** Fixed → shortest decimal text: 1.5e18 → "1.5", 0 → "0"; negatives keep their sign. */
export function formatFixed(value: Fixed): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / ONE;
  const rest = abs % ONE;
  if (rest === 0n) return `${negative ? '-' : ''}${whole}`;
  const digits = rest.toString().padStart(PLACES, '0');
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 48) end--;
  return `${negative ? '-' : ''}${whole}.${digits.slice(0, end)}`;
}

/** a × b, both Fixed, rounded toward zero. */
export function mulFixed(a: Fixed, b: Fixed): Fixed {
  return (a * b) / ONE;
}

/** a ÷ b, both Fixed, rounded toward zero. b must not be 0. */
export function divFixed(a: Fixed, b: Fixed): Fixed {
  return (a * ONE) / b;
}

/** value × (1 + fraction), fraction signed (e.g. -0.1 for "-10%"). */
export function applyChange(value: Fixed, fraction: Fixed): Fixed {
  return mulFixed(value, ONE + fraction);
}

/** A fraction as whole basis points, rounded toward zero: 0.05 → 500. */
export function toBps(fraction: Fixed): number {
  return Number((fraction * BPS) / ONE);
}

export function fromBps(bps: number): Fixed {
  return (BigInt(bps) * ONE) / BPS;
}

/** Base units of a token with `decimals` → whole tokens as Fixed. */
export function unitsToFixed(units: bigint, decimals: number): Fixed {
  return (units * ONE) / 10n ** BigInt(decimals);
}

/** Whole tokens as Fixed → base units, rounded down (never more than asked). */
export function fixedToUnits(value: Fixed, decimals: number): bigint {
  return (value * 10n ** BigInt(decimals)) / ONE;
}

/** Share (Fixed fraction) of a base-unit amount, rounded down. */
export function shareOf(units: bigint, fraction: Fixed): bigint {
  return (units * fraction) / ONE;
}

/** Micro-USD (prediction money) → Fixed USD. */
export function microToFixed(micro: bigint): Fixed {
  return micro * 10n ** 12n;
}

/** Fixed USD → micro-USD, rounded down. */
export function fixedToMicro(value: Fixed): bigint {
  return value / 10n ** 12n;
}

export function maxFixed(a: Fixed, b: Fixed): Fixed {
  return a > b ? a : b;
}

/**
 * A price the API gave as a float, as decimal text without an exponent (1.5e-7 → "0.00000015"):
 * how the database keeps it. Null for a negative or non-finite value.
 */
export function decimalTextOf(value: number | null | undefined): string | null {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return null;
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}
