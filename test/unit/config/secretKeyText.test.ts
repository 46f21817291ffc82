import { describe, expect, it } from 'vitest';
import { isSecretKeyText } from '../../../src/config/secretKeyText.js';

const A = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Reference base58 encoder (test-only), so the cases below are built, not copied. */
function base58(bytes: number[]): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = (A[Number(n % 58n)] ?? '') + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

const bytes = (length: number, first = 7): number[] => Array.from({ length }, (_, i) => (i === 0 ? first : (i * 37) % 256));

describe('isSecretKeyText', () => {
  it.each([
    ['base58, 64 bytes', base58(bytes(64)), true],
    ['base58, 64 bytes with leading zero bytes', base58([0, 0, ...bytes(62)]), true],
    ['base58 with surrounding newline', `${base58(bytes(64))}\n`, true],
    ['JSON array of 64 bytes', JSON.stringify(bytes(64)), true],
    ['base58, 63 bytes', base58(bytes(63)), false],
    ['base58, 65 bytes', base58(bytes(65)), false],
    ['base58 with a character outside the alphabet', `${base58(bytes(64)).slice(0, -1)}0`, false],
    ['JSON array of 32 bytes (a seed, not a keypair)', JSON.stringify(bytes(32)), false],
    ['JSON array with a value above 255', JSON.stringify([...bytes(63), 256]), false],
    ['broken JSON', '[1, 2,', false],
    ['empty', '', false],
  ])('%s → %s', (_name, text, expected) => {
    expect(isSecretKeyText(text)).toBe(expected);
  });
});
