/**
 * Numbers as a person reads them in a log line or a notification. Exact values (base units, 18-digit
 * prices) stay in the structured fields and the audit log; these are for the message only, so they
 * round: a price to about five significant digits, an amount to what its size needs.
 */
import { formatUnits } from './formatUnits.js';

/** Base units as an exact decimal string in token units: "1500000", 6 → "1.5". */
export function tokenUnits(amount: string, decimals: number): string {
  // Audit rows are read back as text: anything that is not a whole number is shown as it is.
  return /^\d+$/.test(amount) ? formatUnits(BigInt(amount), decimals) : amount;
}

const grouped = (value: number, fraction: number): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: fraction, useGrouping: true });

const significant = (value: number, digits: number): string => value.toLocaleString('en-US', { maximumSignificantDigits: digits, useGrouping: true });

/**
 * An amount of a token, rounded for reading: six significant digits from 1 up (the whole part is
 * never rounded), four under 1, never more decimals than the token has; USD stablecoins to the cent.
 * "9999990000", 9 → "9.99999"; "25024449", 6 → "25.0244"; "123456789012", 6 → "123,457".
 */
export function humanAmount(amount: string | bigint, decimals: number, options: { usd?: boolean } = {}): string {
  const exact = tokenUnits(String(amount), decimals);
  const value = Number(exact);
  if (!Number.isFinite(value)) return exact;
  if (options.usd) return grouped(value, Math.min(2, decimals));
  const abs = Math.abs(value);
  if (abs === 0) return '0';
  if (abs >= 1) return grouped(value, Math.max(0, Math.min(decimals, 6 - Math.floor(Math.log10(abs)) - 1)));
  const out = significant(value, 4);
  // Below the token's own precision rounding cannot invent digits; keep the exact text then.
  return out.length - 2 > decimals ? exact : out;
}

/** A USD price: whole dollars from $1,000, cents from $1, five significant digits below: "$65,012", "$150.03", "$0.000023456". */
export function humanUsd(price: string | number): string {
  const value = typeof price === 'number' ? price : Number(price);
  if (!Number.isFinite(value)) return `$${String(price)}`;
  const abs = Math.abs(value);
  const text =
    abs >= 1000 ? grouped(value, 0) : abs >= 1 ? value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : significant(value, 5);
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}
