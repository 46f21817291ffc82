import { describe, expect, it } from 'vitest';
import { isBuying } from '../../../src/protections/buyingStrategy.js';
import type { VaultOrderView } from '../../../src/strategies/snapshot.js';
import { HEADER, load } from '../strategies/helpers.js';

const DCA = `${HEADER}name: dca
kind: dca
buy: SOL
pay_with: USDC
amount: "1"
execution: swap
schedule:
  cron: "0 * * * *"
  timezone: UTC
`;

const ENTRY = `${HEADER}name: entry
kind: price-order
sell: SOL
receive: USDC
amount: "50%"
entry:
  buy_below: "140"
  spend: "100"
take_profit:
  - at: "+20%"
stop_loss:
  at: "120"
`;

const STOP = `${HEADER}name: stop
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: local
stop_loss:
  at: "100"
`;

const none = (): ReadonlyMap<string, readonly VaultOrderView[]> => new Map();

describe('a buying strategy', () => {
  it('is a DCA, and a price order with an entry while it has no order in the vault', async () => {
    expect(isBuying(await load(DCA, 'dca.yaml'), none)).toBe(true);
    const entry = await load(ENTRY, 'entry.yaml');
    expect(isBuying(entry, none)).toBe(true);
    // Its OTOCO placed (or journaled): what it decides now keeps the order and its stop.
    const placed = new Map([['entry', [{ id: 'o1', rule: 'entry', state: 'pending' } as unknown as VaultOrderView]]]);
    expect(isBuying(entry, () => placed)).toBe(false);
  });

  it('is never a price order without an entry: its stop keeps working', async () => {
    expect(isBuying(await load(STOP, 'stop.yaml'), none)).toBe(false);
  });
});
