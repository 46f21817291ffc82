/**
 * Swap wire schemas: `GET /swap/v2/order` and `POST /swap/v2/execute` (the legacy `/ultra/v1/order` and
 * `/ultra/v1/execute` share the format). Source: Jupiter's OpenAPI files for Swap V2 and Ultra.
 */
import { z } from 'zod';
import { BaseUnits, Bps, openEnum, PositiveBaseUnits, Pubkey } from './common.js';

/** Routers that compete for an order. `iris` is the older name of `metis`, still seen in answers. */
export const ROUTERS = ['metis', 'jupiterz', 'dflow', 'okx'] as const;
export type Router = (typeof ROUTERS)[number];
export const RouterName = z.enum(ROUTERS);

/** Jupiter's gas wallet: `signatureFeePayer` equals it when Jupiter sponsors the transaction fees. */
export const JUPITER_GAS_WALLET = 'gasTzr94Pmp4Gf8vknQnqxeYxdgwFjbgdJa4msYRpnB';

/** Accepts a positive base-unit amount as a decimal string or a bigint; always sent as a string. */
const AmountParam = z.union([PositiveBaseUnits, z.bigint().positive().transform(String)]);

/**
 * Query of `GET /swap/v2/order`, every documented parameter under its real name. List parameters
 * (`excludeRouters`, `excludeDexes`) are arrays here and joined with commas on the wire.
 * Validated before sending: pairings (`referralAccount` ⇔ `referralFee`), ranges, `receiver ≠ taker`,
 * `broadcastFeeType` only with a fee or tip (the API silently ignores it otherwise).
 */
export const OrderParams = z
  .strictObject({
    inputMint: Pubkey,
    outputMint: Pubkey,
    /** Input amount in the input token's smallest unit (ExactIn only). */
    amount: AmountParam,
    /** Signer wallet. Without it the answer is a quote with `transaction: null`. */
    taker: Pubkey.optional(),
    /** Wallet (not token account) that receives the output; must differ from `taker`. */
    receiver: Pubkey.optional(),
    swapMode: z.literal('ExactIn').optional(),
    /** Fixed slippage; omitted ⇒ Jupiter's automatic slippage (RTSE). */
    slippageBps: Bps.optional(),
    referralAccount: Pubkey.optional(),
    /** Integrator fee in bps, 50–255; requires `referralAccount`. */
    referralFee: z.number().int().min(50).max(255).optional(),
    /** Wallet paying fees and rent for the taker; restricts routing to Metis when ≠ taker. */
    payer: Pubkey.optional(),
    priorityFeeLamports: z.number().int().positive().optional(),
    jitoTipLamports: z.number().int().positive().optional(),
    /** `maxCap`: the fee is a ceiling; `exactFee`: pay exactly. Needs a priority fee or a tip. */
    broadcastFeeType: z.enum(['maxCap', 'exactFee']).optional(),
    excludeRouters: z.array(RouterName).min(1).optional(),
    /** DEX labels as Jupiter spells them (`Raydium`, `Orca V2`, `Meteora DLMM`); Metis only. */
    excludeDexes: z
      .array(
        z
          .string()
          .min(1)
          .refine((s) => !s.includes(','), 'a DEX label cannot contain a comma'),
      )
      .min(1)
      .optional(),
  })
  .superRefine((p, ctx) => {
    if ((p.referralAccount === undefined) !== (p.referralFee === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [p.referralAccount === undefined ? 'referralAccount' : 'referralFee'],
        message: 'referralAccount and referralFee must be set together',
      });
    }
    if (p.receiver !== undefined && p.receiver === p.taker) {
      ctx.addIssue({ code: 'custom', path: ['receiver'], message: 'receiver must differ from taker' });
    }
    if (p.inputMint === p.outputMint) {
      ctx.addIssue({ code: 'custom', path: ['outputMint'], message: 'outputMint must differ from inputMint' });
    }
    if (p.broadcastFeeType !== undefined && p.priorityFeeLamports === undefined && p.jitoTipLamports === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['broadcastFeeType'],
        message: 'broadcastFeeType needs priorityFeeLamports or jitoTipLamports (the API ignores it otherwise)',
      });
    }
  });
/** What a caller passes to `order()`. */
export type OrderParams = z.input<typeof OrderParams>;

export const SwapInfo = z.looseObject({
  ammKey: z.string(),
  label: z.string().nullish(),
  inputMint: z.string(),
  outputMint: z.string(),
  inAmount: BaseUnits,
  outAmount: BaseUnits,
});

export const RoutePlanStep = z.looseObject({
  swapInfo: SwapInfo,
  percent: z.number().nullish(),
  bps: z.number().nullish(),
  usdValue: z.number().nullish(),
});
export type RoutePlanStep = z.output<typeof RoutePlanStep>;

export const PlatformFee = z.looseObject({
  amount: z.string().nullish(),
  feeBps: z.number().nullish(),
  feeMint: z.string().nullish(),
});

/**
 * 200 body of `GET /swap/v2/order`. `transaction` is `null` without a taker and `""` when a price exists
 * but no transaction could be built — then `errorCode` (matched with `router`) says why.
 */
export const OrderResponse = z.looseObject({
  /** `ultra` without optional parameters, `manual` otherwise. */
  mode: openEnum(['ultra', 'manual']).nullish(),
  inputMint: z.string(),
  outputMint: z.string(),
  inAmount: BaseUnits,
  outAmount: BaseUnits,
  inUsdValue: z.number().nullish(),
  outUsdValue: z.number().nullish(),
  /** Percentage points: -0.1 means -0.1 %. */
  priceImpact: z.number().nullish(),
  swapUsdValue: z.number().nullish(),
  /** Minimum output after slippage. */
  otherAmountThreshold: BaseUnits.nullish(),
  swapMode: z.string().nullish(),
  slippageBps: z.number().nullish(),
  /** Deprecated decimal ratio. */
  priceImpactPct: z.string().nullish(),
  routePlan: z.array(RoutePlanStep).nullish(),
  referralAccount: z.string().nullish(),
  feeMint: z.string().nullish(),
  feeBps: z.number().nullish(),
  platformFee: PlatformFee.nullish(),
  signatureFeeLamports: z.number().nullish(),
  signatureFeePayer: z.string().nullish(),
  prioritizationFeeLamports: z.number().nullish(),
  prioritizationFeePayer: z.string().nullish(),
  rentFeeLamports: z.number().nullish(),
  rentFeePayer: z.string().nullish(),
  /** Deprecated; use `router`. */
  swapType: z.string().nullish(),
  /** `metis`, `jupiterz`, `dflow`, `okx` (older answers: `iris` = metis). */
  router: openEnum(['metis', 'jupiterz', 'dflow', 'okx', 'iris']).nullish(),
  /** Base64 unsigned v0 transaction; `null` without taker; `""` when it could not be built. */
  transaction: z.string().nullable().optional(),
  /** Hard expiry of aggregator routes (a decimal string). */
  lastValidBlockHeight: z.string().nullish(),
  gasless: z.boolean().nullish(),
  /** Pass to `/execute`. */
  requestId: z.string(),
  totalTime: z.number().nullish(),
  taker: z.string().nullish(),
  quoteId: z.string().nullish(),
  maker: z.string().nullish(),
  /** RFQ quote expiry. */
  expireAt: z.string().nullish(),
  errorCode: z.number().nullish(),
  /** Display only: parameterised text, never matched on. */
  errorMessage: z.string().nullish(),
  error: z.string().nullish(),
});
export type OrderResponse = z.output<typeof OrderResponse>;

/** 400 body of `/order` (V2; Ultra omits `requestId`), and 500 body `{ error }`. */
export const OrderErrorBody = z.looseObject({ requestId: z.string().nullish(), error: z.string().nullish() });
export type OrderErrorBody = z.output<typeof OrderErrorBody>;

/** Body of `POST /swap/v2/execute`. Send the signed bytes exactly as signed. */
export const ExecuteParams = z.strictObject({
  /** Base64 signed transaction from `/order`, unmodified apart from the taker's signature. */
  signedTransaction: z.string().min(1),
  requestId: z.string().min(1),
  /** Optional, "for nonce validation" (V2 only). */
  lastValidBlockHeight: z.string().regex(/^\d+$/).optional(),
});
export type ExecuteParams = z.input<typeof ExecuteParams>;

export const SwapEvent = z.looseObject({
  inputMint: z.string(),
  inputAmount: BaseUnits,
  outputMint: z.string(),
  outputAmount: BaseUnits,
});
export type SwapEvent = z.output<typeof SwapEvent>;

/**
 * 200 body of `/execute`. A failed swap still answers 200 with `status: "Failed"` and a `code`
 * (negative: Jupiter/landing; positive: on-chain program error after landing).
 */
export const ExecuteResponse = z.looseObject({
  status: openEnum(['Success', 'Failed']),
  signature: z.string().nullish(),
  slot: z.string().nullish(),
  error: z.string().nullish(),
  code: z.number().nullish(),
  totalInputAmount: BaseUnits.nullish(),
  totalOutputAmount: BaseUnits.nullish(),
  inputAmountResult: BaseUnits.nullish(),
  outputAmountResult: BaseUnits.nullish(),
  swapEvents: z.array(SwapEvent).nullish(),
});
export type ExecuteResponse = z.output<typeof ExecuteResponse>;

/** 400 `{ error, code }` and 500 `{ signature?, error }` (Ultra: `{ error, code }`) bodies of `/execute`. */
export const ExecuteErrorBody = z.looseObject({
  error: z.string().nullish(),
  code: z.number().nullish(),
  signature: z.string().nullish(),
});
export type ExecuteErrorBody = z.output<typeof ExecuteErrorBody>;

/** Documented `/execute` codes and their meaning. */
export const EXECUTE_CODES: Readonly<Record<number, string>> = Object.freeze({
  0: 'success',
  [-1]: 'order not found or expired (requestId)',
  [-2]: 'invalid signed transaction',
  [-3]: 'invalid message bytes (transaction modified)',
  [-4]: 'missing requestId',
  [-5]: 'missing signedTransaction',
  [-1000]: 'aggregator: failed to land',
  [-1001]: 'aggregator: unknown error',
  [-1002]: 'aggregator: invalid transaction',
  [-1003]: 'aggregator: transaction not fully signed',
  [-1004]: 'aggregator: invalid block height',
  [-1005]: 'aggregator: expired',
  [-1006]: 'aggregator: timed out',
  [-1007]: 'aggregator: gasless unsupported wallet',
  [-2000]: 'rfq: failed to land',
  [-2001]: 'rfq: unknown error',
  [-2002]: 'rfq: invalid payload',
  [-2003]: 'rfq: quote expired',
  [-2004]: 'rfq: swap rejected',
  [-2005]: 'rfq: internal error',
});
