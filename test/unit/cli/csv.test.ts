import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from '../../../src/cli/csv.js';

describe('csvField (RFC 4180)', () => {
  it('leaves plain values unquoted', () => {
    expect(csvField('fill')).toBe('fill');
    expect(csvField(42)).toBe('42');
    expect(csvField(18446744073709551617n)).toBe('18446744073709551617');
    expect(csvField(false)).toBe('false');
    expect(csvField('-1500')).toBe('-1500');
    expect(csvField(' padded ')).toBe(' padded ');
  });

  it('writes null and undefined as an empty field', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('quotes a field with a comma, a double quote, CR or LF, doubling the quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('"')).toBe('""""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField('{"a":1,"b":"x"}')).toBe('"{""a"":1,""b"":""x""}"');
  });
});

describe('csvRecord', () => {
  it('joins fields with commas and ends with CRLF', () => {
    expect(csvRecord(['a', 'b,c', null, 3])).toBe('a,"b,c",,3\r\n');
    expect(csvRecord([])).toBe('\r\n');
  });
});
