/** The report's figures for reading: rounded on the decimal digits, half away from zero, never through a float. */
import { describe, expect, it } from 'vitest';
import { amountText, dollarsText, fixedOf, percentText, priceText, signedDollarsText } from '../../../src/audit/figureText.js';
import type { Fixed } from '../../../src/money/decimal.js';

const f = (text: string): Fixed => fixedOf(text) as Fixed;

describe('figure text', () => {
  it('writes dollars to the cent with thousands separators', () => {
    expect(dollarsText(f('1234.565'))).toBe('$1,234.57');
    expect(dollarsText(f('1234567.004999'))).toBe('$1,234,567.00');
    expect(dollarsText(f('0.0582261625818321'))).toBe('$0.06');
    expect(dollarsText(f('-0.005'))).toBe('-$0.01');
    expect(dollarsText(f('-0.004'))).toBe('$0.00');
    expect(dollarsText(0n)).toBe('$0.00');
    expect(signedDollarsText(f('45'))).toBe('+$45.00');
    expect(signedDollarsText(f('-12.3'))).toBe('-$12.30');
    expect(signedDollarsText(f('0.001'))).toBe('$0.00');
  });

  it('writes a price under a dollar to four significant digits, and from a dollar to the cent', () => {
    expect(priceText(f('0.0000199'))).toBe('$0.00001990');
    expect(priceText(f('0.000019905791449550'))).toBe('$0.00001991');
    expect(priceText(f('0.5'))).toBe('$0.5000');
    expect(priceText(f('0.802001988585422844'))).toBe('$0.8020');
    expect(priceText(f('0.99996'))).toBe('$1.00');
    expect(priceText(f('150.133109200000006922'))).toBe('$150.13');
    expect(priceText(f('65012.5'))).toBe('$65,012.50');
    expect(priceText(0n)).toBe('$0.00');
  });

  it('shortens a token amount, trailing zeros dropped, a dollar token to the cent', () => {
    expect(amountText(f('2.499998750'))).toBe('2.5');
    expect(amountText(f('0.119047619'))).toBe('0.119');
    expect(amountText(f('0.0001234567'))).toBe('0.0001235');
    expect(amountText(f('25000000'))).toBe('25,000,000');
    expect(amountText(f('1234.5678'))).toBe('1,234.57');
    expect(amountText(f('-106.62'))).toBe('-106.62');
    expect(amountText(0n)).toBe('0');
    expect(amountText(f('25'), { cents: true })).toBe('25.00');
  });

  it('writes a percentage with its sign', () => {
    expect(percentText(f('2.857142857142857142'))).toBe('+2.86%');
    expect(percentText(f('-22.857142857142857142'))).toBe('-22.86%');
    expect(percentText(0n)).toBe('0.00%');
  });

  it('reads exact text back, signed, and nothing else', () => {
    expect(fixedOf('-12.5')).toBe(-12_500_000_000_000_000_000n);
    expect(fixedOf(null)).toBeNull();
    expect(fixedOf('1e5')).toBeNull();
  });
});
