/**
 * A swap's quote and signature, with the two answers the guard refuses that asking again can mend.
 *
 * - A route in an older form (`route`, `shared_accounts_route`) through a venue the guard cannot
 *   read hides its amounts behind that venue. Jupiter is asked again without it (`excludeDexes` with
 *   the step's label from the answer's `routePlan`), at most twice per attempt, each time journaled
 *   and audited (`intent.requoted`); then the intent fails with ROUTE_VENUES_UNREADABLE. The same
 *   holds for a venue learned from an IDL whose description does not fit the bytes.
 *
 * (Identical bytes that have just landed, two equal swaps built in one slot, are the executor's to
 * sequence: it builds the intent again at its next pass, when the blockhash is newer.)
 */
import { type JupiterClient, Priority, swap, SwapOrderError } from '../../../jupiter/index.js';
import type { OrderResponse, Router } from '../../../jupiter/schemas/swapWire.js';
import { GuardRefusal } from '../../../solana/guardRefusal.js';
import type { GuardedSigner, SignContext, SignedBase64 } from '../../../solana/guardedSigner.js';
import type { SwapExpectation } from '../../../solana/expectation.js';
import type { IntentRow } from '../../../store/journal.js';
import { IntentRefusedError } from '../errors.js';
import type { HandlerContext } from '../handler.js';

/** Re-asks without an unreadable venue, per attempt. */
export const MAX_VENUE_EXCLUSIONS = 2;

export interface QuoteRequest {
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly slippageBps: number;
  readonly excludeRouters: readonly Router[];
}

export interface QuoteAndSignOptions {
  readonly client: JupiterClient;
  readonly signer: Pick<GuardedSigner, 'address' | 'signBase64'>;
  readonly request: QuoteRequest;
  /** Checks the answer against the intent before anything is signed (throws IntentRefusedError). */
  readonly check: (quote: OrderResponse) => void;
  readonly expect: (quote: OrderResponse) => SwapExpectation;
  readonly row: IntentRow;
  readonly context: HandlerContext;
}

/** The step of the plan whose venue the guard could not read, when that is why it refused. */
function unreadableStep(error: GuardRefusal): { step: number; variant: number } | null {
  const { step, variant, learned } = error.details as { step?: unknown; variant?: unknown; learned?: unknown };
  if (typeof step !== 'number' || typeof variant !== 'number') return null;
  if (error.reason === 'ROUTE_PLAN_UNDECODABLE' || (error.reason === 'ROUTE_DATA_MALFORMED' && learned === true)) return { step, variant };
  return null;
}

export async function quoteAndSign(options: QuoteAndSignOptions): Promise<{ quote: OrderResponse; signed: SignedBase64; expectation: SwapExpectation }> {
  const { signer, ...rest } = options;
  const { quote, judged, expectation } = await quoteAndJudge({
    ...rest,
    taker: signer.address,
    judge: (transaction, expected, context) => signer.signBase64(transaction, expected, context),
  });
  return { quote, signed: judged, expectation };
}

export interface QuoteAndJudgeOptions<T> extends Omit<QuoteAndSignOptions, 'signer'> {
  /** The wallet the transaction is built for. */
  readonly taker: string;
  /** The guard's turn: sign (live, paper) or only judge (rehearsal). Throws the GuardRefusal when it refuses. */
  readonly judge: (transaction: string, expectation: SwapExpectation, context: SignContext) => Promise<T>;
}

/** The quote-and-guard loop itself, whatever the guard's turn does with an accepted transaction. */
export async function quoteAndJudge<T>(options: QuoteAndJudgeOptions<T>): Promise<{ quote: OrderResponse; judged: T; expectation: SwapExpectation }> {
  const { client, request, row, context } = options;
  const excluded: string[] = [];
  for (;;) {
    let quote: OrderResponse;
    try {
      quote = await swap.order(
        client,
        {
          inputMint: request.inputMint,
          outputMint: request.outputMint,
          amount: request.amount,
          taker: options.taker,
          // Always the cap the guard will hold the route to: Jupiter's own default may allow more.
          slippageBps: request.slippageBps,
          ...(request.excludeRouters.length === 0 ? {} : { excludeRouters: [...request.excludeRouters] }),
          ...(excluded.length === 0 ? {} : { excludeDexes: [...excluded] }),
        },
        { signal: context.signal, priority: Priority.Place },
      );
    } catch (error) {
      if (error instanceof SwapOrderError)
        throw new IntentRefusedError('QUOTE_UNBUILDABLE', error.message, { orderCode: error.code, router: error.router, errorCode: error.errorCode });
      throw error;
    }
    options.check(quote);
    const transaction = quote.transaction;
    if (transaction === null || transaction === undefined || transaction === '')
      throw new IntentRefusedError('QUOTE_UNBUILDABLE', 'the order carries no transaction');
    const expectation = options.expect(quote);
    try {
      const judged = await options.judge(transaction, expectation, {
        strategy: row.strategy,
        intentId: row.id,
        handles: excluded.length < MAX_VENUE_EXCLUSIONS ? ['ROUTE_PLAN_UNDECODABLE', 'ROUTE_DATA_MALFORMED'] : [],
      });
      return { quote, judged, expectation };
    } catch (error) {
      if (!(error instanceof GuardRefusal)) throw error;
      const unreadable = unreadableStep(error);
      if (unreadable === null) throw error;
      const label = quote.routePlan?.[unreadable.step]?.swapInfo.label ?? null;
      if (excluded.length >= MAX_VENUE_EXCLUSIONS || label === null || label === '' || label.includes(',') || excluded.includes(label)) {
        const tried = excluded.length === 0 ? '' : `; asked again without ${excluded.join(' and ')}`;
        throw new IntentRefusedError(
          'ROUTE_VENUES_UNREADABLE',
          `Jupiter's route for this swap goes through ${label === null || label === '' ? 'an unnamed venue' : label} (Swap variant ${unreadable.variant}), which the guard cannot read in the form Jupiter built${tried}: nothing was signed`,
          { excluded, label, variant: unreadable.variant, reason: error.reason },
        );
      }
      excluded.push(label);
      context.note?.('intent.requoted', { excludeDexes: [...excluded], label, variant: unreadable.variant, reason: error.reason });
    }
  }
}
