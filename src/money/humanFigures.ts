/** Figures for people: dollars to the cent, token amounts and prices shortened. Exact figures go to JSON and CSV. */
import { type Fixed, formatFixed } from './decimal.js';

/** Dollars to the cent for people; exact text in --json and --csv. */
export function usdText(value: Fixed | null): string {
  if (value === null) return '—';
  const cents = (value < 0n ? value - 5n * 10n ** 15n : value + 5n * 10n ** 15n) / 10n ** 16n;
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}$${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** A token amount for people: at most 6 decimals, trailing zeros dropped. */
export function amountText(value: Fixed): string {
  const text = formatFixed(value);
  const [whole, fraction] = text.split('.');
  return fraction === undefined ? text : `${whole}.${fraction.slice(0, 6).replace(/0+$/, '')}`.replace(/\.$/, '');
}

/** A price for people: six significant digits (exact figures are in --json and --csv). */
export function significantText(value: Fixed): string {
  const text = formatFixed(value);
  const [whole = '0', fraction = ''] = text.split('.');
  // A whole number keeps its zeros (170, not 17); a fraction loses its trailing ones and, with them, its point.
  if (whole !== '0') return whole.length >= 6 || fraction === '' ? whole : `${whole}.${fraction.slice(0, 6 - whole.length)}`.replace(/\.?0+$/, '');
  const lead = /^0*/.exec(fraction)?.[0].length ?? 0;
  return `0.${fraction.slice(0, lead + 6)}`.replace(/\.?0+$/, '');
}
