/**
 * One rehearsed price order at one price update, as Jupiter's keeper treats it: past its `expiresAt`
 * it expires (its funds stay in the vault until a cancel withdraws them, as Trigger V2 keeps them);
 * a trailing order's watermark follows the price; when a leg fires (rehearsalTriggers.ts) the whole
 * remaining input is quoted and filled at that quote, unless the quote gives less than the leg's
 * slippage allows against its trigger, in which case the order stays open and the next price update
 * tries again. Partial fills are never made up: either the quote for everything passes, or nothing
 * fills. An OTOCO parent's fill opens its children over what it bought, which stays in the vault: a
 * second row, written in the same transaction as the fill.
 */
import { formatFixed } from '../money/decimal.js';
import { errorMessage } from '../errors.js';
import { type MatcherDeps, commitFill, fillAtQuote, type PriceOf, quoteFill, quoteSummary } from './rehearsalOrderFill.js';
import { insertOrder, type RehearsalOrder, readOrder, rehearsalOrderId, writeOrder } from './rehearsalOrderStore.js';
import { firedLeg, type FiredLeg, minimumOut, trailingAt } from './rehearsalTriggers.js';

/** Past its expiry: `expired`, and `order.expired` on its intent, as the mirror writes when history shows one. */
export function expireOrder(deps: MatcherDeps, order: RehearsalOrder): boolean {
  return deps.db.transaction(() => {
    if (!writeOrder(deps.db, deps.audit, order, { state: 'expired' }, deps.clock.now())) return false;
    deps.journal.note(order.intentId, 'order.expired', { orderId: order.id, family: order.family, rawState: 'expired', via: 'rehearsal' });
    return true;
  })();
}

/** The order as it watches `price` now: a trailing order's new watermark and trigger written first. */
function watched(deps: MatcherDeps, order: RehearsalOrder, price: bigint): RehearsalOrder | undefined {
  const trail = trailingAt(order, price);
  if (trail === null) return order;
  const watermarkUsd = formatFixed(trail.watermarkUsd);
  const triggerPriceUsd = formatFixed(trail.triggerUsd);
  if (watermarkUsd === order.raw.watermarkUsd && triggerPriceUsd === order.triggerPriceUsd) return order;
  if (!writeOrder(deps.db, deps.audit, order, { triggerPriceUsd, raw: { watermarkUsd } }, deps.clock.now())) return undefined;
  return readOrder(deps.db, order.id);
}

export async function stepPriceOrder(deps: MatcherDeps, order: RehearsalOrder, priceOf: PriceOf, signal: AbortSignal): Promise<void> {
  if (order.expiresAt !== null && deps.clock.now() >= order.expiresAt) {
    expireOrder(deps, order);
    return;
  }
  if (order.triggerMint === null) return;
  const price = priceOf(order.triggerMint);
  if (price === undefined) return;
  const current = watched(deps, order, price);
  if (current === undefined) return;
  const fired = firedLeg(current, price);
  if (fired === null) return;
  await fill(deps, current, fired, priceOf, signal);
}

async function fill(deps: MatcherDeps, order: RehearsalOrder, fired: FiredLeg, priceOf: PriceOf, signal: AbortSignal): Promise<void> {
  const { log } = deps;
  const amount = order.remaining;
  const context = { orderId: order.id, intentId: order.intentId, leg: fired.leg, triggerUsd: formatFixed(fired.triggerUsd), slippageBps: fired.slippageBps };
  const least = minimumOut(order, fired, amount, priceOf);
  if (least === undefined) {
    log?.info(context, `REHEARSAL order ${order.id} fired (${fired.leg}) but a price it is judged by is unknown: not filled now`);
    return;
  }
  let quote;
  try {
    quote = await quoteFill(deps.client, order, amount, signal);
  } catch (error) {
    if (signal.aborted) return;
    log?.warn(
      { ...context, err: error },
      `REHEARSAL order ${order.id} fired (${fired.leg}); its quote failed: ${errorMessage(error)}; tried again on the next prices`,
    );
    return;
  }
  const out = BigInt(quote.outAmount);
  if (out < least) {
    log?.info(
      { ...context, outAmount: quote.outAmount, minimumOut: least.toString() },
      `REHEARSAL order ${order.id} fired (${fired.leg}) but the quote gives ${quote.outAmount}, under the ${least} its slippage allows at the trigger: not filled now`,
    );
    return;
  }
  const summary = quoteSummary(quote, {
    leg: fired.leg,
    triggerUsd: formatFixed(fired.triggerUsd),
    slippageBps: fired.slippageBps,
    minimumOut: least.toString(),
  });
  const now = deps.clock.now();
  const parent = order.orderType === 'otoco' && order.raw.phase === 'order';
  const done = commitFill(
    deps,
    order,
    fillAtQuote(order, quote, 'trigger', summary, now),
    { state: 'filled', remaining: 0n, inputUsed: order.inputUsed + amount, outputAmount: order.outputAmount + out },
    parent ? () => openChildren(deps, order, out, now) : undefined,
  );
  if (done) log?.info({ ...context, inAmount: quote.inAmount, outAmount: quote.outAmount }, `REHEARSAL order ${order.id} filled (${fired.leg}) at the quote`);
}

/**
 * An OTOCO parent filled: its take-profit / stop-loss pair now sells what it bought, from the vault
 * (so the ledger keeps it held), with the parent's prices, legs' slippage and expiry.
 */
function openChildren(deps: MatcherDeps, parent: RehearsalOrder, bought: bigint, now: number): void {
  const id = rehearsalOrderId(`${parent.intentId}/children`);
  const { tpSlippageBps, slSlippageBps } = parent.raw.slippage;
  insertOrder(
    deps.db,
    deps.audit,
    {
      id,
      intentId: parent.intentId,
      strategy: parent.strategy,
      family: 'price',
      orderType: 'otoco',
      state: 'open',
      inputMint: parent.outputMint,
      inputDecimals: parent.outputDecimals,
      outputMint: parent.inputMint,
      outputDecimals: parent.inputDecimals,
      inputAmount: bought,
      triggerMint: parent.triggerMint,
      condition: null,
      triggerPriceUsd: null,
      tpPriceUsd: parent.tpPriceUsd,
      slPriceUsd: parent.slPriceUsd,
      slippageBps: null,
      trailingBps: null,
      expiresAt: parent.expiresAt,
      raw: {
        note: parent.raw.note,
        intentId: parent.intentId,
        phase: 'children',
        parentId: parent.id,
        slippage: {
          ...(tpSlippageBps === undefined ? {} : { tpSlippageBps }),
          ...(slSlippageBps === undefined ? {} : { slSlippageBps }),
        },
        watermarkUsd: null,
        fills: 0,
        dca: null,
        sent: {},
      },
    },
    now,
  );
  deps.journal.note(parent.intentId, 'order.placed', { orderId: id, parentId: parent.id, family: 'price', orderType: 'otoco', via: 'otoco', rehearsal: true });
}
