import type { DocPath } from '../config/diagnostics.js';
import type { Target } from '../config/yamlSource.js';
import { ONE } from '../money/decimal.js';
import type { DcaSpec } from './dcaSchema.js';
import { nextInstant } from './schedule.js';
import type { PredictionExitSpec } from './predictionExitSchema.js';
import type { PriceOrderSpec } from './priceOrderSchema.js';
import type { PriceLevel } from './strategyFields.js';
import type { StrategySpec } from './strategySchema.js';

/** A problem that needs more than one field to see, found after every field passed its schema. */
export interface RuleFinding {
  readonly path: DocPath;
  readonly message: string;
  readonly target?: Target;
}

/** Every cross-field problem of a schema-valid strategy, in no particular order. */
export function checkStrategyRules(spec: StrategySpec): RuleFinding[] {
  const findings: RuleFinding[] = [];
  const risk = spec.risk;
  if (risk?.max_notional_per_order_usd && risk.max_notional_per_day_usd && risk.max_notional_per_order_usd.usd > risk.max_notional_per_day_usd.usd) {
    findings.push({
      path: ['risk', 'max_notional_per_order_usd'],
      message: `risk.max_notional_per_order_usd (${risk.max_notional_per_order_usd.text}) is above risk.max_notional_per_day_usd (${risk.max_notional_per_day_usd.text}); no order could be placed`,
    });
  }
  switch (spec.kind) {
    case 'price-order':
      priceOrderRules(spec, findings);
      break;
    case 'dca':
      dcaRules(spec, findings);
      break;
    case 'prediction-exit':
      predictionRules(spec, findings);
      break;
  }
  return findings;
}

function priceOrderRules(spec: PriceOrderSpec, out: RuleFinding[]): void {
  const { take_profit: ladder, stop_loss: stop, trailing_stop: trail, entry } = spec;
  if (!ladder && !stop && !trail) {
    out.push({ path: ['kind'], message: 'a price-order needs at least one of take_profit, stop_loss or trailing_stop' });
  }
  if (spec.sell.toLowerCase() === spec.receive.toLowerCase()) {
    out.push({ path: ['receive'], message: `receive must differ from sell (both are ${JSON.stringify(spec.sell)})` });
  }
  ladder?.forEach((rung, i) => {
    if (rung.at.kind === 'relative' && rung.at.fraction < 0n) {
      out.push({
        path: ['take_profit', i, 'at'],
        message: `take_profit[${i}].at is ${rung.at.text}, below the reference price; a take-profit is above it (e.g. "+20%")`,
      });
    }
    const prev = ladder[i - 1];
    if (prev && prev.at.kind === rung.at.kind && levelValue(rung.at) <= levelValue(prev.at)) {
      out.push({
        path: ['take_profit', i, 'at'],
        message: `take_profit[${i}].at (${rung.at.text}) must be above take_profit[${i - 1}].at (${prev.at.text}): list the rungs lowest first`,
      });
    }
  });
  if (ladder && ladder.every((r) => r.sell.kind === 'share')) {
    const total = ladder.reduce((sum, r) => sum + (r.sell.kind === 'share' ? r.sell.fraction : 0n), 0n);
    if (total > ONE) {
      out.push({
        path: ['take_profit'],
        message: `the take_profit rungs sell ${percentText(total)} in total; together they may sell at most 100%`,
        target: 'key',
      });
    }
  }
  if (stop?.at.kind === 'relative' && stop.at.fraction > 0n) {
    out.push({ path: ['stop_loss', 'at'], message: `stop_loss.at is ${stop.at.text}, above the reference price; a stop loss is below it (e.g. "-10%")` });
  }
  if (stop?.at.kind === 'absolute' && ladder?.[0]?.at.kind === 'absolute' && stop.at.usd >= ladder[0].at.usd) {
    out.push({ path: ['stop_loss', 'at'], message: `stop_loss.at (${stop.at.text}) must be below take_profit[0].at (${ladder[0].at.text})` });
  }
  if (trail && stop) {
    out.push({ path: ['trailing_stop'], message: 'use either stop_loss or trailing_stop, not both: each would sell the same tokens', target: 'key' });
  }
  if (spec.execution === 'vault' && trail && ladder) {
    out.push({
      path: ['trailing_stop'],
      message:
        'with execution: vault, a trailing_stop cannot share tokens with take_profit (a vault OCO has no trailing leg); use execution: local or a second strategy',
      target: 'key',
    });
  }
  if (spec.execution === 'local' && trail && trail.mode === 'ratchet') {
    out.push({
      path: ['trailing_stop', 'mode'],
      message: 'mode: ratchet raises a vault order; with execution: local the stop is always watched locally, so leave mode out',
    });
  }
  if (entry) {
    if (spec.execution !== 'vault') out.push({ path: ['entry'], message: 'entry is an OTOCO vault order: it needs execution: vault', target: 'key' });
    if (!stop || ladder?.length !== 1) {
      out.push({
        path: ['entry'],
        message: "entry (OTOCO) needs exactly one take_profit rung and a stop_loss: they become the order's two exits",
        target: 'key',
      });
    }
    if (stop?.at.kind === 'absolute' && stop.at.usd >= entry.buy_below.usd) {
      out.push({ path: ['stop_loss', 'at'], message: `stop_loss.at (${stop.at.text}) must be below entry.buy_below (${entry.buy_below.text})` });
    }
  }
  if (spec.renew_before >= spec.expires_after) {
    out.push({ path: ['renew_before'], message: 'renew_before must be shorter than expires_after, or every order would be renewed at once' });
  }
}

const DAY_MS = 86_400_000;
/** A fixed week to measure schedules over (a Monday, away from DST changes in most zones). */
const PROBE_FROM = Date.UTC(2026, 0, 5);

/** The first `count` runs after `from`, no further than `span`. */
function firstRuns(cron: string, timezone: string, from: number, count: number, span = 7 * DAY_MS): number[] {
  const out: number[] = [];
  for (let at = nextInstant(cron, timezone, from); at !== null && at <= from + span && out.length < count; at = nextInstant(cron, timezone, at)) out.push(at);
  return out;
}

function shortestGap(cron: string, timezone: string): number | null {
  const runs = firstRuns(cron, timezone, PROBE_FROM, 300);
  let gap: number | null = null;
  for (let i = 1; i < runs.length; i++) gap = Math.min(gap ?? Number.POSITIVE_INFINITY, (runs[i] as number) - (runs[i - 1] as number));
  return gap;
}

/** The most runs in a day of the probe week, counted up to one past `cap` (enough to compare). */
function runsPerDay(cron: string, timezone: string, cap: number): number {
  let most = 0;
  for (let day = 0; day < 7; day++) most = Math.max(most, firstRuns(cron, timezone, PROBE_FROM + day * DAY_MS, cap + 1, DAY_MS).length);
  return most;
}

function formatGap(ms: number): string {
  return ms >= 60_000 ? `${ms / 60_000} min` : `${ms / 1000} s`;
}

function dcaRules(spec: DcaSpec, out: RuleFinding[]): void {
  if (spec.buy.toLowerCase() === spec.pay_with.toLowerCase()) {
    out.push({ path: ['pay_with'], message: `pay_with must differ from buy (both are ${JSON.stringify(spec.buy)})` });
  }
  if (spec.execution === 'swap') {
    if (!spec.schedule) out.push({ path: ['schedule'], message: 'execution: swap needs a schedule (cron and timezone)' });
    else {
      // Each run is a swap paying fees and price impact: a cron firing every few seconds is a mistake.
      const gap = shortestGap(spec.schedule.cron, spec.schedule.timezone);
      if (gap !== null && gap < spec.min_interval) {
        out.push({
          path: ['schedule', 'cron'],
          message: `${JSON.stringify(spec.schedule.cron)} fires ${formatGap(gap)} apart; a swap DCA runs at most every ${formatGap(spec.min_interval)} (min_interval; execution: vault has its own interval)`,
        });
      }
      // With runs at least `gap` apart, a day holds at most DAY / gap of them: count only when that could exceed the cap.
      const couldExceed = gap !== null && gap >= spec.min_interval && Math.floor(DAY_MS / gap) > spec.max_runs_per_day;
      const perDay = couldExceed ? runsPerDay(spec.schedule.cron, spec.schedule.timezone, spec.max_runs_per_day) : 0;
      if (perDay > spec.max_runs_per_day) {
        out.push({
          path: ['schedule', 'cron'],
          message: `${JSON.stringify(spec.schedule.cron)} fires more than max_runs_per_day (${spec.max_runs_per_day}) times a day; raise max_runs_per_day or run less often`,
        });
      }
    }
    if (spec.vault) out.push({ path: ['vault'], message: 'vault settings apply to execution: vault only', target: 'key' });
    return;
  }
  if (!spec.vault) out.push({ path: ['vault'], message: 'execution: vault needs a vault section (orders and interval)' });
  if (spec.schedule)
    out.push({ path: ['schedule'], message: "execution: vault runs on the order's own interval; remove schedule (or use execution: swap)", target: 'key' });
  const vault = spec.vault;
  if (!vault) return;
  const priced = vault.min_price_usd !== undefined || vault.max_price_usd !== undefined;
  if (vault.type === 'price_conditional' && !priced) {
    out.push({ path: ['vault', 'type'], message: 'type: price_conditional needs vault.min_price_usd or vault.max_price_usd' });
  }
  if (vault.type === 'time_based' && priced) {
    const key = vault.min_price_usd !== undefined ? 'min_price_usd' : 'max_price_usd';
    out.push({ path: ['vault', key], message: `vault.${key} applies to type: price_conditional only`, target: 'key' });
  }
  if (vault.min_price_usd && vault.max_price_usd && vault.min_price_usd.usd >= vault.max_price_usd.usd) {
    out.push({
      path: ['vault', 'max_price_usd'],
      message: `vault.max_price_usd (${vault.max_price_usd.text}) must be above vault.min_price_usd (${vault.min_price_usd.text})`,
    });
  }
}

function predictionRules(spec: PredictionExitSpec, out: RuleFinding[]): void {
  if (spec.positions.market === undefined && spec.positions.event === undefined) {
    out.push({ path: ['positions'], message: 'positions needs a market or an event: which positions do these rules manage?', target: 'key' });
  }
  if (spec.rules.length === 0 && !spec.claim_when_settled) {
    out.push({ path: ['rules'], message: 'no rules and claim_when_settled is false: this strategy would never act', target: 'key' });
  }
  const seen = new Map<string, number>();
  spec.rules.forEach((rule, i) => {
    const first = seen.get(rule.id);
    if (first !== undefined) out.push({ path: ['rules', i, 'id'], message: `rule id ${JSON.stringify(rule.id)} is already used by rules[${first}]` });
    else seen.set(rule.id, i);
    const when = rule.when;
    if (Object.keys(when).length === 0)
      out.push({ path: ['rules', i, 'when'], message: `rules[${i}].when has no condition; give at least one`, target: 'key' });
    for (const key of ['sell_price_at_least', 'sell_price_at_most'] as const) {
      const price = when[key];
      if (price && price.usd > ONE)
        out.push({ path: ['rules', i, 'when', key], message: `rules[${i}].when.${key} is ${price.text}, but a contract pays at most $1` });
    }
    if (when.score && Object.keys(when.score).length === 0)
      out.push({ path: ['rules', i, 'when', 'score'], message: `rules[${i}].when.score has no condition`, target: 'key' });
    if (when.score?.lead_at_least !== undefined && when.score.deficit_at_least !== undefined) {
      out.push({
        path: ['rules', i, 'when', 'score', 'deficit_at_least'],
        message: 'a side cannot lead and trail at once: give lead_at_least or deficit_at_least',
        target: 'key',
      });
    }
    if (rule.action === 'sell_part' && !rule.share) out.push({ path: ['rules', i, 'action'], message: 'action: sell_part needs a share (e.g. share: "50%")' });
    if (rule.action === 'sell' && rule.share)
      out.push({ path: ['rules', i, 'share'], message: 'share applies to action: sell_part only (sell sells the whole position)', target: 'key' });
  });
  const min = spec.risk?.min_sell_price_usd;
  if (min && min.usd > ONE)
    out.push({ path: ['risk', 'min_sell_price_usd'], message: `risk.min_sell_price_usd is ${min.text}, but a contract pays at most $1` });
}

function levelValue(level: PriceLevel): bigint {
  return level.kind === 'absolute' ? level.usd : level.fraction;
}

function percentText(fraction: bigint): string {
  const hundredths = (fraction * 10_000n) / ONE;
  const whole = hundredths / 100n;
  const rest = hundredths % 100n;
  return rest === 0n ? `${whole}%` : `${whole}.${rest.toString().padStart(2, '0').replace(/0$/, '')}%`;
}
