import type { Fixed } from '../money/decimal.js';
import { applyChange, formatFixed, maxFixed, mulFixed, ONE, parseFixed, toBps, unitsToFixed } from '../money/decimal.js';
import type { Decision, Evidence, Hold, Intent } from './intents.js';
import { makeKey } from './intents.js';
import type { LoadedPriceOrder } from './loadedStrategy.js';
import { tokenOf } from './loadedStrategy.js';
import type { Exit } from './priceOrderExits.js';
import { buildExits, exitWords, generationDone, units } from './priceOrderExits.js';
import type { ResolvedToken } from './tokenResolution.js';
import { notionalRefusal, usd } from './riskChecks.js';
import type { Snapshot, StrategyState, VaultOrderView } from './snapshot.js';
import { slippagePatch } from './priceOrderSlippage.js';
import { isLive, STALE_PRICE_MS } from './snapshot.js';

const EMPTY = new Set<string>();
/** Trigger V2 refuses deposits under 10 USD. */
const VAULT_MIN_USD = 10n * ONE;

/** Everything one decision works from; passed to the helpers instead of closing over it. */
interface DecisionContext {
  readonly strategy: LoadedPriceOrder;
  readonly state: StrategyState;
  readonly snapshot: Snapshot;
  readonly now: number;
  readonly sell: ResolvedToken;
  readonly receive: ResolvedToken;
  readonly price: Fixed;
  readonly priceAt: number;
  readonly ref: Fixed;
  readonly peak: Fixed;
  readonly balance: bigint;
  readonly generation: number;
  readonly filled: ReadonlySet<string>;
  readonly handled: ReadonlySet<string>;
  readonly intents: Intent[];
  readonly holds: Hold[];
  /** Built on first use: formatting costs more than a quiet decision's arithmetic. */
  evidence: Evidence | undefined;
  /** Notional granted earlier in this decision (daily limit). */
  granted: Fixed;
}

/**
 * price-order: arms take-profit rungs, a stop loss and/or a trailing stop as vault orders (or
 * swaps them locally when the price crosses), renews vault orders before they expire, raises a
 * ratchet stop by PATCH, cancels orders of rules an edit removed, and arms again after every exit
 * filled when `rearm` is set. Pure.
 */
export function decidePriceOrder(strategy: LoadedPriceOrder, state: StrategyState, snapshot: Snapshot, now: number): Decision {
  const { spec } = strategy;
  const sell = tokenOf(strategy, 'sell');
  const receive = tokenOf(strategy, 'receive');
  const intents: Intent[] = [];
  const holds: Hold[] = [];
  const quote = snapshot.prices.get(sell.mint);
  if (!quote || now - quote.at > STALE_PRICE_MS) {
    holds.push({
      rule: '*',
      reason: quote ? `the ${sell.symbol} price is stale (${Math.round((now - quote.at) / 1000)}s old)` : `no ${sell.symbol} price yet`,
    });
    return { intents, holds };
  }
  const price = quote.usd;
  let generation = state.generation ?? 0;
  let filled = state.filledRules ?? EMPTY;
  let base = state.armedAmount;
  let reference = state.referencePriceUsd;
  let peak = state.peakPriceUsd;
  const views = snapshot.vaultOrders.get(strategy.name) ?? [];
  const orders = views.filter(isLive);
  if (generationDone(strategy, filled)) {
    if (!spec.rearm) {
      holds.push({ rule: '*', reason: 'every exit has filled; set rearm: true to arm again on a new balance' });
      return { intents, holds };
    }
    if (orders.length === 0) {
      // Arm the next generation from what is held now.
      generation += 1;
      filled = EMPTY;
      base = undefined;
      reference = undefined;
      peak = undefined;
    }
  }
  const balance = snapshot.balances.get(sell.mint) ?? 0n;
  const ref = spec.entry?.buy_below.usd ?? spec.reference_price_usd?.usd ?? reference ?? price;
  peak = maxFixed(peak ?? price, price);
  const context: DecisionContext = {
    strategy,
    state,
    snapshot,
    now,
    sell,
    receive,
    price,
    priceAt: quote.at,
    ref,
    peak,
    balance,
    generation,
    filled,
    handled: state.handled ?? EMPTY,
    intents,
    holds,
    evidence: undefined,
    granted: 0n,
  };
  const exits = buildExits(strategy, {
    amountUnits: units(spec.amount, base ?? balance, sell.decimals),
    ref,
    peak,
    receiveBalance: snapshot.balances.get(receive.mint) ?? 0n,
  });
  if (spec.execution === 'local') decideLocal(context, exits);
  else decideVault(context, exits, orders, withdrawingOf(views));
  return { intents, holds };
}

function evidenceOf(c: DecisionContext): Evidence {
  c.evidence ??= {
    priceUsd: formatFixed(c.price),
    priceAt: c.priceAt,
    referenceUsd: formatFixed(c.ref),
    balance: c.balance.toString(),
    generation: c.generation,
  };
  return c.evidence;
}

function hold(c: DecisionContext, rule: string, reason: string): void {
  c.holds.push({ rule, reason, evidence: evidenceOf(c) });
}

/** Why `exit` may not trade `amount` now (balance, vault minimum, risk limits), or undefined. */
function refusal(c: DecisionContext, exit: Exit, amount: bigint): string | undefined {
  const { spec } = c.strategy;
  const entry = exit.rule === 'entry';
  if (amount <= 0n)
    return `nothing to ${entry ? 'spend' : 'sell'}: the amount is 0 (${entry ? c.receive.symbol : c.sell.symbol} balance ${entry ? (c.snapshot.balances.get(c.receive.mint) ?? 0n) : c.balance})`;
  const min = spec.risk?.min_sell_price_usd;
  if (min && !entry && exit.vault.trailingBps === undefined) {
    // Locally the sale happens at the price now; in the vault at the order's lowest trigger.
    const lowest =
      spec.execution === 'local'
        ? c.price
        : exit.fires === 'below'
          ? exit.level
          : exit.vault.slPriceUsd === undefined
            ? undefined
            : parseFixed(exit.vault.slPriceUsd);
    if (lowest !== undefined && lowest < min.usd) return `would sell at $${formatFixed(lowest)}, below risk.min_sell_price_usd ($${min.text})`;
  }
  const token = entry ? c.receive : c.sell;
  const held = entry ? (c.snapshot.balances.get(c.receive.mint) ?? 0n) : c.balance;
  if (amount > held) return `needs ${amount} base units of ${token.symbol}, the balance is ${held}`;
  const notional = entry
    ? mulFixed(unitsToFixed(amount, token.decimals), c.snapshot.prices.get(token.mint)?.usd ?? ONE)
    : mulFixed(unitsToFixed(amount, token.decimals), c.price);
  if (spec.execution === 'vault' && notional < VAULT_MIN_USD)
    return `order worth $${usd(notional)} is under the vault's 10 USD minimum; use execution: local for small amounts`;
  const limit = notionalRefusal(spec.risk, c.state, c.now, notional, c.granted);
  if (limit !== undefined) return limit;
  c.granted += notional;
  return undefined;
}

function decideLocal(c: DecisionContext, exits: readonly Exit[]): void {
  const { strategy, sell, receive, price } = c;
  const { spec } = strategy;
  const trigger = `g${c.generation}`;
  const maxImpact = spec.risk?.max_price_impact;
  const soldByRungs = exits.reduce((sum, e) => (e.fires === 'above' && c.filled.has(e.rule) ? sum + e.amount : sum), 0n);
  for (const exit of exits) {
    if (c.filled.has(exit.rule)) continue;
    const crossed = exit.fires === 'above' ? price >= exit.level : price <= exit.level;
    if (!crossed) continue;
    const { key, id, slot } = makeKey(strategy, exit.rule, trigger);
    if (c.handled.has(slot)) continue;
    // A stop sells what is left of the strategy's amount after the rungs that filled — never more
    // than that (the wallet may hold tokens this strategy does not manage), nor more than is held.
    const left = exit.fires === 'below' ? exit.amount - soldByRungs : exit.amount;
    const amount = left > c.balance ? c.balance : left;
    const impact = c.snapshot.priceImpactBps.get(`${sell.mint}>${receive.mint}`);
    if (maxImpact && impact !== undefined && impact > toBps(maxImpact.fraction)) {
      hold(c, exit.rule, `price impact ${impact} bps is above risk.max_price_impact (${maxImpact.text})`);
      continue;
    }
    const refused = refusal(c, exit, amount);
    if (refused !== undefined) {
      hold(c, exit.rule, refused);
      continue;
    }
    c.intents.push({
      kind: 'swap',
      key,
      id,
      reason: `${exitWords(strategy, exit)}: ${sell.symbol} at $${formatFixed(price)} crossed $${formatFixed(exit.level)}`,
      evidence: { ...evidenceOf(c), levelUsd: formatFixed(exit.level), peakUsd: formatFixed(c.peak) },
      inputMint: sell.mint,
      inputDecimals: sell.decimals,
      outputMint: receive.mint,
      amount,
      ...(exit.swapSlippageBps === undefined ? {} : { slippageBps: exit.swapSlippageBps }),
      ...(maxImpact ? { maxPriceImpactBps: toBps(maxImpact.fraction) } : {}),
      // The quote must confirm the price that fired the rule.
      feedPriceUsd: formatFixed(price),
      maxQuoteDeviationBps: spec.risk?.max_quote_deviation ? toBps(spec.risk.max_quote_deviation.fraction) : DEFAULT_MAX_QUOTE_DEVIATION_BPS,
    });
  }
}

/**
 * How far the quote's price may be from the feed's before a local price rule trades (5 %): more than
 * a fast market moves between a poll and a quote, far less than a feed that lies or lags a crash.
 */
export const DEFAULT_MAX_QUOTE_DEVIATION_BPS = 500;

const withdrawingOf = (views: readonly VaultOrderView[]): VaultOrderView[] => views.filter((o) => o.state === 'pending_withdraw');

/**
 * `withdrawing`: orders being withdrawn (`pending_withdraw`: a cancel or renewal asked for, the funds
 * not back yet). They fill nothing, but their rule is not placed again until their funds are back in
 * the wallet: a new order then would take fresh funds while the old ones sit in the vault.
 */
function decideVault(c: DecisionContext, exits: readonly Exit[], orders: readonly VaultOrderView[], withdrawing: readonly VaultOrderView[]): void {
  const { strategy, now } = c;
  const { spec } = strategy;
  const expiresAt = now + spec.expires_after;
  const liveByRule = new Map<string, VaultOrderView>();
  for (const order of orders) liveByRule.set(order.rule, order);
  // An edit that removed a rule leaves its order behind: withdraw it rather than let it fill.
  for (const order of orders) {
    if (order.family !== 'price' || exits.some((e) => e.rule === order.rule)) continue;
    const { key, id, slot } = makeKey(strategy, order.rule, `orphan:${order.id}`);
    if (!c.handled.has(slot))
      c.intents.push({
        kind: 'cancel-vault-order',
        key,
        id,
        reason: `cancel order ${order.id}: its rule ${order.rule} is no longer in the strategy`,
        evidence: evidenceOf(c),
        orderId: order.id,
        family: 'price',
      });
  }
  for (const exit of exits) {
    if (c.filled.has(exit.rule)) continue;
    const live = liveByRule.get(exit.rule);
    if (live) {
      keepLive(c, exit, live, expiresAt);
      continue;
    }
    const { key, id, slot } = makeKey(strategy, exit.rule, `g${c.generation}`);
    if (c.handled.has(slot)) continue;
    const leaving = withdrawing.find((o) => o.rule === exit.rule);
    if (leaving) {
      hold(c, exit.rule, `order ${leaving.id} is being withdrawn (pending_withdraw): placed again once its funds are back in the wallet`);
      continue;
    }
    const refused = refusal(c, exit, exit.vault.inputAmount);
    if (refused !== undefined) {
      hold(c, exit.rule, refused);
      continue;
    }
    c.intents.push({
      kind: 'place-vault-order',
      key,
      id,
      reason: exitWords(strategy, exit),
      evidence: { ...evidenceOf(c), levelUsd: formatFixed(exit.level) },
      order: { ...exit.vault, expiresAt },
    });
  }
}

/**
 * A live order: renew it before it expires; otherwise give it the slippage its rule asks for now
 * (an edit, or an order placed before its legs carried their own), and raise a ratchet stop that
 * the peak has moved.
 */
function keepLive(c: DecisionContext, exit: Exit, live: VaultOrderView, expiresAt: number): void {
  const { strategy, now } = c;
  const { spec } = strategy;
  if (live.expiresAt !== null && live.expiresAt - now <= spec.renew_before) {
    const { key, id, slot } = makeKey(strategy, exit.rule, `renew:${live.id}@${live.expiresAt}`);
    if (c.handled.has(slot)) return;
    c.intents.push({
      kind: 'renew-vault-order',
      key,
      id,
      reason: `${exitWords(strategy, exit)}: order ${live.id} expires at ${new Date(live.expiresAt).toISOString()}, renewing until ${new Date(expiresAt).toISOString()}`,
      evidence: { ...evidenceOf(c), expiresAt: live.expiresAt },
      orderId: live.id,
      replacement: { ...exit.vault, inputAmount: live.inputAmount, expiresAt },
    });
    return;
  }
  const patch = slippagePatch(strategy, exit, live, () => evidenceOf(c));
  if (patch && !c.handled.has(patch.slot)) c.intents.push(patch.intent);
  const trail = spec.trailing_stop;
  if (!trail || trail.mode !== 'ratchet' || exit.rule !== 'trailing_stop' || live.triggerPriceUsd === null) return;
  if (exit.level < applyChange(live.triggerPriceUsd, trail.ratchet_step.fraction)) return;
  const { key, id, slot } = makeKey(strategy, exit.rule, `ratchet:${formatFixed(exit.level)}`);
  if (c.handled.has(slot)) return;
  c.intents.push({
    kind: 'patch-vault-order',
    key,
    id,
    reason: `raise the trailing stop from $${formatFixed(live.triggerPriceUsd)} to $${formatFixed(exit.level)} (peak $${formatFixed(c.peak)})`,
    evidence: { ...evidenceOf(c), peakUsd: formatFixed(c.peak), previousTriggerUsd: formatFixed(live.triggerPriceUsd) },
    orderId: live.id,
    orderType: 'single',
    triggerPriceUsd: formatFixed(exit.level),
  });
}
