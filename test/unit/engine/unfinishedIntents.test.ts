import { describe, expect, it } from 'vitest';
import { unfinishedIntents, unfinishedText } from '../../../src/engine/unfinishedIntents.js';

describe('unfinishedIntents', () => {
  it('counts the rows a stop left by state and says the next start resolves them', () => {
    const left = unfinishedIntents([{ state: 'planned' }, { state: 'sent' }, { state: 'planned' }]);
    expect(left).toEqual({ count: 3, byState: { planned: 2, sent: 1 } });
    expect(unfinishedText(left)).toBe('3 intents left unfinished (2 planned, 1 sent): the next start resolves them');
  });

  it('names a single row in the singular', () => {
    expect(unfinishedText(unfinishedIntents([{ state: 'expired' }]))).toBe('1 intent left unfinished (1 expired): the next start resolves it');
  });

  it('says plainly when nothing was left', () => {
    const none = unfinishedIntents([]);
    expect(none).toEqual({ count: 0, byState: {} });
    expect(unfinishedText(none)).toBe('no intent left unfinished');
  });
});
