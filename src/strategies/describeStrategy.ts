import { formatDuration } from '../config/duration.js';
import type { Fixed } from '../money/decimal.js';
import { applyChange, formatFixed } from '../money/decimal.js';
import type { DcaSpec } from './dcaSchema.js';
import type { Decision } from './intents.js';
import type { PredictionExitSpec, PredictionRule } from './predictionExitSchema.js';
import type { PriceOrderSpec } from './priceOrderSchema.js';
import type { Firing } from './schedule.js';
import { firingAt, nextInstant } from './schedule.js';
import type { Amount, PriceLevel } from './strategyFields.js';
import type { StrategySpec } from './strategySchema.js';

/** What `jupbot plan` knows beyond the file: the price of the traded token, if any. */
export interface PlanContext {
  readonly now: number;
  /** USD price of the token sold (price-order) or bought (dca). */
  readonly priceUsd?: Fixed;
}

/**
 * A strategy in plain words: what it will do and on what condition, one line per rule. Pure:
 * `jupbot plan` prints it, followed by what decide() would ask for now.
 */
export function describeStrategy(spec: StrategySpec, ctx: PlanContext): string[] {
  const lines: string[] = [];
  switch (spec.kind) {
    case 'price-order':
      priceOrderLines(spec, ctx, lines);
      break;
    case 'dca':
      dcaLines(spec, ctx, lines);
      break;
    case 'prediction-exit':
      predictionLines(spec, lines);
      break;
  }
  const risk = spec.risk;
  const limits = [
    risk?.max_notional_per_order_usd && `at most $${risk.max_notional_per_order_usd.text} per order`,
    risk?.max_notional_per_day_usd && `at most $${risk.max_notional_per_day_usd.text} per UTC day`,
    risk?.max_price_impact && `no swap with a price impact above ${risk.max_price_impact.text}`,
    risk?.min_sell_price_usd && `never sell below $${risk.min_sell_price_usd.text}`,
  ].filter((x): x is string => typeof x === 'string');
  if (limits.length > 0) lines.push(`risk: ${limits.join('; ')}`);
  if (spec.allow_unverified) lines.push('allow_unverified: true — unverified or flagged tokens are accepted');
  return lines;
}

/** The decision in plain words: `now: …` lines. */
export function describeDecision(decision: Decision): string[] {
  const lines = decision.intents.map((i) => `now: ${i.kind} — ${i.reason}`);
  for (const hold of decision.holds) lines.push(`now: held (${hold.rule}) — ${hold.reason}`);
  if (lines.length === 0) lines.push('now: nothing to do; waiting for a condition');
  return lines;
}

function amountWords(amount: Amount, symbol: string): string {
  return amount.kind === 'share' ? `${amount.text} of the ${symbol} balance` : `${amount.text} ${symbol}`;
}

function priceOrderLines(spec: PriceOrderSpec, ctx: PlanContext, lines: string[]): void {
  const ref = spec.entry?.buy_below.usd ?? spec.reference_price_usd?.usd ?? ctx.priceUsd;
  const refWords = spec.entry
    ? 'the entry price'
    : spec.reference_price_usd
      ? 'reference_price_usd'
      : ctx.priceUsd !== undefined
        ? 'the price now (fixed when armed)'
        : 'the price when armed';
  const at = (level: PriceLevel): string => {
    if (level.kind === 'absolute') return `$${level.text}`;
    return ref === undefined ? `${level.text} from ${refWords}` : `$${formatFixed(applyChange(ref, level.fraction))} (${level.text} from ${refWords})`;
  };
  const mode = spec.execution === 'vault' ? 'Trigger V2 vault orders' : 'watched locally, swapped through /swap/v2';
  lines.push(`${spec.execution === 'vault' ? 'vault' : 'local'}: ${mode}; covers ${amountWords(spec.amount, spec.sell)}, sold for ${spec.receive}`);
  if (ctx.priceUsd !== undefined) lines.push(`${spec.sell} is $${formatFixed(ctx.priceUsd)} now`);
  if (spec.entry) {
    lines.push(`entry: when ${spec.sell} falls to $${spec.entry.buy_below.text}, buy it with ${amountWords(spec.entry.spend, spec.receive)} (OTOCO parent)`);
  }
  spec.take_profit?.forEach((rung, i) => {
    const leg = spec.execution === 'vault' && spec.stop_loss && !spec.entry ? ', as an OCO with the stop loss' : '';
    lines.push(
      `take_profit[${i}]: when ${spec.sell} rises to ${at(rung.at)}, sell ${rung.sell.text}${rung.sell.kind === 'share' ? ' of the amount' : ` ${spec.sell}`}${leg}`,
    );
  });
  if (spec.stop_loss) lines.push(`stop_loss: when ${spec.sell} falls to ${at(spec.stop_loss.at)}, sell what is left`);
  const trail = spec.trailing_stop;
  if (trail) {
    const how =
      spec.execution === 'local'
        ? 'watched locally'
        : trail.mode === 'vault'
          ? `the order's own trailingBps (${trail.distance.text})`
          : `a stop the daemon raises by PATCH when the peak moves it ${trail.ratchet_step.text} or more`;
    lines.push(`trailing_stop: when ${spec.sell} falls ${trail.distance.text} below its highest price since arming, sell — ${how}`);
  }
  if (spec.execution === 'vault')
    lines.push(`orders last ${formatDuration(spec.expires_after)} and are renewed ${formatDuration(spec.renew_before)} before they expire`);
  lines.push(spec.rearm ? 'after every exit has filled, arms again on the new balance' : 'after every exit has filled, stops');
}

function dcaLines(spec: DcaSpec, ctx: PlanContext, lines: string[]): void {
  if (spec.execution === 'vault' && spec.vault) {
    const v = spec.vault;
    const bounds = [v.min_price_usd && `price at least $${v.min_price_usd.text}`, v.max_price_usd && `price at most $${v.max_price_usd.text}`]
      .filter(Boolean)
      .join(' and ');
    lines.push(
      `vault: one Trigger V2 DCA order, ${v.orders} rounds of ${amountWords(spec.amount, spec.pay_with)} into ${spec.buy}, one every ${formatDuration(v.interval)}${bounds ? `, only while the ${bounds}` : ''}`,
    );
    lines.push('placed once; Jupiter fills the rounds whether or not the daemon runs');
    return;
  }
  const schedule = spec.schedule;
  if (!schedule) return;
  lines.push(`swap: buys ${spec.buy} with ${amountWords(spec.amount, spec.pay_with)} at "${schedule.cron}" in ${schedule.timezone}`);
  const next = nextInstant(schedule.cron, schedule.timezone, ctx.now);
  if (next !== null) {
    const firing = clockWords(firingAt(schedule.cron, schedule.timezone, next));
    lines.push(`next run: ${new Date(next).toISOString()} (${localTime(next, schedule.timezone)} ${schedule.timezone}${firing})`);
  }
  const policy = { skip: 'skipped', run_once: 'folded into one run', run_all: 'each run, oldest first' }[spec.catch_up];
  lines.push(`a run more than ${formatDuration(spec.on_time_within)} late counts as missed; missed runs are ${policy} (catch_up: ${spec.catch_up})`);
}

function predictionLines(spec: PredictionExitSpec, lines: string[]): void {
  const where = [spec.positions.market && `market ${spec.positions.market}`, spec.positions.event && `event ${spec.positions.event}`]
    .filter(Boolean)
    .join(', ');
  lines.push(
    `manages ${spec.positions.side === 'any' ? 'YES and NO' : spec.positions.side.toUpperCase()} positions in ${where}; YES backs the ${spec.yes_team} team`,
  );
  for (const rule of spec.rules) lines.push(`${rule.id}: ${ruleWords(rule)}`);
  if (spec.rules.length > 0) lines.push('the first rule whose conditions all hold acts; one action per position at a time');
  lines.push(spec.require_trading_active ? 'sells only while /trading-status says trading is active' : 'sells even when trading status is off or unknown');
  lines.push(spec.claim_when_settled ? 'claims the payout once the market settles' : 'does not claim settled payouts');
}

function ruleWords(rule: PredictionRule): string {
  const w = rule.when;
  const conditions = [
    w.sell_price_at_least && `the sell price is at least $${w.sell_price_at_least.text}`,
    w.sell_price_at_most && `the sell price is at most $${w.sell_price_at_most.text}`,
    w.trailing_from_peak && `the sell price is ${w.trailing_from_peak.text} below its peak`,
    w.before_close !== undefined && `the market closes within ${formatDuration(w.before_close)}`,
    w.score?.lead_at_least !== undefined && `the side held leads by ${w.score.lead_at_least}+`,
    w.score?.deficit_at_least !== undefined && `the side held trails by ${w.score.deficit_at_least}+`,
    w.score?.period_at_least !== undefined && `it is period ${w.score.period_at_least} or later`,
    w.score?.elapsed_at_least !== undefined && `${formatDuration(w.score.elapsed_at_least)} of the period are played`,
  ].filter((x): x is string => typeof x === 'string');
  const action = rule.action === 'sell_part' && rule.share ? `sell ${rule.share.text} of the position` : 'sell the whole position';
  return `${action} when ${conditions.join(' and ')}`;
}

/** On a day the clocks change, which scheduled local time the run is (the clock alone would mislead). */
function clockWords(firing: Firing): string {
  const hhmm = new Date(firing.local).toISOString().slice(11, 16);
  switch (firing.clock) {
    case 'ordinary':
      return '';
    case 'skipped':
      return `, for ${hhmm}, which the clocks skip that day`;
    case 'first':
      return `, the first of that day's two ${hhmm}s`;
    case 'second':
      return `, the second of that day's two ${hhmm}s`;
  }
}

function localTime(t: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(t));
}
