/**
 * The report's timeline words for the action an upgrade writes when it changes an intent's journal
 * kind: both kinds named, and a row the chain could not vouch for said to be so.
 */
import { describe, expect, it } from 'vitest';
import { actionWords } from '../../../src/audit/actionWords.js';
import type { ActionRecord } from '../../../src/store/actionQueries.js';

const record = (kind: string, data: object): ActionRecord => ({
  id: 7,
  at: 0,
  kind,
  strategy: 'tp-sol',
  intentId: 'tp-sol/cdcdcdcdcdcd/take_profit[0]/renew:ord-1@1',
  mint: null,
  amount: null,
  decimals: null,
  signature: null,
  data: JSON.stringify(data),
  prevHash: '0'.repeat(64),
  hash: 'f'.repeat(64),
});

describe('actionWords for intent.rekinded', () => {
  it('names the old and the new kind', () => {
    const words = actionWords(record('intent.rekinded', { from: 'cancel-vault-order', to: 'renew-vault-order', reason: 'r', sealed: [] }), (m) => m);
    expect(words).toBe('journaled as cancel-vault-order, now renew-vault-order (an upgrade)');
  });

  it('says when the row was not sealed again', () => {
    const words = actionWords(record('intent.rekinded', { from: 'cancel-vault-order', to: 'renew-vault-order', notSealed: 'the row differs' }), (m) => m);
    expect(words).toBe('journaled as cancel-vault-order, now renew-vault-order (an upgrade): not sealed again, the row differs');
  });
});
