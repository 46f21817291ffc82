/**
 * Figures as the report's page shows them: dollars to the cent with thousands separators, prices
 * under a dollar to four significant digits, token amounts shortened. Each is rounded for reading
 * only, on the decimal digits (never through a float): the exact text stays beside it, in the
 * cell's `title` and in the page's JSON.
 */
import { type Fixed, parseFixedRounded, PLACES } from '../money/decimal.js';

const SCALE = 10n ** BigInt(PLACES);

/** |value| rounded to `places` decimals, half away from zero, as integer and fraction digits. */
function rounded(value: Fixed, places: number): { negative: boolean; whole: bigint; fraction: string } {
  const abs = value < 0n ? -value : value;
  const step = 10n ** BigInt(PLACES - places);
  const units = (abs + step / 2n) / step;
  const unit = 10n ** BigInt(places);
  return { negative: value < 0n && units > 0n, whole: units / unit, fraction: places === 0 ? '' : (units % unit).toString().padStart(places, '0') };
}

/** 1234567 → "1,234,567". */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function decimalText(value: Fixed, places: number, trim: boolean): { negative: boolean; text: string } {
  const r = rounded(value, places);
  const fraction = trim ? r.fraction.replace(/0+$/, '') : r.fraction;
  return { negative: r.negative, text: `${groupThousands(r.whole.toString())}${fraction === '' ? '' : `.${fraction}`}` };
}

/** Dollars to the cent: "$1,234.56", "-$0.05". */
export function dollarsText(value: Fixed): string {
  const { negative, text } = decimalText(value, 2, false);
  return `${negative ? '-' : ''}$${text}`;
}

/** A gain or a loss: "+$12.30", "-$4.00", "$0.00". */
export function signedDollarsText(value: Fixed): string {
  const text = dollarsText(value);
  return text === '$0.00' || text.startsWith('-') ? text : `+${text}`;
}

/** Places that keep four significant digits of a positive value under 1 (at least 2, at most 18). */
function placesForFour(abs: Fixed): number {
  const digits = abs.toString().length;
  return Math.min(PLACES, Math.max(2, PLACES - digits + 4));
}

/** A dollar price: cents from $1 ("$1,234.56"), four significant digits below ("$0.5000", "$0.00001990"). */
export function priceText(value: Fixed): string {
  const abs = value < 0n ? -value : value;
  if (abs === 0n || abs >= SCALE) return dollarsText(value);
  const places = placesForFour(abs);
  const { negative, text } = decimalText(value, places, false);
  // Rounding 0.99996 up reaches a dollar: then it reads as dollars and cents.
  return text.startsWith('1') ? dollarsText(value) : `${negative ? '-' : ''}$${text}`;
}

/**
 * A token amount for reading: 2 decimals from 1,000, 4 from 1, four significant digits below,
 * trailing zeros dropped; a dollar token (`cents`) to the cent, as money reads.
 */
export function amountText(value: Fixed, options: { cents?: boolean } = {}): string {
  if (options.cents) return dollarsText(value).replace('$', '');
  const abs = value < 0n ? -value : value;
  const places = abs >= 1000n * SCALE ? 2 : abs >= SCALE ? 4 : abs === 0n ? 0 : placesForFour(abs);
  const { negative, text } = decimalText(value, places, true);
  return `${negative ? '-' : ''}${text}`;
}

/** A percentage (value already × 100) with its sign, to 2 decimals: "+12.35%", "-4.10%", "0.00%". */
export function percentText(value: Fixed): string {
  const { negative, text } = decimalText(value, 2, false);
  return `${negative ? '-' : text === '0.00' ? '' : '+'}${text}%`;
}

/** Exact decimal text, signed ("-12.5"), back to Fixed; null for null or anything else. */
export function fixedOf(text: string | null | undefined): Fixed | null {
  if (text === null || text === undefined) return null;
  const negative = text.startsWith('-');
  const value = parseFixedRounded(negative ? text.slice(1) : text);
  return value === undefined ? null : negative ? -value : value;
}
