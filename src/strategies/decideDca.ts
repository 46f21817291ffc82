import { formatDuration } from '../config/duration.js';
import { fixedToUnits, formatFixed, mulFixed, shareOf, toBps, unitsToFixed } from '../money/decimal.js';
import type { Decision, Hold, Intent } from './intents.js';
import { makeKey } from './intents.js';
import type { LoadedDca } from './loadedStrategy.js';
import { tokenOf } from './loadedStrategy.js';
import { notionalRefusal } from './riskChecks.js';
import { dueInstants, planRuns } from './schedule.js';
import type { Snapshot, StrategyState } from './snapshot.js';
import { isLive, STALE_PRICE_MS } from './snapshot.js';

const EMPTY = new Set<string>();
const STABLE_USD = 10n ** 18n;
/** Trigger V2 DCA rounds must each be worth 10 USD or more. */
const VAULT_MIN_ROUND_USD = 10n * 10n ** 18n;

/**
 * dca: with `execution: swap`, one swap per scheduled run that fell due since the last one
 * accounted for, missed runs handled by the catch-up policy, each run checked against the
 * notional limits and the price-impact guard; with `execution: vault`, one Trigger V2 DCA order.
 */
export function decideDca(strategy: LoadedDca, state: StrategyState, snapshot: Snapshot, now: number): Decision {
  const { spec } = strategy;
  const buy = tokenOf(strategy, 'buy');
  const pay = tokenOf(strategy, 'pay_with');
  const intents: Intent[] = [];
  const holds: Hold[] = [];
  const handled = state.handled ?? EMPTY;
  const payBalance = snapshot.balances.get(pay.mint) ?? 0n;
  const perRun = spec.amount.kind === 'tokens' ? fixedToUnits(spec.amount.tokens, pay.decimals) : shareOf(payBalance, spec.amount.fraction);
  const payQuote = snapshot.prices.get(pay.mint);
  const payPrice = payQuote && now - payQuote.at <= STALE_PRICE_MS ? payQuote.usd : undefined;
  const notionalOf = (amount: bigint): bigint => mulFixed(unitsToFixed(amount, pay.decimals), payPrice ?? STABLE_USD);

  if (spec.execution === 'vault') {
    const vault = spec.vault;
    if (!vault) return { intents, holds };
    const live = (snapshot.vaultOrders.get(strategy.name) ?? []).some((o) => o.family === 'dca' && isLive(o));
    const { key, id, slot } = makeKey(strategy, 'vault_dca', `g${state.generation ?? 0}`);
    if (live || handled.has(slot)) return { intents, holds };
    const total = perRun * BigInt(vault.orders);
    const refusal = notionalRefusal(spec.risk, state, now, notionalOf(total));
    if (refusal) return { intents, holds: [{ rule: 'vault_dca', reason: refusal }] };
    if (perRun <= 0n || total > payBalance)
      return {
        intents,
        holds: [{ rule: 'vault_dca', reason: `needs ${total} base units of ${pay.symbol} for ${vault.orders} rounds, the balance is ${payBalance}` }],
      };
    if (notionalOf(perRun) < VAULT_MIN_ROUND_USD)
      return {
        intents,
        holds: [{ rule: 'vault_dca', reason: `each round must be worth at least 10 USD (Trigger V2); ${spec.amount.text} ${pay.symbol} is less` }],
      };
    intents.push({
      kind: 'place-dca-vault-order',
      key,
      id,
      reason: `place a DCA order buying ${buy.symbol} with ${vault.orders} × ${spec.amount.text} ${pay.symbol}, one every ${formatDuration(vault.interval)}`,
      evidence: { payBalance: payBalance.toString(), perRound: perRun.toString() },
      inputMint: pay.mint,
      inputDecimals: pay.decimals,
      outputMint: buy.mint,
      inputAmount: total,
      orderCount: vault.orders,
      intervalSeconds: Math.floor(vault.interval / 1000),
      orderType: vault.type,
      ...(vault.min_price_usd ? { minPriceUsd: vault.min_price_usd.text } : {}),
      ...(vault.max_price_usd ? { maxPriceUsd: vault.max_price_usd.text } : {}),
      ...(vault.type === 'price_conditional' ? { triggerMint: buy.mint } : {}),
    });
    return { intents, holds };
  }

  const schedule = spec.schedule;
  if (!schedule) return { intents, holds };
  const since = state.lastScheduledRun ?? state.startedAt ?? now;
  const due = dueInstants(schedule.cron, schedule.timezone, since, now);
  if (due.length === 0) return { intents, holds };
  const plan = planRuns(due, now, spec.on_time_within, spec.catch_up, spec.max_runs_per_day);
  for (const t of plan.skipped) holds.push({ rule: 'run', reason: `run due at ${new Date(t).toISOString()} was missed; catch_up: ${spec.catch_up} skips it` });
  const maxImpact = spec.risk?.max_price_impact;
  const impact = snapshot.priceImpactBps.get(`${pay.mint}>${buy.mint}`);
  let granted = 0n;
  for (const t of plan.run) {
    const at = new Date(t).toISOString();
    const { key, id, slot } = makeKey(strategy, 'run', at);
    if (handled.has(slot)) continue;
    const evidence = {
      scheduledAt: at,
      payBalance: payBalance.toString(),
      priceImpactBps: impact ?? null,
      payPriceUsd: payPrice === undefined ? null : formatFixed(payPrice),
    };
    if (maxImpact && impact !== undefined && impact > toBps(maxImpact.fraction)) {
      holds.push({ rule: 'run', reason: `run due at ${at} held: price impact ${impact} bps is above risk.max_price_impact (${maxImpact.text})`, evidence });
      continue;
    }
    if (perRun <= 0n || perRun > payBalance) {
      holds.push({ rule: 'run', reason: `run due at ${at} held: needs ${perRun} base units of ${pay.symbol}, balance is ${payBalance}`, evidence });
      continue;
    }
    const notional = notionalOf(perRun);
    const refusal = notionalRefusal(spec.risk, state, now, notional, granted);
    if (refusal) {
      holds.push({ rule: 'run', reason: `run due at ${at} held: ${refusal}`, evidence });
      continue;
    }
    granted += notional;
    intents.push({
      kind: 'swap',
      key,
      id,
      reason: `scheduled buy of ${buy.symbol} with ${spec.amount.text} ${pay.symbol} (due ${at}${now - t > spec.on_time_within ? ', caught up' : ''})`,
      evidence,
      inputMint: pay.mint,
      inputDecimals: pay.decimals,
      outputMint: buy.mint,
      amount: perRun,
      ...(spec.slippage_bps === undefined ? {} : { slippageBps: spec.slippage_bps }),
      ...(maxImpact ? { maxPriceImpactBps: toBps(maxImpact.fraction) } : {}),
    });
  }
  return { intents, holds, scheduledThrough: due[due.length - 1] ?? since };
}
