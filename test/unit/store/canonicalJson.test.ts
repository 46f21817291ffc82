import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/store/canonicalJson.js';
import { StoreError } from '../../../src/store/errors.js';

function rejection(value: unknown): StoreError {
  try {
    canonicalJson(value);
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('STORE_CANONICAL_JSON');
    return error as StoreError;
  }
  throw new Error('expected a rejection');
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: true }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":true,"z":null}]},"b":1}');
  });

  it('writes the same text whatever order the keys were added in', () => {
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });

  it('writes bigint as a decimal string, beyond 2^64 too', () => {
    expect(canonicalJson({ amount: 18446744073709551617n, neg: -5n })).toBe('{"amount":"18446744073709551617","neg":"-5"}');
  });

  it('writes numbers in ECMAScript shortest form, as RFC 8785 does', () => {
    expect(canonicalJson([0.1, -0, 1e-7, 123.456, 4.5, 0.002, 333333333.3333333, 9007199254740991])).toBe(
      '[0.1,0,1e-7,123.456,4.5,0.002,333333333.3333333,9007199254740991]',
    );
  });

  it('escapes strings minimally with lowercase \\u escapes (RFC 8785 vector)', () => {
    expect(canonicalJson({ s: '€$\u000f\nA\'B"\\\\"/' })).toBe('{"s":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
    expect(canonicalJson('\u0000\u001f\u007f\u2028')).toBe('"\\u0000\\u001f\u007f\u2028"');
    expect(canonicalJson('\ud800')).toBe('"\\ud800"');
  });

  it('orders keys by UTF-16 code units (RFC 8785), not by code points', () => {
    // U+1F600 is the surrogate pair D83D DE00, which sorts before U+FFFF in UTF-16 order.
    expect(canonicalJson({ '\uffff': 1, '\u{1F600}': 2, a: 3 })).toBe('{"a":3,"\u{1F600}":2,"\uffff":1}');
  });

  it('accepts objects without a prototype and shared (non-cyclic) references', () => {
    const shared = { k: 1 };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: shared, a: shared });
    expect(canonicalJson(bare)).toBe('{"a":{"k":1},"b":{"k":1}}');
  });

  it('rejects undefined, naming the path', () => {
    expect(rejection({ a: { 'b-c': [1, undefined] } }).message).toBe('$.a["b-c"][1] is undefined: omit the key or use null');
  });

  it('rejects values without a faithful JSON form', () => {
    expect(rejection({ n: Number.NaN }).message).toMatch(/\$\.n is NaN/);
    expect(rejection([Number.POSITIVE_INFINITY]).message).toMatch(/Infinity/);
    expect(rejection({ f: () => 1 }).message).toMatch(/function/);
    expect(rejection({ s: Symbol('x') }).message).toMatch(/symbol/);
    expect(rejection({ d: new Date(0) }).message).toMatch(/Date.*epoch milliseconds/);
    expect(rejection({ m: new Map() }).message).toMatch(/Map/);
    expect(rejection({ b: new Uint8Array(2) }).message).toMatch(/Uint8Array/);
  });

  it('writes large numbers as ECMAScript does (RFC 8785 vector)', () => {
    expect(canonicalJson([Number('333333333.33333329'), 1e30, 4.5, 2e-3, 0.000000000000000000000000001, 2 ** 53 + 2])).toBe(
      '[333333333.3333333,1e+30,4.5,0.002,1e-27,9007199254740994]',
    );
  });

  it('rejects cycles', () => {
    const a: Record<string, unknown> = {};
    a.self = { back: a };
    expect(rejection(a).message).toMatch(/\$\.self\.back refers back to itself/);
  });
});
