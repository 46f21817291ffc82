import { describe, expect, it } from 'vitest';
import { closestMatches, didYouMean, editDistance } from '../../../src/config/didYouMean.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['mode', 'mode', 0],
    ['moed', 'mode', 1], // adjacent transposition counts once
    ['requests_per_secnd', 'requests_per_second', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3], // optimal string alignment: no edits of a transposed pair
    ['speed', 'seed', 1],
  ])('%j → %j = %i', (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected);
    expect(editDistance(b, a)).toBe(expected);
  });
});

const apiKeys = ['base_url', 'key_env', 'keyless', 'requests_per_second', 'timeout'];

describe('didYouMean', () => {
  it.each([
    ['requests_per_secnd', apiKeys, ' (did you mean "requests_per_second"?)'],
    ['requestsPerSecond', apiKeys, ' (did you mean "requests_per_second"?)'],
    ['requests-per-second', apiKeys, ' (did you mean "requests_per_second"?)'],
    ['BASE_URL', apiKeys, ' (did you mean "base_url"?)'],
    ['baseurl', apiKeys, ' (did you mean "base_url"?)'],
    ['timeot', apiKeys, ' (did you mean "timeout"?)'],
    ['moed', ['mode', 'api'], ' (did you mean "mode"?)'],
    ['sped', ['seed', 'speed', 'port'], ' (did you mean "seed" or "speed"?)'],
  ])('%j suggests %j', (input, candidates, expected) => {
    expect(didYouMean(input, candidates)).toBe(expected);
  });

  it.each([
    ['endpoint', apiKeys], // nothing close: no wild guess
    ['url', apiKeys], // a substring is not a typo
    ['x', ['y', 'z']], // one letter is too short to guess from
    ['requests', apiKeys],
    ['api', []],
  ])('%j suggests nothing', (input, candidates) => {
    expect(didYouMean(input, candidates)).toBe('');
  });

  it('never suggests the input itself', () => {
    expect(closestMatches('mode', ['mode'])).toEqual([]);
  });
});
