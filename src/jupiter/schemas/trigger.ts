/**
 * Trigger V2 wire schemas (`/trigger/v2`): challenge/JWT auth, vault, deposit craft, price orders
 * (single, OCO, OTOCO, trailing), DCA orders, history. Source: Jupiter's OpenAPI file for Trigger V2 and its answers seen live.
 *
 * Units: token amounts are base-unit decimal strings; USD prices (`*PriceUsd`, watermarks) are JSON
 * numbers as the API sends them — carry them, compare them, never do money arithmetic with them.
 * Price-order times are epoch milliseconds (numbers); DCA times are ISO-8601 strings.
 */
import { z } from 'zod';
import { BaseUnits, Bps, openEnum, PositiveBaseUnits, Pubkey } from './common.js';

// The login's challenge and verify (triggerAuth.ts) are part of this namespace.
export * from './triggerAuth.js';

// ---------------------------------------------------------------------------------------------------
// Errors

/**
 * The Trigger error envelope: `{ error, details? }`. Validation failures carry
 * `error: "Request validation failed"` and `details: { field: message }`; a 409 on vault register
 * carries the existing vault in `details`.
 */
export const TriggerErrorBody = z.looseObject({
  error: z.string(),
  details: z.record(z.string(), z.unknown()).nullish(),
});
export type TriggerErrorBody = z.output<typeof TriggerErrorBody>;

// ---------------------------------------------------------------------------------------------------
// Vault

/** 200 of `GET /vault`. */
export const Vault = z.looseObject({
  userPubkey: z.string(),
  vaultPubkey: z.string(),
  privyVaultId: z.string(),
  privyUserId: z.string().nullish(),
});
export type Vault = z.output<typeof Vault>;

/** 201 (spec) or 200 (observed) of `GET /vault/register`; on 409 the same shape sits in `details`. */
export const RegisterVaultResponse = Vault;
export type RegisterVaultResponse = Vault;

// ---------------------------------------------------------------------------------------------------
// Deposit

export const PriceOrderType = z.enum(['single', 'oco', 'otoco']);
export type PriceOrderType = z.output<typeof PriceOrderType>;

/** Body of `POST /deposit/craft`. `orderSubType` is required for `price`, forbidden for `dca`. */
export const DepositCraftParams = z
  .strictObject({
    inputMint: Pubkey,
    outputMint: Pubkey,
    /** Must equal the JWT's wallet. */
    userAddress: Pubkey,
    /** Smallest units; worth at least 10 USD. */
    amount: z.union([PositiveBaseUnits, z.bigint().positive().transform(String)]),
    orderType: z.enum(['price', 'dca']),
    orderSubType: PriceOrderType.optional(),
    /** DCA "Earn While You Wait" only: the Jupiter Lend token of the stablecoin input. */
    jlMint: Pubkey.optional(),
  })
  .superRefine((p, ctx) => {
    if (p.orderType === 'price' && p.orderSubType === undefined) {
      ctx.addIssue({ code: 'custom', path: ['orderSubType'], message: "orderSubType is required when orderType is 'price'" });
    }
    if (p.orderType === 'dca' && p.orderSubType !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['orderSubType'], message: "orderSubType must be omitted when orderType is 'dca'" });
    }
    if (p.inputMint === p.outputMint) ctx.addIssue({ code: 'custom', path: ['outputMint'], message: 'outputMint must differ from inputMint' });
  });
export type DepositCraftParams = z.input<typeof DepositCraftParams>;

/** 200 of `POST /deposit/craft`. `requestId` is single-use: it becomes `depositRequestId`. */
export const DepositCraftResponse = z.looseObject({
  transaction: z.string().min(1),
  requestId: z.string().min(1),
  /** The vault. */
  receiverAddress: z.string(),
  mint: z.string(),
  amount: BaseUnits,
  tokenDecimals: z.number().int(),
  inputTokenAccount: z.string().nullish(),
  outputTokenAccount: z.string().nullish(),
  jlTokenAccount: z.string().nullish(),
});
export type DepositCraftResponse = z.output<typeof DepositCraftResponse>;

// ---------------------------------------------------------------------------------------------------
// Price orders

const UsdPrice = z.number().positive().finite();
const TrailingBps = z.number().int().min(50).max(9000);

/**
 * Body of `POST /orders/price`. Rules checked before sending (the API answers 400 otherwise):
 * - `single`: `triggerCondition` and exactly one of `triggerPriceUsd` / `trailingBps`; a trailing
 *   `below` watches the input mint, a trailing `above` watches the output mint; no TP/SL fields.
 * - `oco`: `tpPriceUsd` > `slPriceUsd`; no `triggerPriceUsd`/`trailingBps`.
 * - `otoco`: `triggerCondition` + `triggerPriceUsd` for the parent, then `tpPriceUsd` > `slPriceUsd`.
 * - `expiresAt` (epoch ms) is required; the client also checks it is in the future on its clock.
 */
export const CreatePriceOrderParams = z
  .strictObject({
    orderType: PriceOrderType,
    depositRequestId: z.string().min(1),
    /** Base64 signed deposit transaction. */
    depositSignedTx: z.string().min(1),
    userPubkey: Pubkey,
    inputMint: Pubkey,
    inputAmount: z.union([PositiveBaseUnits, z.bigint().positive().transform(String)]),
    outputMint: Pubkey,
    /** The mint whose USD price is watched. */
    triggerMint: Pubkey,
    triggerCondition: z.enum(['above', 'below']).optional(),
    triggerPriceUsd: UsdPrice.optional(),
    trailingBps: TrailingBps.optional(),
    slippageBps: Bps.optional(),
    tpPriceUsd: UsdPrice.optional(),
    slPriceUsd: UsdPrice.optional(),
    tpSlippageBps: Bps.optional(),
    slSlippageBps: Bps.optional(),
    /** Epoch milliseconds; no "never expires". */
    expiresAt: z.number().int().positive(),
  })
  .superRefine((p, ctx) => {
    const issue = (path: string, message: string): void => ctx.addIssue({ code: 'custom', path: [path], message });
    if (p.inputMint === p.outputMint) issue('outputMint', 'outputMint must differ from inputMint');
    if (p.orderType === 'single') {
      if (p.triggerCondition === undefined) issue('triggerCondition', 'triggerCondition is required for a single order');
      if ((p.triggerPriceUsd === undefined) === (p.trailingBps === undefined)) {
        issue('triggerPriceUsd', 'exactly one of triggerPriceUsd or trailingBps must be set');
      }
      if (p.trailingBps !== undefined && p.triggerCondition === 'below' && p.triggerMint !== p.inputMint) {
        issue('triggerMint', 'a trailing order below must watch the input mint');
      }
      if (p.trailingBps !== undefined && p.triggerCondition === 'above' && p.triggerMint !== p.outputMint) {
        issue('triggerMint', 'a trailing order above must watch the output mint');
      }
      for (const f of ['tpPriceUsd', 'slPriceUsd', 'tpSlippageBps', 'slSlippageBps'] as const) {
        if (p[f] !== undefined) issue(f, `${f} is only for oco and otoco orders`);
      }
    } else {
      if (p.trailingBps !== undefined) issue('trailingBps', 'trailingBps is only for single orders');
      if (p.tpPriceUsd === undefined) issue('tpPriceUsd', `tpPriceUsd is required for an ${p.orderType} order`);
      if (p.slPriceUsd === undefined) issue('slPriceUsd', `slPriceUsd is required for an ${p.orderType} order`);
      if (p.tpPriceUsd !== undefined && p.slPriceUsd !== undefined && !(p.tpPriceUsd > p.slPriceUsd)) {
        issue('tpPriceUsd', 'tpPriceUsd must be greater than slPriceUsd');
      }
      if (p.orderType === 'oco') {
        if (p.triggerPriceUsd !== undefined) issue('triggerPriceUsd', 'triggerPriceUsd is not used by an oco order');
      } else {
        if (p.triggerCondition === undefined) issue('triggerCondition', 'triggerCondition is required for an otoco order');
        if (p.triggerPriceUsd === undefined) issue('triggerPriceUsd', 'triggerPriceUsd is required for an otoco order');
      }
    }
  });
export type CreatePriceOrderParams = z.input<typeof CreatePriceOrderParams>;

/** 200 of `POST /orders/price`: the order id (UUID) and the deposit signature. */
export const CreatePriceOrderResponse = z.looseObject({
  id: z.string(),
  txSignature: z.string(),
  depositConfirmed: z.boolean(),
  /** Present on idempotent retries. */
  message: z.string().nullish(),
});
export type CreatePriceOrderResponse = z.output<typeof CreatePriceOrderResponse>;

/**
 * Body of `PATCH /orders/price/{orderId}` (the id travels in the path, see the client). Only open
 * orders; `trailingBps` only for orders that already trail. The schema has no `expiresAt`.
 */
export const UpdatePriceOrderBody = z
  .strictObject({
    orderType: PriceOrderType,
    triggerPriceUsd: UsdPrice.optional(),
    trailingBps: TrailingBps.optional(),
    slippageBps: Bps.optional(),
    tpPriceUsd: UsdPrice.optional(),
    slPriceUsd: UsdPrice.optional(),
    tpSlippageBps: Bps.optional(),
    slSlippageBps: Bps.optional(),
  })
  .superRefine((p, ctx) => {
    if (p.triggerPriceUsd !== undefined && p.trailingBps !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['trailingBps'], message: 'set triggerPriceUsd or trailingBps, not both' });
    }
    if (p.tpPriceUsd !== undefined && p.slPriceUsd !== undefined && !(p.tpPriceUsd > p.slPriceUsd)) {
      ctx.addIssue({ code: 'custom', path: ['tpPriceUsd'], message: 'tpPriceUsd must be greater than slPriceUsd' });
    }
    const changes = Object.keys(p).filter((k) => k !== 'orderType');
    if (changes.length === 0) ctx.addIssue({ code: 'custom', path: [], message: 'nothing to update: give at least one field besides orderType' });
  });
export type UpdatePriceOrderBody = z.input<typeof UpdatePriceOrderBody>;

/** 200 of `PATCH /orders/price/{orderId}`. */
export const UpdatePriceOrderResponse = z.looseObject({ id: z.string() });
export type UpdatePriceOrderResponse = z.output<typeof UpdatePriceOrderResponse>;

/** 200 of `POST /orders/price/cancel/{orderId}` (and, with the DCA extras, of the DCA cancel). */
export const CancelOrderResponse = z.looseObject({
  id: z.string(),
  /** Base64 unsigned withdrawal transaction. */
  transaction: z.string().min(1),
  /** Becomes `cancelRequestId` of confirm-cancel. */
  requestId: z.string().min(1),
});
export type CancelOrderResponse = z.output<typeof CancelOrderResponse>;

/** Body of both confirm-cancel routes. */
export const ConfirmCancelBody = z.strictObject({
  signedTransaction: z.string().min(1),
  cancelRequestId: z.string().min(1),
});
export type ConfirmCancelBody = z.input<typeof ConfirmCancelBody>;

/** `{ id, txSignature }`: 200 of confirm-cancel (both kinds) and of `POST /orders/dca`. */
export const TxSignatureResponse = z.looseObject({ id: z.string(), txSignature: z.string() });
export type TxSignatureResponse = z.output<typeof TxSignatureResponse>;

// ---------------------------------------------------------------------------------------------------
// History

export const HistoryPaging = z.looseObject({
  total: z.number().int().nullish(),
  limit: z.number().int().nullish(),
  offset: z.number().int().nullish(),
});
export type HistoryPaging = z.output<typeof HistoryPaging>;

/** Query of `GET /orders/history` (offset pagination; the wallet comes from the JWT). */
export const OrderHistoryQuery = z.strictObject({
  state: z.enum(['active', 'past']).optional(),
  /** Input or output mint. */
  mint: Pubkey.optional(),
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().min(0).optional(),
  sort: z.enum(['updated_at', 'created_at', 'expires_at']).optional(),
  dir: z.enum(['asc', 'desc']).optional(),
});
export type OrderHistoryQuery = z.input<typeof OrderHistoryQuery>;

export const PRICE_ORDER_STATES = ['pending', 'open', 'executing', 'filled', 'pending_withdraw', 'cancelled', 'expired', 'failed'] as const;
export type PriceOrderState = (typeof PRICE_ORDER_STATES)[number];

export const OrderHistoryEvent = z.looseObject({
  type: openEnum(['deposit', 'fill', 'withdrawal', 'cancelled', 'expired']),
  /** Epoch ms. */
  timestamp: z.number().nullish(),
  txSignature: z.string().nullish(),
  state: openEnum(['success', 'failed', 'pending']).nullish(),
  mint: z.string().nullish(),
  amount: z.string().nullish(),
  outputMint: z.string().nullish(),
  outputAmount: z.string().nullish(),
  orderContext: openEnum(['take_profit', 'stop_loss', 'buy_above', 'buy_below']).nullish(),
});
export type OrderHistoryEvent = z.output<typeof OrderHistoryEvent>;

/** One price order in history. Times are epoch ms. `triggerPriceUsd` is the current trailing trigger. */
export const OrderHistoryItem = z.looseObject({
  id: z.string(),
  orderType: openEnum(['single', 'oco', 'otoco']),
  orderState: openEnum(PRICE_ORDER_STATES),
  rawState: z.string().nullish(),
  userPubkey: z.string(),
  /** The vault. */
  privyWalletPubkey: z.string().nullish(),
  inputMint: z.string(),
  initialInputAmount: BaseUnits.nullish(),
  remainingInputAmount: BaseUnits.nullish(),
  outputMint: z.string(),
  triggerMint: z.string().nullish(),
  triggerCondition: openEnum(['above', 'below']).nullish(),
  triggerPriceUsd: z.number().nullish(),
  slippageBps: z.number().nullish(),
  expiresAt: z.number().nullish(),
  createdAt: z.number().nullish(),
  updatedAt: z.number().nullish(),
  triggeredAt: z.number().nullish(),
  outputAmount: z.string().nullish(),
  inputUsed: z.string().nullish(),
  /** 1.0 = fully filled. */
  fillPercent: z.number().nullish(),
  trailingBps: z.number().nullish(),
  highWatermark: z.number().nullish(),
  lowWatermark: z.number().nullish(),
  events: z.array(OrderHistoryEvent).nullish(),
});
export type OrderHistoryItem = z.output<typeof OrderHistoryItem>;

/** 200 of `GET /orders/history`. */
export const OrderHistoryResponse = z.looseObject({ orders: z.array(OrderHistoryItem), pagination: HistoryPaging });
export type OrderHistoryResponse = z.output<typeof OrderHistoryResponse>;

// ---------------------------------------------------------------------------------------------------
// DCA

/**
 * Body of `POST /orders/dca`. `time_based` (default) or `price_conditional` (then `triggerMint` and at
 * least one of `minPriceUsd`/`maxPriceUsd`). No slippage parameter exists.
 */
export const CreateDcaOrderParams = z
  .strictObject({
    depositRequestId: z.string().min(1),
    depositSignedTx: z.string().min(1),
    userPubkey: Pubkey,
    inputMint: Pubkey,
    outputMint: Pubkey,
    /** Total over all rounds, smallest units. */
    inputAmount: z.union([PositiveBaseUnits, z.bigint().positive().transform(String)]),
    orderCount: z.number().int().min(2),
    intervalSeconds: z.number().int().min(60).max(31_536_000),
    orderType: z.enum(['time_based', 'price_conditional']).optional(),
    minPriceUsd: UsdPrice.optional(),
    maxPriceUsd: UsdPrice.optional(),
    triggerMint: Pubkey.optional(),
    /** ISO-8601, in the future, at most 30 days ahead; default now. */
    beginFillAt: z.iso.datetime({ offset: true }).optional(),
    jlEnabled: z.boolean().optional(),
    jlMint: Pubkey.optional(),
  })
  .superRefine((p, ctx) => {
    const issue = (path: string, message: string): void => ctx.addIssue({ code: 'custom', path: [path], message });
    if (p.inputMint === p.outputMint) issue('outputMint', 'outputMint must differ from inputMint');
    if (p.orderType === 'price_conditional') {
      if (p.triggerMint === undefined) issue('triggerMint', 'triggerMint is required for a price_conditional order');
      if (p.minPriceUsd === undefined && p.maxPriceUsd === undefined) issue('minPriceUsd', 'set minPriceUsd or maxPriceUsd for a price_conditional order');
      if (p.jlEnabled === true) issue('jlEnabled', 'jlEnabled is only for time_based orders');
    } else {
      if (p.minPriceUsd !== undefined) issue('minPriceUsd', 'time-based orders cannot set minPriceUsd');
      if (p.maxPriceUsd !== undefined) issue('maxPriceUsd', 'time-based orders cannot set maxPriceUsd');
    }
    if (p.minPriceUsd !== undefined && p.maxPriceUsd !== undefined && !(p.minPriceUsd < p.maxPriceUsd)) {
      issue('maxPriceUsd', 'maxPriceUsd must be greater than minPriceUsd');
    }
  });
export type CreateDcaOrderParams = z.input<typeof CreateDcaOrderParams>;

/** 200 of `POST /orders/dca/cancel/{id}`. */
export const CancelDcaOrderResponse = CancelOrderResponse.extend({
  roundsRemaining: z.number().int(),
  refundAmount: BaseUnits,
});
export type CancelDcaOrderResponse = z.output<typeof CancelDcaOrderResponse>;

/** Query of `GET /orders/history/dca`. */
export const DcaHistoryQuery = z.strictObject({
  state: z.enum(['active', 'past']).optional(),
  mint: Pubkey.optional(),
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().min(0).optional(),
  sort: z.enum(['updated_at', 'created_at', 'next_fill_at']).optional(),
  dir: z.enum(['asc', 'desc']).optional(),
});
export type DcaHistoryQuery = z.input<typeof DcaHistoryQuery>;

export const DcaHistoryEvent = z.looseObject({
  type: openEnum(['deposit', 'fill', 'withdrawal', 'cancelled']),
  /** ISO-8601. */
  timestamp: z.string().nullish(),
  txSignature: z.string().nullish(),
  roundNumber: z.number().nullish(),
  inputAmount: z.string().nullish(),
  outputAmount: z.string().nullish(),
  state: openEnum(['success', 'failed', 'rescheduled', 'pending']).nullish(),
  attemptCount: z.number().nullish(),
});
export type DcaHistoryEvent = z.output<typeof DcaHistoryEvent>;

/** One DCA order. Times are ISO strings. `inputAmountRemaining` is NOT zeroed by a cancel: use `state`. */
export const DcaHistoryItem = z.looseObject({
  id: z.string(),
  requestId: z.string().nullish(),
  userPubkey: z.string(),
  vaultPubkey: z.string(),
  inputMint: z.string(),
  outputMint: z.string(),
  inputAmountInitial: BaseUnits.nullish(),
  inputAmountRemaining: BaseUnits.nullish(),
  amountPerRound: BaseUnits.nullish(),
  outputAmountTotal: BaseUnits.nullish(),
  inputAmountUsed: BaseUnits.nullish(),
  orderType: openEnum(['time_based', 'price_conditional']),
  minPriceUsd: z.number().nullish(),
  maxPriceUsd: z.number().nullish(),
  triggerMint: z.string().nullish(),
  retryWindowSeconds: z.number().nullish(),
  jlEnabled: z.boolean().nullish(),
  jlYieldUsd: z.number().nullish(),
  numberOfRounds: z.number().nullish(),
  intervalSeconds: z.number().nullish(),
  beginFillAt: z.string().nullish(),
  nextFillAt: z.string().nullish(),
  lastFillAt: z.string().nullish(),
  roundsFilled: z.number().nullish(),
  /** 0–1. */
  fillPercent: z.number().nullish(),
  state: openEnum(['depositing', 'deposit_failed', 'active', 'executing', 'withdrawing', 'completed', 'cancelled']),
  displayState: openEnum(['pending', 'active', 'executing', 'pending_withdraw', 'completed', 'cancelled', 'failed']),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
  events: z.array(DcaHistoryEvent).nullish(),
});
export type DcaHistoryItem = z.output<typeof DcaHistoryItem>;

/** 200 of `GET /orders/history/dca`. */
export const DcaHistoryResponse = z.looseObject({ orders: z.array(DcaHistoryItem), pagination: HistoryPaging });
export type DcaHistoryResponse = z.output<typeof DcaHistoryResponse>;
