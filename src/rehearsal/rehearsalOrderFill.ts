/**
 * A rehearsed vault order's fill, as the keeper's swap would be: Jupiter is asked for a quote of
 * what the order sells, WITHOUT a taker (a quote carries no transaction, so there is nothing to judge
 * and nothing that could be signed), and the fill is recorded at exactly that quote's `inAmount` and
 * `outAmount`. The fill row (with its `fill` action, written through the journal as the mirror writes
 * a live order's fills) and the order's new state and amounts are one SQLite transaction, so the
 * ledger never counts the input both as held by the order and as spent, nor neither.
 */
import type { Clock } from '../clock.js';
import { order as quoteOrder, type OrderResponse } from '../jupiter/swapApi.js';
import { type JupiterClient, Priority } from '../jupiter/transport.js';
import type { Logger } from '../ops/log.js';
import { canonicalJson } from '../store/canonicalJson.js';
import type { Db } from '../store/db.js';
import type { AuditLog } from '../store/audit.js';
import type { FillInput, Journal } from '../store/journal.js';
import type { Fixed } from '../money/decimal.js';
import { rehearsalOrderFillId } from './rehearsalFillId.js';
import { type OrderChange, type RehearsalOrder, writeOrder } from './rehearsalOrderStore.js';
import { platformFee } from './rehearsalSwap.js';

/** What the matcher's steps work with. */
export interface MatcherDeps {
  readonly db: Db;
  readonly journal: Journal;
  /** Seals every write of an order's row (see rowSeal.ts). */
  readonly audit: AuditLog;
  readonly client: JupiterClient;
  readonly clock: Clock;
  readonly log?: Logger | undefined;
}

/** The feed's USD price of a mint as Fixed, or undefined when the feed has none. */
export type PriceOf = (mint: string) => Fixed | undefined;

/** A quote of `amount` of the order's input for its output, checked to be exactly that. */
export async function quoteFill(client: JupiterClient, order: RehearsalOrder, amount: bigint, signal: AbortSignal): Promise<OrderResponse> {
  const quote = await quoteOrder(client, { inputMint: order.inputMint, outputMint: order.outputMint, amount }, { signal, priority: Priority.Place });
  if (quote.inputMint !== order.inputMint || quote.outputMint !== order.outputMint || BigInt(quote.inAmount) !== amount)
    throw new Error(
      `the quote is for ${quote.inAmount} ${quote.inputMint} → ${quote.outputMint}, not ${amount} ${order.inputMint} → ${order.outputMint}: not filled`,
    );
  if (BigInt(quote.outAmount) <= 0n) throw new Error('the quote gives nothing for the input: not filled');
  return quote;
}

/** What a fill keeps of its quote (its `raw`), and the order's fill data. */
export function quoteSummary(quote: OrderResponse, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    rehearsal: true,
    ...extra,
    requestId: quote.requestId,
    inAmount: quote.inAmount,
    outAmount: quote.outAmount,
    router: quote.router ?? null,
    feeBps: quote.feeBps ?? null,
    platformFee: quote.platformFee ?? null,
    priceImpact: quote.priceImpact ?? null,
  };
}

/** The fill of `order` at `quote`: the order's next fill id, its mints and decimals, the quote's amounts. */
export function fillAtQuote(order: RehearsalOrder, quote: OrderResponse, source: 'trigger' | 'dca', summary: Record<string, unknown>, at: number): FillInput {
  const fee =
    quote.platformFee?.amount && quote.platformFee.feeMint
      ? platformFee(quote.platformFee.amount, quote.platformFee.feeMint, order, order.outputDecimals)
      : null;
  return {
    signature: rehearsalOrderFillId(order.id, order.raw.fills),
    idx: 0,
    source,
    inMint: order.inputMint,
    inAmount: BigInt(quote.inAmount),
    inDecimals: order.inputDecimals,
    outMint: order.outputMint,
    outAmount: BigInt(quote.outAmount),
    outDecimals: order.outputDecimals,
    fee,
    raw: canonicalJson({ orderId: order.id, quote: summary }),
    at,
    triggerOrderId: order.id,
  };
}

/**
 * Records `fill` and applies `change` to the order in one transaction, with whatever else the fill
 * causes (`then`: an OTOCO's children, an ending's action). False, and nothing written, when the
 * order changed since it was read (a cancel, a PATCH, another fill): the next prices judge it again.
 */
export function commitFill(deps: MatcherDeps, before: RehearsalOrder, fill: FillInput, change: OrderChange, then?: () => void): boolean {
  const now = deps.clock.now();
  return deps.db.transaction(() => {
    if (!writeOrder(deps.db, deps.audit, before, { ...change, raw: { ...change.raw, fills: before.raw.fills + 1 } }, now)) return false;
    deps.journal.recordFills(before.intentId, [fill]);
    then?.();
    return true;
  })();
}
