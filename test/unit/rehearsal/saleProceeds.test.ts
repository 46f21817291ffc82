/**
 * The price a rehearsed prediction sale fills at, and the share of a position a rehearsal can sell or
 * claim: every choice the rehearsal makes where Jupiter's keeper would decide live.
 */
import { describe, expect, it } from 'vitest';
import type { PredictionSellParams } from '../../../src/engine/executor/prediction/sellPosition.js';
import type { CreateOrderResponse, Position } from '../../../src/jupiter/schemas/prediction.js';
import { claimPayout } from '../../../src/rehearsal/rehearsalClaim.js';
import { rehearsedSale } from '../../../src/rehearsal/rehearsalSell.js';
import { saleProceeds } from '../../../src/rehearsal/saleProceeds.js';

const PUBKEY = '3juctoegMrzSQe4R4rWbb2fkXmqVcRsCv9VAhsyC9kRM';

function order(fields: Partial<CreateOrderResponse['order']>): CreateOrderResponse['order'] {
  return {
    orderPubkey: null,
    userPubkey: 'HHnREQhKNtnkponRYh1dbCSX8mi6Lndm3reiXJTMvLgz',
    marketId: 'BTC-1006-M1',
    positionPubkey: PUBKEY,
    isBuy: false,
    isYes: false,
    minSellPriceUsd: 500_000n,
    orderCostUsd: 9_000_000n,
    estimatedTotalFeeUsd: 260_000n,
    ...fields,
  };
}

describe('the proceeds of a rehearsed sale', () => {
  const contracts = 15_000_000n;

  it("is the build's notional less its fee when the bid is not lower", () => {
    expect(saleProceeds(contracts, order({}), { sellPriceUsd: 600_000n, markPriceUsd: 610_000n })).toEqual({
      kind: 'filled',
      grossUsd: 9_000_000n,
      feeUsd: 260_000n,
      netUsd: 8_740_000n,
      basis: 'build',
    });
  });

  it('is the bid when the build values the sale above it, and the bid alone when the build states no notional', () => {
    expect(saleProceeds(contracts, order({ orderCostUsd: 9_500_000n }), { sellPriceUsd: 600_000n })).toMatchObject({ grossUsd: 9_000_000n, basis: 'bid' });
    expect(saleProceeds(contracts, order({ orderCostUsd: null }), { sellPriceUsd: 580_000n })).toMatchObject({ grossUsd: 8_700_000n, basis: 'bid' });
  });

  it('is the mark when neither the build nor the position gives a price for the sale', () => {
    expect(saleProceeds(contracts, order({ orderCostUsd: null }), { sellPriceUsd: null, markPriceUsd: 610_000n })).toMatchObject({
      grossUsd: 9_150_000n,
      basis: 'mark',
    });
  });

  it('is nothing when there is no price at all, or the price is below the floor: a keeper would fail the order', () => {
    expect(saleProceeds(contracts, order({ orderCostUsd: null }), { sellPriceUsd: null, markPriceUsd: null })).toMatchObject({ kind: 'unfilled' });
    expect(saleProceeds(contracts, order({ minSellPriceUsd: 600_001n }), { sellPriceUsd: 600_000n })).toMatchObject({
      kind: 'unfilled',
      message: expect.stringContaining('below the order') as unknown,
    });
    expect(saleProceeds(contracts, order({ minSellPriceUsd: 600_000n }), { sellPriceUsd: 600_000n })).toMatchObject({ kind: 'filled' });
  });

  it('never pays a fee larger than the gross', () => {
    expect(saleProceeds(contracts, order({ orderCostUsd: 100_000n, minSellPriceUsd: null, estimatedTotalFeeUsd: 260_000n }), {})).toMatchObject({
      grossUsd: 100_000n,
      feeUsd: 100_000n,
      netUsd: 0n,
    });
  });
});

describe('the sale a rehearsal can make', () => {
  const decided: PredictionSellParams = { positionPubkey: PUBKEY, marketId: 'BTC-1006-M1', isYes: false, contractsMicro: 30_000_000n };
  const real = { contractsMicro: 30_000_000n, claimed: false } as Position;

  it('is the sale live mode builds while the rehearsal has taken nothing from the position', () => {
    expect(rehearsedSale(decided, 'whole', real, 0n)).toEqual({ params: decided, shape: 'whole' });
    expect(rehearsedSale({ ...decided, contractsMicro: 15_000_000n }, 'partial', real, 0n)).toEqual({
      params: { ...decided, contractsMicro: 15_000_000n },
      shape: 'partial',
    });
  });

  it('sells what the rehearsal still holds, as a partial sale, once it has sold some', () => {
    expect(rehearsedSale(decided, 'whole', real, 10_000_000n)).toEqual({ params: { ...decided, contractsMicro: 20_000_000n }, shape: 'partial' });
    expect(rehearsedSale({ ...decided, contractsMicro: 5_000_000n }, 'whole', real, 10_000_000n)).toEqual({
      params: { ...decided, contractsMicro: 5_000_000n },
      shape: 'partial',
    });
  });

  it('fails when the rehearsal holds less than a partial sale decided, or nothing', () => {
    expect(() => rehearsedSale({ ...decided, contractsMicro: 25_000_000n }, 'partial', real, 10_000_000n)).toThrow(/fewer than the 25000000 decided/);
    expect(() => rehearsedSale(decided, 'whole', real, 30_000_000n)).toThrow(expect.objectContaining({ code: 'PREDICTION_POSITION_GONE' }));
    expect(() => rehearsedSale(decided, 'whole', null, 0n)).toThrow(/unknown to the API/);
    expect(() => rehearsedSale(decided, 'whole', { ...real, claimed: true }, 0n)).toThrow(/claimed/);
  });
});

describe('the payout of a rehearsed claim', () => {
  const build = { positionPubkey: PUBKEY, ownerPubkey: 'HHnREQhKNtnkponRYh1dbCSX8mi6Lndm3reiXJTMvLgz', isYes: false };

  it('is 1 USD per contract the rehearsal holds, never more than its share of the payout the build states', () => {
    expect(claimPayout(15_000_000n, { ...build, contractsMicro: 30_000_000n, payoutAmountUsd: 30_000_000n })).toBe(15_000_000n);
    expect(claimPayout(15_000_000n, { ...build, contractsMicro: 30_000_000n, payoutAmountUsd: 24_000_000n })).toBe(12_000_000n);
    expect(claimPayout(15_000_000n, { ...build, contractsMicro: 30_000_000n, payoutAmountUsd: 90_000_000n })).toBe(15_000_000n);
    expect(claimPayout(15_000_000n, { ...build, contractsMicro: null, payoutAmountUsd: null })).toBe(15_000_000n);
  });
});
