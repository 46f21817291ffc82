import type { Fixed } from '../money/decimal.js';
import { applyChange, fixedToUnits, formatFixed, mulFixed, ONE, shareOf, toBps } from '../money/decimal.js';
import type { VaultOrderParams } from './intents.js';
import type { LoadedPriceOrder } from './loadedStrategy.js';
import { tokenOf } from './loadedStrategy.js';
import type { Amount, PriceLevel } from './strategyFields.js';

/** One exit (or the entry) a price-order arms, with the vault order that would carry it. */
export interface Exit {
  readonly rule: string;
  /** Take-profit rung index, for messages. */
  readonly index: number;
  /** Base units this exit sells (the entry: base units of `receive` it spends). */
  readonly amount: bigint;
  /** Which way the price must cross to fire it (local execution and messages). */
  readonly fires: 'above' | 'below';
  readonly level: Fixed;
  /** The slippage a local swap asks for: the rule's, else the strategy's; unset, the swap cap applies. */
  readonly swapSlippageBps?: number;
  readonly vault: Omit<VaultOrderParams, 'expiresAt'>;
}

/** What the exits depend on beyond the file. */
export interface ExitInputs {
  /** Base units of `sell` the exits cover. */
  readonly amountUnits: bigint;
  /** Reference for relative levels. */
  readonly ref: Fixed;
  /** Highest price since arming (trailing). */
  readonly peak: Fixed;
  readonly receiveBalance: bigint;
}

/**
 * The rule ids a strategy arms: the entry alone (its exits are OTOCO children), or its exits. In the
 * vault a stop rides on every rung's OCO (buildExits), so it is a rule of its own only when the
 * rungs do not cover the whole amount — a ladder of shares adding up to 100% or more arms no
 * separate stop, and its rungs filling (by either leg) is all there is to wait for.
 */
export function exitRules(strategy: LoadedPriceOrder): string[] {
  const { spec } = strategy;
  if (spec.entry) return ['entry'];
  const ladder = spec.take_profit ?? [];
  const rules = ladder.map((_, i) => `take_profit[${i}]`);
  const covered = ladder.length > 0 && ladder.reduce((sum, rung) => sum + (rung.sell.kind === 'share' ? rung.sell.fraction : 0n), 0n) >= ONE;
  if (spec.stop_loss && (spec.execution === 'local' || !covered)) rules.push('stop_loss');
  if (spec.trailing_stop) rules.push('trailing_stop');
  return rules;
}

/**
 * Whether a generation's exits are done: every rule filled, or a stop that sells everything held
 * filled (a local stop loss, any trailing stop): the rungs it pre-empted will never fill.
 */
export function generationDone(strategy: LoadedPriceOrder, filled: ReadonlySet<string>): boolean {
  if (exitRules(strategy).every((rule) => filled.has(rule))) return true;
  return filled.has('trailing_stop') || (strategy.spec.execution === 'local' && filled.has('stop_loss'));
}

export function units(amount: Amount, base: bigint, decimals: number): bigint {
  return amount.kind === 'tokens' ? fixedToUnits(amount.tokens, decimals) : shareOf(base, amount.fraction);
}

function levelOf(level: PriceLevel, ref: Fixed): Fixed {
  return level.kind === 'absolute' ? level.usd : applyChange(ref, level.fraction);
}

/**
 * The exits with their vault orders: a rung is an OCO with the stop as its second leg (a single
 * `above` without a stop); in the vault, the stop alone covers only what no rung does; a trailing
 * stop is a single `below` with trailingBps (mode vault) or a trigger price (ratchet, local).
 *
 * Every vault order carries its slippage, and an OCO or OTOCO each leg's (`tpSlippageBps`,
 * `slSlippageBps`): the rule's own, else the strategy's `slippage_bps`, else the config's cap.
 * Trigger V2 gives a leg sent without one its own default, up to 2000 bps for a stop-loss.
 */
export function buildExits(strategy: LoadedPriceOrder, inputs: ExitInputs): Exit[] {
  const { spec } = strategy;
  const sell = tokenOf(strategy, 'sell');
  const receive = tokenOf(strategy, 'receive');
  const asked = (own: number | undefined): { swapSlippageBps?: number } => {
    const bps = own ?? spec.slippage_bps;
    return bps === undefined ? {} : { swapSlippageBps: bps };
  };
  const vaultSlippage = (own: number | undefined): number => own ?? spec.slippage_bps ?? strategy.limits.maxVaultSlippageBps;
  const stopSlippage = vaultSlippage(spec.stop_loss?.slippage_bps);
  const sellBase = { inputMint: sell.mint, inputDecimals: sell.decimals, outputMint: receive.mint, triggerMint: sell.mint };
  const exits: Exit[] = [];
  const stop = spec.stop_loss ? levelOf(spec.stop_loss.at, inputs.ref) : undefined;
  const stopText = stop === undefined ? '0' : formatFixed(stop);

  if (spec.entry) {
    const rung = spec.take_profit?.[0];
    const spend = units(spec.entry.spend, inputs.receiveBalance, receive.decimals);
    const entryPrice = spec.entry.buy_below.usd;
    const tp = rung ? levelOf(rung.at, inputs.ref) : entryPrice;
    exits.push({
      rule: 'entry',
      index: 0,
      amount: spend,
      fires: 'below',
      level: entryPrice,
      vault: {
        orderType: 'otoco',
        inputMint: receive.mint,
        inputDecimals: receive.decimals,
        outputMint: sell.mint,
        triggerMint: sell.mint,
        inputAmount: spend,
        triggerCondition: 'below',
        triggerPriceUsd: spec.entry.buy_below.text,
        tpPriceUsd: formatFixed(tp),
        slPriceUsd: stopText,
        slippageBps: vaultSlippage(spec.entry.slippage_bps),
        tpSlippageBps: vaultSlippage(rung?.slippage_bps),
        slSlippageBps: stopSlippage,
      },
    });
    return exits;
  }

  const local = spec.execution === 'local';
  let used = 0n;
  const ladder = spec.take_profit ?? [];
  for (let i = 0; i < ladder.length; i++) {
    const rung = ladder[i];
    if (!rung) continue;
    const at = levelOf(rung.at, inputs.ref);
    const rest = inputs.amountUnits - used;
    const wanted = units(rung.sell, inputs.amountUnits, sell.decimals);
    const amount = wanted < rest ? wanted : rest;
    used += amount;
    const tpSlippage = vaultSlippage(rung.slippage_bps);
    const vault: Exit['vault'] =
      stop === undefined
        ? { orderType: 'single', ...sellBase, inputAmount: amount, triggerCondition: 'above', triggerPriceUsd: formatFixed(at), slippageBps: tpSlippage }
        : {
            orderType: 'oco',
            ...sellBase,
            inputAmount: amount,
            tpPriceUsd: formatFixed(at),
            slPriceUsd: stopText,
            tpSlippageBps: tpSlippage,
            slSlippageBps: stopSlippage,
          };
    exits.push({ rule: `take_profit[${i}]`, index: i, amount, fires: 'above', level: at, ...asked(rung.slippage_bps), vault });
  }
  if (stop !== undefined) {
    // In the vault the stop rides on each rung's OCO, so only tokens no rung covers need their own
    // order; watched locally, the stop covers everything still held.
    const rest = ladder.length > 0 && !local ? inputs.amountUnits - used : inputs.amountUnits;
    if (ladder.length === 0 || local || rest > 0n) {
      exits.push({
        rule: 'stop_loss',
        index: 0,
        amount: rest,
        fires: 'below',
        level: stop,
        ...asked(spec.stop_loss?.slippage_bps),
        vault: { orderType: 'single', ...sellBase, inputAmount: rest, triggerCondition: 'below', triggerPriceUsd: stopText, slippageBps: stopSlippage },
      });
    }
  }
  const trail = spec.trailing_stop;
  if (trail) {
    const stopAt = mulFixed(inputs.peak, ONE - trail.distance.fraction);
    const single = {
      orderType: 'single',
      ...sellBase,
      inputAmount: inputs.amountUnits,
      triggerCondition: 'below',
      slippageBps: vaultSlippage(trail.slippage_bps),
    } as const;
    const vault: Exit['vault'] =
      !local && trail.mode === 'vault' ? { ...single, trailingBps: toBps(trail.distance.fraction) } : { ...single, triggerPriceUsd: formatFixed(stopAt) };
    exits.push({ rule: 'trailing_stop', index: 0, amount: inputs.amountUnits, fires: 'below', level: stopAt, ...asked(trail.slippage_bps), vault });
  }
  return exits;
}

/** An exit in plain words, for the intent's reason (built only when an intent is emitted). */
export function exitWords(strategy: LoadedPriceOrder, exit: Exit): string {
  const { spec } = strategy;
  const sell = tokenOf(strategy, 'sell').symbol;
  const receive = tokenOf(strategy, 'receive').symbol;
  const level = formatFixed(exit.level);
  if (exit.rule === 'entry') {
    return `buy ${sell} with ${receive} when it falls to $${level}, then take profit at $${exit.vault.tpPriceUsd ?? '?'} or stop at $${exit.vault.slPriceUsd ?? '?'}`;
  }
  if (exit.rule === 'stop_loss') return `stop loss: sell ${sell} if it falls to $${level}`;
  if (exit.rule === 'trailing_stop') return `trailing stop: sell ${sell} if it falls ${spec.trailing_stop?.distance.text ?? ''} below its peak (now $${level})`;
  const rung = spec.take_profit?.[exit.index];
  const stop = exit.vault.slPriceUsd === undefined ? '' : ` (stop at $${exit.vault.slPriceUsd})`;
  return `take profit on ${rung?.sell.text ?? ''} of the position when ${sell} reaches $${level}${stop}`;
}
