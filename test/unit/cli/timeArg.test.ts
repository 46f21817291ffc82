import { describe, expect, it } from 'vitest';
import { parseTimeArg } from '../../../src/cli/timeArg.js';

const NOW = Date.UTC(2026, 2, 29, 12, 0, 0);

describe('parseTimeArg', () => {
  it('reads epoch milliseconds', () => {
    expect(parseTimeArg('1767225600000', NOW)).toBe(1767225600000);
  });

  it('reads a date as midnight UTC', () => {
    expect(parseTimeArg('2026-01-31', NOW)).toBe(Date.UTC(2026, 0, 31));
  });

  it('reads date-times with a zone', () => {
    expect(parseTimeArg('2026-01-31T09:30Z', NOW)).toBe(Date.UTC(2026, 0, 31, 9, 30));
    expect(parseTimeArg('2026-01-31T09:30:15.5Z', NOW)).toBe(Date.UTC(2026, 0, 31, 9, 30, 15, 500));
    expect(parseTimeArg('2026-01-31T10:30+01:00', NOW)).toBe(Date.UTC(2026, 0, 31, 9, 30));
    expect(parseTimeArg('2026-01-31 04:30:00-05:00', NOW)).toBe(Date.UTC(2026, 0, 31, 9, 30));
  });

  it('reads durations as time before now', () => {
    expect(parseTimeArg('90m', NOW)).toBe(NOW - 90 * 60_000);
    expect(parseTimeArg('24h', NOW)).toBe(NOW - 86_400_000);
    expect(parseTimeArg('7d', NOW)).toBe(NOW - 7 * 86_400_000);
    expect(parseTimeArg('1w', NOW)).toBe(NOW - 7 * 86_400_000);
    expect(parseTimeArg('250ms', NOW)).toBe(NOW - 250);
  });

  it.each(['2026-01-31T09:30', '2026-02-30', '2026-13-01', '2026-01-01T24:00Z', '2026-01-01T10:00+15:00', 'yesterday', '', '1.5h'])('refuses %j', (text) => {
    expect(() => parseTimeArg(text, NOW)).toThrow(RangeError);
  });

  it('accepts the last day of February in a leap year only', () => {
    expect(parseTimeArg('2028-02-29', NOW)).toBe(Date.UTC(2028, 1, 29));
    expect(() => parseTimeArg('2026-02-29', NOW)).toThrow(RangeError);
  });
});
