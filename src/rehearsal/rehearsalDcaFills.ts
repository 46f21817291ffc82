/**
 * One rehearsed DCA order at one price update: the round due now (rehearsalDcaRounds.ts) is quoted
 * and filled at the quote, the order's remaining input reduced and its schedule moved on in the same
 * transaction; after the last round it is `completed`, with `order.completed` on its intent as the
 * mirror writes when history shows a DCA order done. Trigger V2 DCA orders carry no slippage (the
 * keeper takes what the route gives), so a round fills at whatever the quote says.
 */
import { errorMessage } from '../errors.js';
import { type MatcherDeps, commitFill, fillAtQuote, type PriceOf, quoteFill, quoteSummary } from './rehearsalOrderFill.js';
import { type RehearsalOrder, writeOrder } from './rehearsalOrderStore.js';
import { dcaStep, roundMissed } from './rehearsalDcaRounds.js';

export async function stepDcaOrder(deps: MatcherDeps, order: RehearsalOrder, priceOf: PriceOf, signal: AbortSignal): Promise<void> {
  const { log } = deps;
  const schedule = order.raw.dca;
  if (schedule === null) return;
  const now = deps.clock.now();
  const step = dcaStep(order, schedule, now, order.triggerMint === null ? undefined : priceOf(order.triggerMint));
  if (step.kind === 'wait') return;
  const context = { orderId: order.id, intentId: order.intentId, round: schedule.roundsFilled + 1, of: schedule.orderCount };
  const moveOn = (nextFillAt: number): boolean => writeOrder(deps.db, deps.audit, order, { raw: { dca: { ...schedule, nextFillAt } } }, deps.clock.now());
  if (step.kind === 'skip') {
    if (moveOn(step.nextFillAt))
      log?.info(context, `REHEARSAL DCA order ${order.id}: round skipped, ${step.reason}; next at ${new Date(step.nextFillAt).toISOString()}`);
    return;
  }
  let quote;
  try {
    quote = await quoteFill(deps.client, order, step.amount, signal);
  } catch (error) {
    if (signal.aborted) return;
    const missed = roundMissed(schedule, deps.clock.now()) && moveOn(schedule.nextFillAt + schedule.intervalSeconds * 1000);
    log?.warn(
      { ...context, err: error },
      `REHEARSAL DCA order ${order.id}: round ${step.round} not quoted (${errorMessage(error)}); ${missed ? 'its retry window is over: moved one interval on' : 'tried again on the next prices'}`,
    );
    return;
  }
  const inAmount = BigInt(quote.inAmount);
  const out = BigInt(quote.outAmount);
  const remaining = order.remaining - inAmount;
  const completed = step.round >= schedule.orderCount || remaining === 0n;
  const at = deps.clock.now();
  const summary = quoteSummary(quote, { round: step.round, rounds: schedule.orderCount });
  const done = commitFill(
    deps,
    order,
    fillAtQuote(order, quote, 'dca', summary, at),
    {
      ...(completed ? { state: 'completed' } : {}),
      remaining,
      inputUsed: order.inputUsed + inAmount,
      outputAmount: order.outputAmount + out,
      raw: { dca: { ...schedule, roundsFilled: step.round, nextFillAt: schedule.nextFillAt + schedule.intervalSeconds * 1000 } },
    },
    completed
      ? () => deps.journal.note(order.intentId, 'order.completed', { orderId: order.id, family: 'dca', rawState: 'completed', via: 'rehearsal' })
      : undefined,
  );
  if (done)
    log?.info({ ...context, inAmount: quote.inAmount, outAmount: quote.outAmount }, `REHEARSAL DCA order ${order.id}: round ${step.round} filled at the quote`);
}
