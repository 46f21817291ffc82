/**
 * Local swaps (DCA runs with `execution: swap`, local price exits) through `/swap/v2/order` and
 * `/swap/v2/execute`. Quote with our wallet as taker, enforce the intent's risk limits on the quote,
 * sign only through the guarded signer with a `swap` expectation, and submit the exact signed bytes.
 * The write-ahead ordering around these steps is the executor's; this file only speaks the API.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { ExecuteFailedError, type JupiterClient, swap } from '../../../jupiter/index.js';
import type { ExecuteResponse } from '../../../jupiter/swapApi.js';
import { type OrderResponse, ROUTERS } from '../../../jupiter/schemas/swapWire.js';
import { describeExpectation, type SwapExpectation } from '../../../solana/expectation.js';
import { leastDeliverable } from '../../../solana/swapRules.js';
import type { GuardedSigner } from '../../../solana/guardedSigner.js';
import { BLOCKHASH_VALID_BLOCKS, type SolanaRpc } from '../../../solana/rpc.js';
import { canonicalJson } from '../../../store/canonicalJson.js';
import type { FillInput, PlanInput, SignedRecord } from '../../../store/journal.js';
import type { Clock } from '../../../clock.js';
import type { SwapIntent } from '../../../strategies/intents.js';
import { chainFill } from './chainFill.js';
import { checkQuote } from './quoteChecks.js';
import { quoteAndSign } from './quoteAndSign.js';
import { submitOutcome } from '../submitOutcome.js';
import type { IntentHandler, LandedReport, SignedRow, SubmitResult } from '../handler.js';
import { type ExecutableKind, type IntentRoute, journalEntry } from '../intentKind.js';
import { parseSwapParams, SWAP_KIND, type SwapParams } from './swapParams.js';

/** The journal entry for a decided swap: params, plus the evidence that fired it for `intent.planned`. */
export function swapPlan(intent: SwapIntent): PlanInput {
  return journalEntry(intent, SWAP_KIND, {
    inputMint: intent.inputMint,
    inputDecimals: intent.inputDecimals,
    outputMint: intent.outputMint,
    amount: intent.amount.toString(),
    ...(intent.slippageBps === undefined ? {} : { slippageBps: intent.slippageBps }),
    ...(intent.maxPriceImpactBps === undefined ? {} : { maxPriceImpactBps: intent.maxPriceImpactBps }),
    ...(intent.feedPriceUsd === undefined ? {} : { feedPriceUsd: intent.feedPriceUsd }),
    ...(intent.maxQuoteDeviationBps === undefined ? {} : { maxQuoteDeviationBps: intent.maxQuoteDeviationBps }),
  });
}

export interface SwapHandlerOptions {
  readonly client: JupiterClient;
  readonly rpc: SolanaRpc;
  /** The only way to sign: the guard checks the transaction against the intent first. */
  readonly signer: GuardedSigner;
  readonly clock: Clock;
  /** Decimals of a mint (token pins, search results): fills need both legs' decimals. */
  readonly decimalsOf: (mint: string) => number | Promise<number>;
  readonly policy?: SwapPolicy | undefined;
}

/** What the operator's config says about every swap. */
export interface SwapPolicy {
  /** Routers never asked for (`api.exclude_routers`). */
  readonly excludeRouters: readonly string[];
  /** The slippage cap when the strategy sets none lower (`guard.max_slippage_bps`). */
  readonly maxSlippageBps: number;
}

export const DEFAULT_SWAP_POLICY: SwapPolicy = { excludeRouters: [], maxSlippageBps: 300 };

/** The strategy's slippage, never above the operator's cap. */
export function slippageCap(params: Pick<SwapParams, 'slippageBps'>, policy: SwapPolicy): number {
  return Math.min(params.slippageBps ?? policy.maxSlippageBps, policy.maxSlippageBps);
}

/**
 * The least output an intent accepts: the checked quote's output less the slippage cap, rounded as
 * the program and Jupiter's `otherAmountThreshold` round it (quoted − floor(quoted × cap / 10 000)).
 */
export function minimumOut(quotedOut: bigint, slippageCapBps: number): bigint {
  return leastDeliverable(quotedOut, slippageCapBps);
}

/** The routers never asked for, as the API names them: `iris` is Metis's older name. */
export function excludedRouters(policy: SwapPolicy): (typeof ROUTERS)[number][] {
  return [...new Set(policy.excludeRouters.map((r) => (r === 'iris' ? 'metis' : r)))].filter((r): r is (typeof ROUTERS)[number] =>
    (ROUTERS as readonly string[]).includes(r),
  );
}

export function createSwapHandler(options: SwapHandlerOptions): IntentHandler {
  const { client, rpc, signer, clock } = options;
  const policy = options.policy ?? DEFAULT_SWAP_POLICY;
  const routers = excludedRouters(policy);

  return {
    kind: SWAP_KIND,

    async prepare(row, context): Promise<SignedRecord> {
      const params = parseSwapParams(row.params);
      const { quote, signed, expectation } = await quoteAndSign({
        client,
        signer,
        request: {
          inputMint: params.inputMint,
          outputMint: params.outputMint,
          amount: params.amount,
          slippageBps: slippageCap(params, policy),
          excludeRouters: routers,
        },
        check: (answer) => checkQuote(params, answer),
        expect: (answer) => swapExpectation(params, answer, signer.address, policy),
        row,
        context,
      });
      const gasless = swap.isGasless(quote, signer.address);
      const bytes = Buffer.from(signed.signed, 'base64');
      const blockhash = VersionedTransaction.deserialize(bytes).message.recentBlockhash;
      // Without the order's lastValidBlockHeight, now + 150 is an upper bound (the blockhash is no
      // newer than now): waiting longer than needed is safe, declaring expiry too early is not.
      const lastValidBlockHeight = quote.lastValidBlockHeight ? Number(quote.lastValidBlockHeight) : (await rpc.getBlockHeight()) + BLOCKHASH_VALID_BLOCKS;
      return {
        bytes,
        signature: signed.signature,
        blockhash,
        lastValidBlockHeight,
        requestId: quote.requestId,
        data: {
          quote: {
            inAmount: quote.inAmount,
            outAmount: quote.outAmount,
            otherAmountThreshold: quote.otherAmountThreshold ?? null,
            priceImpact: quote.priceImpact ?? null,
            slippageBps: quote.slippageBps ?? null,
            router: quote.router ?? null,
            gasless,
          },
          guard: { programs: signed.summary.programs, priorityFeeLamports: signed.summary.priorityFeeLamports, feePayer: signed.summary.feePayer },
          // The route as the guard read it: its form, venues (a newer one reported, not guessed) and fee.
          route: signed.summary.swaps.map((r) => ({
            form: r.name,
            venues: r.steps.map((step) => step.venue),
            unknownVenue: r.unknownVenue,
            feeBps: r.platformFeeBps,
            venueTable: r.venueTable,
          })),
          // What the guard held the bytes to, so an auditor can run it again (`tx explain --intent`).
          expectation: describeExpectation(expectation),
        },
      };
    },

    async submit(row, mode): Promise<SubmitResult> {
      const params = parseSwapParams(row.params);
      const base64 = Buffer.from(row.signedTx).toString('base64');
      if (row.requestId !== null) {
        try {
          // No stop signal here: a submission that has started finishes, so its answer is not lost needlessly.
          const answer = await swap.execute(client, { signedTransaction: base64, requestId: row.requestId });
          const fills = await fillsFrom(row, params, answer);
          // Landed, yet the answer names no amounts: the fill is pending until the chain says.
          const unknown = fills.length === 0 ? { fillUnknown: 'the execute answer carries no amounts' } : {};
          return { kind: 'confirmed', data: { ...executeSummary(answer), ...unknown }, fills, transactionId: answer.signature ?? undefined };
        } catch (error) {
          if (error instanceof ExecuteFailedError && !error.outcomeUnknown && error.executeCode !== null && error.executeCode > 0) {
            return {
              kind: 'failed',
              code: 'LANDED_FAILED',
              message: error.message,
              data: { executeCode: error.executeCode, signature: error.signature },
              transactionId: error.signature ?? undefined,
            };
          }
          // -1: Jupiter no longer knows the requestId; the bytes may still be valid on chain.
          const forgotten = error instanceof ExecuteFailedError && error.executeCode === -1;
          if (!forgotten) return submitOutcome(error, { via: 'execute', mode });
        }
      }
      try {
        const signature = await rpc.sendTransaction(base64, { skipPreflight: false, maxRetries: 0 });
        // The node took the bytes; whether they land is for the signature status to say.
        return { kind: 'unknown', code: 'SENT_VIA_RPC', message: 'sent through RPC sendTransaction', data: { via: 'rpc', mode, signature } };
      } catch (error) {
        return submitOutcome(error, { via: 'rpc', mode });
      }
    },

    async landed(row): Promise<LandedReport> {
      const params = parseSwapParams(row.params);
      // Re-posting the same bytes and requestId is idempotent: Jupiter answers with the first result.
      let reason = 'no requestId to ask /execute for the amounts';
      if (row.requestId !== null) {
        try {
          const answer = await swap.execute(client, { signedTransaction: Buffer.from(row.signedTx).toString('base64'), requestId: row.requestId });
          const fills = await fillsFrom(row, params, answer);
          if (fills.length > 0) return { data: executeSummary(answer), fills, transactionId: answer.signature ?? undefined };
          reason = 'the execute answer carries no amounts';
        } catch (error) {
          reason = error instanceof Error ? client.redactor.scrubText(error.message) : 'execute re-poll failed';
        }
      }
      // Jupiter cannot say any more: the chain can.
      const read = await chainFill(rpc, row.signature, signer.address, params).catch((error: unknown) => {
        reason = `${reason}; the chain did not say either (${error instanceof Error ? error.message : String(error)})`;
        return null;
      });
      if (read === null) return { data: {}, fills: [], fillUnknown: reason };
      const outDecimals = await options.decimalsOf(params.outputMint);
      const data = { via: 'chain', inAmount: read.inAmount.toString(), outAmount: read.outAmount.toString() };
      return {
        data,
        fills: [
          {
            signature: row.signature,
            idx: 0,
            source: 'swap',
            inMint: params.inputMint,
            inAmount: read.inAmount,
            inDecimals: params.inputDecimals,
            outMint: params.outputMint,
            outAmount: read.outAmount,
            outDecimals,
            fee: null,
            raw: canonicalJson(data),
            at: read.at ?? clock.now(),
          },
        ],
      };
    },
  };

  async function fillsFrom(row: SignedRow, params: SwapParams, answer: ExecuteResponse): Promise<FillInput[]> {
    const inAmount = answer.totalInputAmount ?? answer.inputAmountResult;
    const outAmount = answer.totalOutputAmount ?? answer.outputAmountResult;
    if (inAmount === null || inAmount === undefined || outAmount === null || outAmount === undefined) return [];
    const outDecimals = await options.decimalsOf(params.outputMint);
    const fee = feeOf(answer, params, outDecimals);
    return [
      {
        signature: answer.signature ?? row.signature,
        idx: 0,
        source: 'swap',
        inMint: params.inputMint,
        inAmount,
        inDecimals: params.inputDecimals,
        outMint: params.outputMint,
        outAmount,
        outDecimals,
        fee,
        raw: canonicalJson(executeSummary(answer)),
        at: clock.now(),
      },
    ];
  }
}

/**
 * What the guard holds the transaction to: the intent's input, the checked quote's output less the
 * slippage cap, the fee the answer declares, the answer's payer when someone else pays (gasless, or
 * an RFQ maker) and the fees it declares we pay back to that payer.
 */
export function swapExpectation(params: SwapParams, quote: OrderResponse, wallet: string, policy: SwapPolicy): SwapExpectation {
  const cap = slippageCap(params, policy);
  const quotedOut = BigInt(quote.outAmount);
  const rfq = quote.router === 'jupiterz' && typeof quote.maker === 'string' && quote.maker !== '';
  const payer = quote.signatureFeePayer ?? null;
  const someoneElsePays = payer !== null && payer !== wallet;
  return {
    kind: 'swap',
    inputMint: params.inputMint,
    outputMint: params.outputMint,
    maxInAmount: params.amount,
    minOutAmount: minimumOut(quotedOut, cap),
    quotedOutAmount: quotedOut,
    maxSlippageBps: cap,
    // Jupiter's fee as the answer declares it: inside the route, or an RFQ fill's fee transfer.
    feeBps: Math.max(0, Math.floor(quote.feeBps ?? 0)),
    gasless: someoneElsePays,
    ...(someoneElsePays && payer !== null ? { feePayer: payer } : {}),
    // A gasless payer takes its fees back from the taker in SOL: at most what the answer declares
    // (signature and prioritization fees, and the rent it fronted for accounts of ours).
    declaredFeeLamports: someoneElsePays
      ? BigInt(Math.ceil(quote.signatureFeeLamports ?? 0)) +
        BigInt(Math.ceil(quote.prioritizationFeeLamports ?? 0)) +
        (quote.rentFeePayer !== undefined && quote.rentFeePayer !== null && quote.rentFeePayer !== wallet ? BigInt(Math.ceil(quote.rentFeeLamports ?? 0)) : 0n)
      : 0n,
    ...(rfq ? { rfqMaker: quote.maker as string } : {}),
  };
}

/** Fee = what left minus what entered the route (input mint), or what the route made minus what arrived (output mint). */
function feeOf(answer: ExecuteResponse, params: SwapParams, outDecimals: number): FillInput['fee'] {
  const diff = (a: string | null | undefined, b: string | null | undefined): bigint => (a && b ? BigInt(a) - BigInt(b) : 0n);
  const inFee = diff(answer.totalInputAmount, answer.inputAmountResult);
  if (inFee > 0n) return { mint: params.inputMint, amount: inFee, decimals: params.inputDecimals };
  const outFee = diff(answer.outputAmountResult, answer.totalOutputAmount);
  if (outFee > 0n) return { mint: params.outputMint, amount: outFee, decimals: outDecimals };
  return null;
}

function executeSummary(answer: ExecuteResponse): Record<string, unknown> {
  return {
    status: answer.status,
    signature: answer.signature ?? null,
    slot: answer.slot ?? null,
    code: answer.code ?? null,
    totalInputAmount: answer.totalInputAmount ?? null,
    totalOutputAmount: answer.totalOutputAmount ?? null,
    inputAmountResult: answer.inputAmountResult ?? null,
    outputAmountResult: answer.outputAmountResult ?? null,
  };
}

export const swapRoute: IntentRoute<'swap'> = { kind: 'swap', plan: swapPlan };

/** `swap`: local swaps through `/swap/v2/order` and `/swap/v2/execute`. */
export const swapKind: ExecutableKind<SwapHandlerOptions> = {
  kind: SWAP_KIND,
  routes: [swapRoute],
  createHandler: createSwapHandler,
};
