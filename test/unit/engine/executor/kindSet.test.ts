import { describe, expect, it } from 'vitest';
import { createHandlerSet } from '../../../../src/engine/executor/kindSet.js';
import { testStack } from '../../../support/testStack.js';

describe('the handler set, narrowed to the kinds a test wires', () => {
  it('holds the handlers and routes of the kinds named, and no others: the rest are deferred', () => {
    const s = testStack({ kinds: ['swap', 'cancel-vault-order'] });
    expect(s.set.handlers.map((h) => h.kind)).toEqual(['swap', 'cancel-vault-order']);
    // Renewals are their own kind: a set with cancels and no renewals defers them.
    expect([...s.set.routes.keys()]).toEqual(['swap', 'cancel-vault-order']);
    expect(s.set.vault).toBe(true);
    expect(s.set.routes.has('place-vault-order')).toBe(false);
    expect(testStack({ kinds: ['swap'] }).set.vault).toBe(false);
  });

  it('refuses a kind it does not have, naming the Trigger client when a vault kind is asked for without one', () => {
    const s = testStack({ kinds: ['swap'] });
    const deps = { ...s, signer: s.signer, decimalsOf: () => Promise.resolve(6), maxVaultSlippageBps: 300 };
    expect(() => createHandlerSet({ ...deps, kinds: ['no-such-kind'] })).toThrow('no no-such-kind kind in the handler set');
    expect(() => createHandlerSet({ ...deps, authed: undefined, kinds: ['swap', 'place-vault-order'] })).toThrow(
      'no place-vault-order kind in the handler set (the vault kinds need an authed Trigger client)',
    );
    expect(createHandlerSet({ ...deps, authed: undefined }).handlers.map((h) => h.kind)).toEqual(['swap', 'sell-position', 'partial-sell', 'claim-position']);
  });
});
