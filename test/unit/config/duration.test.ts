import { describe, expect, it } from 'vitest';
import { durationSchema, formatDuration, parseDuration, tryParseDuration } from '../../../src/config/duration.js';

describe('parseDuration', () => {
  it.each([
    ['1ms', 1],
    ['500ms', 500],
    ['10s', 10_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['30d', 2_592_000_000],
    ['1h30m', 5_400_000],
    ['2m30s', 150_000],
    ['1d2h3m4s5ms', 93_784_005],
    ['1.5s', 1_500],
    ['0.1h', 360_000],
    ['1m0.5s', 60_500],
    [' 10s ', 10_000],
  ])('%j → %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ['10 seconds', '"10 seconds" is not a duration (use e.g. 500ms, 10s, 5m, 2h, 30d)'],
    ['10', '"10" is not a duration (use e.g. 500ms, 10s, 5m, 2h, 30d)'],
    ['10S', '"10S" is not a duration (use e.g. 500ms, 10s, 5m, 2h, 30d)'],
    ['10 s', '"10 s" is not a duration (use e.g. 500ms, 10s, 5m, 2h, 30d)'],
    ['1w', '"1w" is not a duration (use e.g. 500ms, 10s, 5m, 2h, 30d)'],
    ['', '"" is not a duration (use e.g. 500ms, 10s, 5m, 2h, 30d)'],
    ['.5s', '".5s" is not a duration (use e.g. 500ms, 10s, 5m, 2h, 30d)'],
    ['0s', '"0s" is zero; a duration must be greater than zero'],
    ['0h0m', '"0h0m" is zero; a duration must be greater than zero'],
    ['-5s', '"-5s" is negative; a duration must be greater than zero'],
    ['30m1h', '"30m1h" must list its units from largest to smallest, each once (e.g. 1h30m)'],
    ['1m1m', '"1m1m" must list its units from largest to smallest, each once (e.g. 1h30m)'],
    ['0.5ms', '"0.5ms" is not a whole number of milliseconds'],
    ['999999999999d', '"999999999999d" is too long'],
  ])('%j is refused: %s', (text, error) => {
    expect(tryParseDuration(text)).toEqual({ ok: false, error });
    expect(() => parseDuration(text)).toThrow(new RangeError(error));
  });

  it('refuses a bare number, suggesting units', () => {
    expect(tryParseDuration(30)).toEqual({ ok: false, error: '30 has no unit (write e.g. 30s or 30ms)' });
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0ms'],
    [1, '1ms'],
    [1_500, '1s500ms'],
    [90_000, '1m30s'],
    [5_400_000, '1h30m'],
    [86_400_000, '1d'],
    [93_784_005, '1d2h3m4s5ms'],
  ])('%i → %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('round-trips through parseDuration', () => {
    for (const ms of [1, 999, 1_000, 61_001, 3_599_999, 86_400_001, 2_592_000_000]) {
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    }
  });

  it('refuses what is not a whole, non-negative number of ms', () => {
    expect(() => formatDuration(-1)).toThrow(RangeError);
    expect(() => formatDuration(1.5)).toThrow(RangeError);
  });
});

describe('durationSchema', () => {
  it('outputs milliseconds and enforces bounds', () => {
    const schema = durationSchema({ min: 1_000, max: 60_000 });
    expect(schema.parse('30s')).toBe(30_000);
    expect(schema.safeParse('500ms').error?.issues[0]?.message).toBe('"500ms" is too short (at least 1s)');
    expect(schema.safeParse('2m').error?.issues[0]?.message).toBe('"2m" is too long (at most 1m)');
  });

  it('reports other types by type, not as a bad duration', () => {
    expect(durationSchema().safeParse(true).error?.issues[0]).toMatchObject({ code: 'invalid_type', expected: 'duration' });
    expect(durationSchema().safeParse(undefined).error?.issues[0]).toMatchObject({ code: 'invalid_type', expected: 'duration' });
  });
});
