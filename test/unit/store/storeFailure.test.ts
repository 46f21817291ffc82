import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/store/errors.js';
import { storeFailure } from '../../../src/store/storeFailure.js';

const withCode = (code: string): Error => Object.assign(new Error(`failed: ${code}`), { code });

describe('store failures an operator can fix', () => {
  it.each([
    ['EROFS', 'STORE_READ_ONLY'],
    ['EACCES', 'STORE_READ_ONLY'],
    ['SQLITE_READONLY', 'STORE_READ_ONLY'],
    ['SQLITE_CANTOPEN', 'STORE_READ_ONLY'],
    ['ENOTDIR', 'STORE_NOT_A_DIRECTORY'],
    ['EEXIST', 'STORE_NOT_A_DIRECTORY'],
    ['SQLITE_BUSY', 'STORE_BUSY'],
    ['SQLITE_LOCKED', 'STORE_BUSY'],
  ])('%s becomes %s, with what to do', (code, expected) => {
    const mapped = storeFailure(withCode(code), '/var/lib/jupbot');
    expect(mapped).toBeInstanceOf(StoreError);
    expect((mapped as StoreError).code).toBe(expected);
    expect((mapped as StoreError).message).toMatch(/^\/var\/lib\/jupbot/);
  });

  it('also reads the code of a wrapped cause, and leaves anything else alone', () => {
    const wrapped = new StoreError('STORE_OPEN_FAILED', 'cannot open', { cause: withCode('SQLITE_READONLY') });
    expect((storeFailure(wrapped, 'f') as StoreError).code).toBe('STORE_READ_ONLY');
    const bug = new TypeError('x is undefined');
    expect(storeFailure(bug, 'f')).toBe(bug);
  });
});
