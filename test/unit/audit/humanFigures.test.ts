/** Figures for people: prices to six significant digits, a whole price without a dangling point. */
import { describe, expect, it } from 'vitest';
import { significantText } from '../../../src/money/humanFigures.js';
import { parseFixed } from '../../../src/money/decimal.js';

const price = (text: string): string => significantText(parseFixed(text) as bigint);

describe('significantText', () => {
  it('keeps six significant digits, a whole number whole', () => {
    expect(['170', '120', '100.05', '150.0001', '179.75341', '1234567.89', '0.05', '0.0000123456789'].map(price)).toEqual([
      '170',
      '120',
      '100.05',
      '150',
      '179.753',
      '1234567',
      '0.05',
      '0.0000123456',
    ]);
  });
});
