/** Raw states a price order moves through, grouped into the display `orderState`. */
export type RawState =
  'depositing' | 'open' | 'executing' | 'partial_fill_success' | 'fill_success' | 'ready_to_cancel' | 'cancelled' | 'oco_cancelled' | 'expired' | 'fill_failed';

export type OrderState = 'pending' | 'open' | 'executing' | 'filled' | 'pending_withdraw' | 'cancelled' | 'expired' | 'failed';

export function orderStateOf(raw: RawState): OrderState {
  switch (raw) {
    case 'depositing':
      return 'pending';
    case 'open':
      return 'open';
    case 'executing':
    case 'partial_fill_success':
      return 'executing';
    case 'fill_success':
      return 'filled';
    case 'ready_to_cancel':
      return 'pending_withdraw';
    case 'cancelled':
    case 'oco_cancelled':
      return 'cancelled';
    case 'expired':
      return 'expired';
    case 'fill_failed':
      return 'failed';
  }
}

export const ACTIVE_STATES: readonly OrderState[] = ['pending', 'open', 'executing', 'pending_withdraw'];

export type OrderContext = 'take_profit' | 'stop_loss' | 'buy_above' | 'buy_below';

export interface OrderEvent {
  type: 'deposit' | 'fill' | 'withdrawal' | 'cancelled' | 'expired';
  timestamp: number;
  txSignature: string;
  state: 'success' | 'failed' | 'pending';
  mint?: string;
  amount?: string;
  outputMint?: string;
  outputAmount?: string;
  orderContext?: OrderContext;
}

/** Input held in the vault for an order; OCO legs share one, so a fill on one leg empties both. */
export interface Funds {
  remaining: bigint;
}

export interface ChildSpec {
  tpPriceUsd: number;
  slPriceUsd: number;
  tpSlippageBps: number;
  slSlippageBps: number;
}

/**
 * One watched trigger. A single order is one record; an OCO is two legs (take-profit above, stop-loss
 * below) sharing funds and a group id, and the API's order id is the take-profit leg's; an OTOCO
 * is a parent leg whose fill creates an OCO pair over its output.
 */
export interface PriceOrder {
  readonly id: string;
  readonly groupId: string;
  readonly orderType: 'single' | 'oco' | 'otoco';
  readonly parentId: string | null;
  readonly wallet: string;
  readonly vault: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly triggerMint: string;
  triggerCondition: 'above' | 'below';
  triggerPriceUsd: number;
  slippageBps: number;
  trailingBps: number | null;
  highWatermark: number | null;
  lowWatermark: number | null;
  readonly initialInputAmount: bigint;
  readonly funds: Funds;
  readonly expiresAt: number;
  readonly createdAt: number;
  updatedAt: number;
  triggeredAt: number | null;
  outputAmount: bigint;
  inputUsed: bigint;
  rawState: RawState;
  readonly context: OrderContext;
  readonly events: OrderEvent[];
  /** OTOCO parents: the OCO pair to create over the output once filled. */
  children: ChildSpec | null;
  /** Hash of the create request: an identical retry is answered idempotently. */
  readonly requestKey: string;
  readonly depositSignature: string;
}

export function contextOf(order: { inputMint: string; triggerMint: string; triggerCondition: 'above' | 'below' }): OrderContext {
  if (order.triggerMint === order.inputMint) return order.triggerCondition === 'above' ? 'take_profit' : 'stop_loss';
  return order.triggerCondition === 'above' ? 'buy_above' : 'buy_below';
}

/** The `OrderHistoryItem` wire shape (trigger-v2.yaml). */
export function historyItem(order: PriceOrder): Record<string, unknown> {
  const filled = order.initialInputAmount === 0n ? 0 : Number((order.inputUsed * 1_000_000n) / order.initialInputAmount) / 1_000_000;
  return {
    id: order.id,
    orderType: order.orderType,
    orderState: orderStateOf(order.rawState),
    rawState: order.rawState,
    userPubkey: order.wallet,
    privyWalletPubkey: order.vault,
    inputMint: order.inputMint,
    initialInputAmount: order.initialInputAmount.toString(),
    remainingInputAmount: order.funds.remaining.toString(),
    outputMint: order.outputMint,
    triggerMint: order.triggerMint,
    triggerCondition: order.triggerCondition,
    triggerPriceUsd: order.triggerPriceUsd,
    slippageBps: order.slippageBps,
    expiresAt: order.expiresAt,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    triggeredAt: order.triggeredAt,
    outputAmount: order.inputUsed === 0n ? null : order.outputAmount.toString(),
    inputUsed: order.inputUsed === 0n ? null : order.inputUsed.toString(),
    fillPercent: order.inputUsed === 0n ? null : filled,
    trailingBps: order.trailingBps,
    highWatermark: order.highWatermark,
    lowWatermark: order.lowWatermark,
    events: order.events.map((e) => ({ ...e })),
  };
}
