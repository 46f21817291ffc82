/**
 * Prediction markets V1 trading schemas: the builders that answer an unsigned transaction (buy,
 * sell, close, claim) and `POST /execute` that lands it. Part of the `prediction` namespace (see
 * ./prediction.ts for the money and strictness conventions they share).
 */
import { z } from 'zod';
import { Bps, MicroUnits, MicroUsd, openEnum, Pubkey } from './common.js';

const nullableMicroUsd = MicroUsd.nullish();

const AmountLike = z.union([z.string().regex(/^\d+(\.\d+)?$/, 'expected a non-negative decimal string'), z.number().nonnegative().finite()]);
const MicroAmount = z.union([
  z.string().regex(/^\d+$/, 'expected an integer string'),
  z.bigint().nonnegative().transform(String),
  z.number().int().nonnegative(),
]);

/** Opens or increases a position: `POST /orders` with `isBuy: true`. Minimum 5 USD. */
export const BuyOrderParams = z.strictObject({
  ownerPubkey: Pubkey,
  marketId: z.string().min(1),
  isYes: z.boolean(),
  isBuy: z.literal(true),
  /** In units of `depositMint` (USDC by default). */
  depositAmount: z.union([
    z.string().regex(/^\d+$/, 'expected an integer amount string'),
    z.bigint().positive().transform(String),
    z.number().int().positive(),
  ]),
  depositMint: Pubkey.optional(),
});

/** Partial sell: `POST /orders` with `isBuy: false` and exactly one quantity field. */
export const SellOrderParams = z
  .strictObject({
    ownerPubkey: Pubkey,
    /** Required for sells. */
    positionPubkey: Pubkey,
    isYes: z.boolean(),
    isBuy: z.literal(false),
    contracts: AmountLike.optional(),
    contractsMicro: MicroAmount.optional(),
    contractsDecimal: AmountLike.optional(),
  })
  .superRefine((p, ctx) => {
    const given = [p.contracts, p.contractsMicro, p.contractsDecimal].filter((v) => v !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', path: ['contractsMicro'], message: 'give exactly one of contracts, contractsMicro or contractsDecimal' });
  });

/** Body of `POST /orders`: a buy or a partial sell. */
export const CreateOrderParams = z.union([BuyOrderParams, SellOrderParams]);
export type CreateOrderParams = z.input<typeof CreateOrderParams>;
export type SellOrderParams = z.input<typeof SellOrderParams>;

/** Where and how to submit a built transaction: pass `context` unchanged to `POST /execute`. */
export const Execution = z.looseObject({
  endpoint: z.string(),
  context: z.record(z.string(), z.unknown()),
});
export type Execution = z.output<typeof Execution>;

const TxMeta = z.looseObject({ blockhash: z.string(), lastValidBlockHeight: z.number().int() });

/** 200 of `POST /orders` and `DELETE /positions/{pubkey}`: an unsigned transaction and the order it makes. */
export const CreateOrderResponse = z.looseObject({
  /** Base64 unsigned transaction; null when nothing must be signed. */
  transaction: z.string().nullable(),
  txMeta: TxMeta.nullable(),
  externalOrderId: z.string().nullish(),
  requiredSigners: z.array(z.string()).nullish(),
  execution: Execution.nullish(),
  /** null (keeper-filled) or `atomic_swap` (Forecast). */
  executionModel: z.string().nullish(),
  settlement: z.string().nullish(),
  jupiterSwapRequestId: z.string().nullish(),
  order: z.looseObject({
    orderPubkey: z.string().nullable(),
    orderAtaPubkey: z.string().nullish(),
    userPubkey: z.string(),
    marketId: z.string(),
    marketIdHash: z.string().nullish(),
    positionPubkey: z.string(),
    isBuy: z.boolean(),
    isYes: z.boolean(),
    contracts: z.string().nullish(),
    contractsMicro: MicroUnits.nullish(),
    contractsDecimal: z.string().nullish(),
    newContracts: z.string().nullish(),
    newContractsMicro: MicroUnits.nullish(),
    newContractsDecimal: z.string().nullish(),
    maxBuyPriceUsd: nullableMicroUsd,
    minSellPriceUsd: nullableMicroUsd,
    externalOrderId: z.string().nullish(),
    orderCostUsd: nullableMicroUsd,
    newAvgPriceUsd: nullableMicroUsd,
    newSizeUsd: nullableMicroUsd,
    newPayoutUsd: nullableMicroUsd,
    estimatedProtocolFeeUsd: nullableMicroUsd,
    estimatedVenueFeeUsd: nullableMicroUsd,
    estimatedTotalFeeUsd: nullableMicroUsd,
    payoutUsd: nullableMicroUsd,
    slippageBps: z.number().nullish(),
    maxSlippageBps: z.number().nullish(),
  }),
});
export type CreateOrderResponseWire = z.input<typeof CreateOrderResponse>;
export type CreateOrderResponse = z.output<typeof CreateOrderResponse>;

/** Params of `DELETE /positions/{positionPubkey}` (sell the whole position). */
export const SellPositionParams = z.strictObject({ positionPubkey: Pubkey, ownerPubkey: Pubkey });
export type SellPositionParams = z.input<typeof SellPositionParams>;

/** Body of `DELETE /positions` (close every position: one transaction each). */
export const CloseAllPositionsParams = z.strictObject({ ownerPubkey: Pubkey, minSellPriceSlippageBps: Bps });
export type CloseAllPositionsParams = z.input<typeof CloseAllPositionsParams>;

/** Params of `POST /positions/{positionPubkey}/claim`. */
export const ClaimPositionParams = z.strictObject({ positionPubkey: Pubkey, ownerPubkey: Pubkey });
export type ClaimPositionParams = z.input<typeof ClaimPositionParams>;

/** 200 of the claim route: a transaction paying out a settled winning position. */
export const ClaimPositionResponse = z.looseObject({
  transaction: z.string(),
  txMeta: TxMeta,
  position: z.looseObject({
    positionPubkey: z.string(),
    marketPubkey: z.string().nullish(),
    userPubkey: z.string().nullish(),
    ownerPubkey: z.string(),
    isYes: z.boolean(),
    contracts: z.string().nullish(),
    contractsMicro: MicroUnits.nullish(),
    contractsDecimal: z.string().nullish(),
    payoutAmountUsd: nullableMicroUsd,
  }),
});
export type ClaimPositionResponseWire = z.input<typeof ClaimPositionResponse>;
export type ClaimPositionResponse = z.output<typeof ClaimPositionResponse>;

/**
 * 200 of `DELETE /positions`: one build per position, a sell (`order` present) or a claim
 * (`position` present). Tell them apart with {@link isClaimBuild}.
 */
export const CloseAllPositionsResponse = z.looseObject({ data: z.array(z.union([CreateOrderResponse, ClaimPositionResponse])) });
export type CloseAllPositionsResponse = z.output<typeof CloseAllPositionsResponse>;

/** Whether one entry of a close-all answer is a claim (rather than a sell). */
export function isClaimBuild(build: CreateOrderResponse | ClaimPositionResponse): build is ClaimPositionResponse {
  return 'position' in build && !('order' in build);
}

/** Body of `POST /execute`: the signed build, with the build's `execution.context` unchanged. */
export const PredictionExecuteParams = z.strictObject({
  signedTransaction: z.string().min(1),
  context: z.record(z.string(), z.unknown()).optional(),
  /** Echoed back. */
  requestId: z.string().min(1).optional(),
});
export type PredictionExecuteParams = z.input<typeof PredictionExecuteParams>;

/** 200 of `POST /execute`. `status: "Failed"` is an error (the client throws it typed). */
export const PredictionExecuteResponse = z.looseObject({
  status: openEnum(['Success', 'Failed']),
  signature: z.string().nullish(),
  error: z.string().nullish(),
  requestId: z.string().nullish(),
});
export type PredictionExecuteResponse = z.output<typeof PredictionExecuteResponse>;
