import { describe, expect, it } from 'vitest';
import { createdOrderWire, type CreatedOrder } from '../../src/sim/prediction/wire.js';

const order = (over: Partial<CreatedOrder>): CreatedOrder => ({
  orderPubkey: 'order1',
  wallet: 'wallet1',
  marketId: 'MKT-1',
  position: { pubkey: 'pos1', isYes: true, contractsMicro: 0n, totalCostMicro: 0n },
  isBuy: true,
  contractsMicro: 10_000_000n,
  limit: 620_000,
  externalOrderId: 'ext-1',
  costMicro: 6_000_000n,
  feeMicro: 170_000n,
  ...over,
});

describe('the order of a create-order answer', () => {
  it('a buy adds its cost to the position and names its price bound as the most it pays', () => {
    const held = { pubkey: 'pos1', isYes: true, contractsMicro: 10_000_000n, totalCostMicro: 4_000_000n };
    expect(createdOrderWire(order({ position: held }))).toMatchObject({
      contractsDecimal: '10',
      newContractsDecimal: '20',
      newSizeUsd: '10000000',
      newAvgPriceUsd: '500000',
      maxBuyPriceUsd: '620000',
      minSellPriceUsd: null,
      orderCostUsd: '6000000',
      estimatedTotalFeeUsd: '170000',
    });
  });

  it('a sale keeps the average price: the cost basis shrinks with the contracts', () => {
    const held = { pubkey: 'pos1', isYes: false, contractsMicro: 40_000_000n, totalCostMicro: 16_000_000n };
    const sale = createdOrderWire(order({ position: held, isBuy: false, contractsMicro: 10_000_000n, limit: 550_000, costMicro: 5_500_000n }));
    expect(sale).toMatchObject({
      isYes: false,
      newContractsDecimal: '30',
      newSizeUsd: '12000000',
      newAvgPriceUsd: '400000',
      minSellPriceUsd: '550000',
      maxBuyPriceUsd: null,
    });
  });

  it('selling everything leaves an empty position at price 0', () => {
    const held = { pubkey: 'pos1', isYes: true, contractsMicro: 10_000_000n, totalCostMicro: 3_000_000n };
    expect(createdOrderWire(order({ position: held, isBuy: false }))).toMatchObject({ newContractsMicro: '0', newSizeUsd: '0', newAvgPriceUsd: '0' });
  });
});
