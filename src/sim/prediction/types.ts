/**
 * The simulator's prediction book as records: positions, orders and their history. Plain data shared
 * by the trading logic that changes them and the wire functions that render them, so neither imports
 * the other for its types.
 */
export interface Position {
  readonly pubkey: string;
  readonly wallet: string;
  readonly marketId: string;
  readonly isYes: boolean;
  contractsMicro: bigint;
  /** Contracts held back by pending sell orders. */
  reservedMicro: bigint;
  totalCostMicro: bigint;
  feesPaidMicro: bigint;
  realizedPnlMicro: bigint;
  claimed: boolean;
  claimedMicro: bigint;
  readonly openedAt: number;
  updatedAt: number;
}

export interface POrder {
  readonly pubkey: string;
  readonly wallet: string;
  readonly marketId: string;
  readonly positionPubkey: string;
  readonly isYes: boolean;
  readonly isBuy: boolean;
  readonly contractsMicro: bigint;
  readonly limitPrice: number;
  readonly depositMicro: bigint;
  readonly depositMint: string;
  status: 'pending' | 'filled' | 'failed';
  readonly createdAt: number;
  updatedAt: number;
  filledAt: number;
  filledMicro: bigint;
  avgFillPrice: number;
  feeMicro: bigint;
  proceedsMicro: bigint;
  readonly externalOrderId: string;
  readonly orderId: string;
  signature: string;
}

export interface HistoryRow {
  readonly id: number;
  readonly eventType: 'order_created' | 'order_filled' | 'order_failed' | 'order_closed' | 'payout_claimed' | 'position_updated' | 'position_lost';
  readonly signature: string;
  readonly timestamp: number;
  readonly order: POrder | null;
  readonly position: Position;
  readonly payoutMicro: bigint;
}
