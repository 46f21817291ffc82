/**
 * The positions a rehearsal's strategies see: the real ones less what the rehearsal's own fills took,
 * read from the database (so a restart sees the same), and nothing else changed in the feed's state.
 */
import { describe, expect, it } from 'vitest';
import type { FeedState } from '../../../src/engine/feeds/poller.js';
import type { Position } from '../../../src/jupiter/schemas/prediction.js';
import { contractsTaken, overlayPositions, rehearsalPositions } from '../../../src/rehearsal/positionsOverlay.js';
import { insertFill } from '../../../src/store/fills.js';
import { freshStore } from '../store/helpers.js';

const OURS = '3juctoegMrzSQe4R4rWbb2fkXmqVcRsCv9VAhsyC9kRM';
const OTHER = '7Gph6XP5N7HKkYmMfhP8E4uudHhvVxXhMbvqNADwugk9';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

function position(pubkey: string, contractsMicro: bigint | null): Position {
  return {
    pubkey,
    ownerPubkey: 'HHnREQhKNtnkponRYh1dbCSX8mi6Lndm3reiXJTMvLgz',
    marketId: 'BTC-1006-M1',
    isYes: false,
    contracts: contractsMicro === null ? null : (contractsMicro / 1_000_000n).toString(),
    contractsMicro,
    contractsDecimal: null,
    totalCostUsd: 12_000_000n,
    sizeUsd: 12_000_000n,
    valueUsd: 18_000_000n,
    payoutUsd: 30_000_000n,
    pnlUsd: 6_000_000n,
    pnlUsdAfterFees: -3_000_000n,
    sellPriceUsd: 600_000n,
    markPriceUsd: 610_000n,
    claimable: false,
    claimed: false,
  };
}

function fill(
  db: ReturnType<typeof freshStore>['db'],
  signature: string,
  positionPubkey: string | null,
  contracts: bigint,
  source: 'prediction' | 'swap' = 'prediction',
): void {
  insertFill(
    db,
    {
      signature,
      idx: 0,
      source,
      positionPubkey,
      inMint: 'prediction:BTC-1006-M1:no',
      inAmount: contracts,
      inDecimals: 6,
      outMint: USDC,
      outAmount: 1n,
      outDecimals: 6,
      at: 0,
    },
    0,
  );
}

describe('the rehearsal positions overlay', () => {
  it('takes from each position what the rehearsal took, scales its amounts, and drops one the rehearsal emptied', () => {
    const taken = new Map([
      [OURS, 10_000_000n],
      [OTHER, 30_000_000n],
    ]);
    const [ours, ...rest] = overlayPositions([position(OURS, 30_000_000n), position(OTHER, 30_000_000n)], taken);
    expect(rest).toEqual([]);
    expect(ours).toMatchObject({
      pubkey: OURS,
      contracts: '20',
      contractsMicro: 20_000_000n,
      contractsDecimal: '20',
      totalCostUsd: 8_000_000n,
      sizeUsd: 8_000_000n,
      valueUsd: 12_000_000n,
      payoutUsd: 20_000_000n,
      pnlUsd: 4_000_000n,
      pnlUsdAfterFees: -2_000_000n,
      // Prices are per contract: unchanged.
      sellPriceUsd: 600_000n,
      markPriceUsd: 610_000n,
    });
  });

  it('leaves a position the rehearsal did not touch, or whose count the API did not give, as the API gave it', () => {
    const untouched = position(OURS, 30_000_000n);
    const uncounted = position(OTHER, null);
    const out = overlayPositions([untouched, uncounted], new Map([[OTHER, 5_000_000n]]));
    expect(out[0]).toBe(untouched);
    expect(out[1]).toBe(uncounted);
  });

  it("counts only the rehearsal's prediction fills with a position, summed per position", () => {
    const { db } = freshStore();
    fill(db, 'rehearsal-a', OURS, 10_000_000n);
    fill(db, 'rehearsal-b', OURS, 5_000_000n);
    fill(db, 'rehearsal-c', null, 7_000_000n);
    fill(db, 'rehearsal-d', OTHER, 9_000_000n, 'swap');
    // A signature from the chain is no rehearsed fill.
    fill(db, '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW', OTHER, 3_000_000n);
    expect(contractsTaken(db)).toEqual(new Map([[OURS, 15_000_000n]]));
  });

  it("changes the feed's value only: its age, freshness and errors stay the feed's", () => {
    const { db } = freshStore();
    fill(db, 'rehearsal-a', OURS, 10_000_000n);
    const feed: FeedState<readonly Position[]> = {
      name: 'positions',
      value: [position(OURS, 30_000_000n)],
      at: 1_000,
      readNo: 1,
      ageMs: 5,
      lastError: null,
      consecutiveFailures: 0,
      fresh: true,
      intervalMs: 30_000,
      polling: false,
      paused: null,
    };
    const seen = rehearsalPositions(db, feed);
    expect({ ...seen, value: undefined }).toEqual({ ...feed, value: undefined });
    expect(seen?.value?.map((p) => p.contractsMicro)).toEqual([20_000_000n]);
    expect(rehearsalPositions(db, undefined)).toBeUndefined();
  });
});
