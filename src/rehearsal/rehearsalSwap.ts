/**
 * A swap, rehearsed: Jupiter is asked for the order with the watched wallet as taker, exactly as live
 * mode asks, and the transaction it builds is judged by the guard (statically, then simulated) and
 * never signed; `/execute` is never called. When the guard accepts it, the swap is filled in the
 * rehearsal ledger at the quote: the order's `inAmount` for `outAmount`, with the fee the answer
 * declares and the network fees it says the wallet would pay (`rehearsal_costs`). A refusal fails
 * the intent with its reason, as live mode would; the bytes stay in its verdict row.
 *
 * It is a call, not a signing: the row goes planned → sent → confirmed | failed. Asking again after a
 * lost answer is harmless (nothing outside this database changed), so `settle` answers `repeat`.
 */
import type { JupiterClient } from '../jupiter/transport.js';
import type { OrderResponse } from '../jupiter/schemas/swapWire.js';
import type { Clock } from '../clock.js';
import type { TransactionGuard } from '../solana/guardedSigner.js';
import { GuardRefusal } from '../solana/guardRefusal.js';
import type { Db } from '../store/db.js';
import { canonicalJson } from '../store/canonicalJson.js';
import type { FillInput } from '../store/journal.js';
import type { CallHandler, CallResult } from '../engine/executor/handler.js';
import { quoteAndJudge } from '../engine/executor/swap/quoteAndSign.js';
import { checkQuote } from '../engine/executor/swap/quoteChecks.js';
import { DEFAULT_SWAP_POLICY, excludedRouters, slippageCap, swapExpectation, type SwapPolicy } from '../engine/executor/swap/swapHandler.js';
import { parseSwapParams, SWAP_KIND } from '../engine/executor/swap/swapParams.js';
import type { SwapExpectation } from '../solana/expectation.js';
import { recordCost } from './ledger.js';
import { judgeTransaction } from './judgeTransaction.js';
import { rehearsalFillId } from './rehearsalFillId.js';
import { repeatUnlessStale } from './rehearsalRepeat.js';

export interface RehearsalSwapOptions {
  readonly client: JupiterClient;
  readonly guard: TransactionGuard;
  readonly db: Db;
  readonly clock: Clock;
  readonly decimalsOf: (mint: string) => number | Promise<number>;
  readonly policy?: SwapPolicy | undefined;
}

/** The SOL the wallet would pay for the swap, as the answer declares it. */
export function declaredNetworkFee(quote: OrderResponse, wallet: string, expectation: SwapExpectation): bigint {
  // Someone else pays (gasless, an RFQ maker): at most what they take back from us, as the guard bounds it.
  if (expectation.gasless) return expectation.declaredFeeLamports ?? 0n;
  const whole = (n: number | null | undefined): bigint => BigInt(Math.ceil(n ?? 0));
  const rentOurs = quote.rentFeePayer === undefined || quote.rentFeePayer === null || quote.rentFeePayer === wallet;
  return whole(quote.signatureFeeLamports) + whole(quote.prioritizationFeeLamports) + (rentOurs ? whole(quote.rentFeeLamports) : 0n);
}

export function createRehearsalSwapHandler(options: RehearsalSwapOptions): CallHandler {
  const { client, guard, db, clock } = options;
  const policy = options.policy ?? DEFAULT_SWAP_POLICY;
  const routers = excludedRouters(policy);
  return {
    kind: SWAP_KIND,
    async call(row, context): Promise<CallResult> {
      const params = parseSwapParams(row.params);
      let judged;
      try {
        judged = await quoteAndJudge({
          client,
          taker: guard.address,
          request: {
            inputMint: params.inputMint,
            outputMint: params.outputMint,
            amount: params.amount,
            slippageBps: slippageCap(params, policy),
            excludeRouters: routers,
          },
          check: (answer) => checkQuote(params, answer),
          expect: (answer) => swapExpectation(params, answer, guard.address, policy),
          judge: (transaction, expectation, signContext) => judgeTransaction(guard, transaction, expectation, signContext, context),
          row,
          context,
        });
      } catch (error) {
        // A refusal about the moment is asked again (the row stays sent; settle says repeat).
        if (error instanceof GuardRefusal && !error.transient)
          return { kind: 'failed', code: 'GUARD_REFUSED', message: error.message, data: { reason: error.reason, rehearsal: true } };
        throw error;
      }
      const { quote, expectation } = judged;
      const now = clock.now();
      const networkFeeLamports = declaredNetworkFee(quote, guard.address, expectation);
      recordCost(db, row.id, networkFeeLamports, now);
      const outDecimals = await options.decimalsOf(params.outputMint);
      const summary = {
        rehearsal: true,
        requestId: quote.requestId,
        inAmount: quote.inAmount,
        outAmount: quote.outAmount,
        router: quote.router ?? null,
        feeBps: quote.feeBps ?? null,
        platformFee: quote.platformFee ?? null,
        networkFeeLamports: networkFeeLamports.toString(),
      };
      const fee =
        quote.platformFee?.amount && quote.platformFee.feeMint ? platformFee(quote.platformFee.amount, quote.platformFee.feeMint, params, outDecimals) : null;
      const fill: FillInput = {
        signature: rehearsalFillId(row.id),
        idx: 0,
        source: 'swap',
        inMint: params.inputMint,
        inAmount: BigInt(quote.inAmount),
        inDecimals: params.inputDecimals,
        outMint: params.outputMint,
        outAmount: BigInt(quote.outAmount),
        outDecimals,
        fee,
        raw: canonicalJson(summary),
        at: now,
      };
      return { kind: 'confirmed', data: summary, fills: [fill] };
    },
    settle: (row) => Promise.resolve(repeatUnlessStale(row, clock)),
  };
}

/** Jupiter's platform fee as the answer declares it, in whichever leg's mint it is taken. */
export function platformFee(
  amount: string,
  mint: string,
  params: { inputMint: string; inputDecimals: number; outputMint: string },
  outDecimals: number,
): FillInput['fee'] {
  if (!/^\d+$/.test(amount)) return null;
  if (mint === params.inputMint) return { mint, amount: BigInt(amount), decimals: params.inputDecimals };
  if (mint === params.outputMint) return { mint, amount: BigInt(amount), decimals: outDecimals };
  return null;
}
