/**
 * Base units as a decimal number of tokens, exactly (no float): 1500000n with 6 decimals is "1.5".
 * The one conversion behind the audit's tables, the log lines, webhook texts and the simulator's
 * `uiAmountString`, so they cannot disagree on a digit.
 *
 * @example
 * formatUnits(-1n, 9) // '-0.000000001'
 */
export function formatUnits(amount: bigint, decimals: number): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
