import { fixedToMicro, microToFixed, ONE, shareOf } from '../money/decimal.js';
import type { Decision, Evidence, Hold, Intent } from './intents.js';
import { makeKey } from './intents.js';
import type { LoadedPredictionExit } from './loadedStrategy.js';
import type { PredictionRule } from './predictionExitSchema.js';
import type { MarketView, PositionView, ScoreView, Snapshot, StrategyState } from './snapshot.js';

const EMPTY = new Set<string>();
const NO_PEAKS = new Map<string, bigint>();

/**
 * prediction-exit: for each open position the strategy manages, the first rule whose conditions
 * all hold sells it (whole, or a share), subject to trading status and the minimum sell price;
 * a settled, claimable position is claimed. One action per position per decision.
 */
export function decidePredictionExit(strategy: LoadedPredictionExit, state: StrategyState, snapshot: Snapshot, now: number): Decision {
  const { spec } = strategy;
  const intents: Intent[] = [];
  const holds: Hold[] = [];
  const handled = state.handled ?? EMPTY;
  const peaks = state.positionPeaks ?? NO_PEAKS;
  const minSell = spec.risk?.min_sell_price_usd;
  const minSellMicro = minSell ? fixedToMicro(minSell.usd) : undefined;
  // A market or event Jupiter does not know: no position can ever be in it, so no rule can act.
  // Said as a hold of every rule rather than left as silence; a claim still goes through.
  const unknown = unknownIdHolds(spec, snapshot);
  holds.push(...unknown);

  for (const position of snapshot.positions) {
    const market = snapshot.markets.get(position.marketId);
    if (!manages(spec, position, market)) continue;
    if (position.claimable && !position.claimed) {
      if (!spec.claim_when_settled) continue;
      const { key, id, slot } = makeKey(strategy, 'claim', position.pubkey);
      if (!handled.has(slot)) {
        intents.push({
          kind: 'claim-position',
          key,
          id,
          reason: `claim the payout of settled market ${position.marketId}`,
          evidence: { marketId: position.marketId, result: market?.result ?? null, contractsMicro: position.contractsMicro.toString() },
          positionPubkey: position.pubkey,
          marketId: position.marketId,
        });
      }
      continue;
    }
    if (unknown.length > 0 || position.contractsMicro <= 0n || position.claimed || !market || market.status !== 'open') continue;
    const sellPrice = position.sellPriceMicroUsd;
    const peak = sellPrice === null ? (peaks.get(position.pubkey) ?? null) : max(peaks.get(position.pubkey) ?? sellPrice, sellPrice);
    const score = snapshot.scores.get(market.eventId);
    for (const rule of spec.rules) {
      const { key, id, slot } = makeKey(strategy, rule.id, position.pubkey);
      // A whole sell already journaled ends this position's story; a partial one lets later rules fire.
      if (handled.has(slot)) {
        if (rule.action === 'sell') break;
        continue;
      }
      const evidence = evidenceOf(position, market, score, peak);
      // A period or clock the API gave but that does not read: the rule can neither fire nor be
      // ruled out, so it waits, saying why; the rules after it still decide.
      const unread = unreadable(rule, score);
      if (unread) {
        holds.push({
          rule: rule.id,
          reason: `${rule.id} waits on ${position.marketId}: ${unread.problem}`,
          evidence,
          logOnce: `${position.marketId}/${unread.field}`,
        });
        continue;
      }
      if (!fires(rule, spec.yes_team, position, market, score, peak, now)) continue;
      if (spec.require_trading_active && snapshot.tradingActive !== true) {
        holds.push({
          rule: rule.id,
          reason: `${rule.id} fired, held: trading is ${snapshot.tradingActive === false ? 'paused (/trading-status)' : 'of unknown status'}`,
          evidence,
        });
        break;
      }
      if (sellPrice === null) {
        holds.push({ rule: rule.id, reason: `${rule.id} fired, held: the market has no sell price`, evidence });
        break;
      }
      if (minSellMicro !== undefined && sellPrice < minSellMicro) {
        holds.push({
          rule: rule.id,
          reason: `${rule.id} fired, held: sell price $${micro(sellPrice)} is below risk.min_sell_price_usd ($${minSell?.text ?? ''})`,
          evidence,
        });
        break;
      }
      const side = position.isYes ? 'YES' : 'NO';
      const base = {
        key,
        id,
        evidence,
        positionPubkey: position.pubkey,
        marketId: position.marketId,
        isYes: position.isYes,
        ...(minSellMicro === undefined ? {} : { minSellPriceMicroUsd: minSellMicro }),
      };
      if (rule.action === 'sell_part' && rule.share) {
        const contracts = shareOf(position.contractsMicro, rule.share.fraction);
        intents.push({
          kind: 'partial-sell',
          ...base,
          contractsMicro: contracts,
          reason: `${rule.id}: sell ${rule.share.text} of the ${side} position in ${position.marketId} at $${micro(sellPrice)}`,
        });
      } else {
        intents.push({
          kind: 'sell-position',
          ...base,
          contractsMicro: position.contractsMicro,
          reason: `${rule.id}: sell the ${side} position in ${position.marketId} at $${micro(sellPrice)}`,
        });
      }
      break;
    }
  }
  return { intents, holds };
}

/**
 * The holds of a strategy whose `positions.market` or `positions.event` the API answered "not
 * found" for: every rule waits (a strategy without rules shows its claim waiting), with the reason
 * first so a shortened line still says it. None when both ids are known or not named.
 */
export function unknownIdHolds(spec: LoadedPredictionExit['spec'], snapshot: Pick<Snapshot, 'unknownMarkets' | 'unknownEvents'>): Hold[] {
  const { market, event } = spec.positions;
  const reason =
    market !== undefined && snapshot.unknownMarkets?.has(market)
      ? `market unknown: Jupiter has no market "${market}" (positions.market); see jupbot markets search`
      : event !== undefined && snapshot.unknownEvents?.has(event)
        ? `event unknown: Jupiter has no event "${event}" (positions.event); see jupbot events`
        : undefined;
  if (reason === undefined) return [];
  const rules = spec.rules.length > 0 ? spec.rules.map((r) => r.id) : ['claim'];
  return rules.map((rule) => ({ rule, reason }));
}

function manages(spec: LoadedPredictionExit['spec'], position: PositionView, market: MarketView | undefined): boolean {
  const { positions } = spec;
  if (positions.market !== undefined && position.marketId !== positions.market) return false;
  if (positions.event !== undefined && market?.eventId !== positions.event) return false;
  if (positions.side === 'yes' && !position.isYes) return false;
  if (positions.side === 'no' && position.isYes) return false;
  return true;
}

/** True when every condition of the rule holds now. */
export function fires(
  rule: PredictionRule,
  yesTeam: 'home' | 'away',
  position: PositionView,
  market: MarketView,
  score: ScoreView | undefined,
  peak: bigint | null,
  now: number,
): boolean {
  const { when } = rule;
  const price = position.sellPriceMicroUsd;
  if (when.sell_price_at_least && (price === null || microToFixed(price) < when.sell_price_at_least.usd)) return false;
  if (when.sell_price_at_most && (price === null || microToFixed(price) > when.sell_price_at_most.usd)) return false;
  if (when.trailing_from_peak) {
    if (price === null || peak === null) return false;
    const floor = fixedToMicro((microToFixed(peak) * (ONE - when.trailing_from_peak.fraction)) / ONE);
    if (price > floor) return false;
  }
  if (when.before_close !== undefined && market.closeTime - now > when.before_close) return false;
  const s = when.score;
  if (s) {
    if (!score || !score.live) return false;
    const backsHome = (yesTeam === 'home') === position.isYes;
    const lead = backsHome ? score.home - score.away : score.away - score.home;
    if (s.lead_at_least !== undefined && lead < s.lead_at_least) return false;
    if (s.deficit_at_least !== undefined && -lead < s.deficit_at_least) return false;
    if (s.period_at_least !== undefined && (score.period === null || score.period < s.period_at_least)) return false;
    if (s.elapsed_at_least !== undefined && (score.elapsedMs === null || score.elapsedMs < s.elapsed_at_least)) return false;
  }
  return true;
}

/** The score value a rule needs and the live game's score cannot give, and why; null when none. */
export function unreadable(rule: PredictionRule, score: ScoreView | undefined): { field: 'period' | 'elapsed'; problem: string } | null {
  const s = rule.when.score;
  if (!s || !score?.live) return null;
  if (s.period_at_least !== undefined && score.period === null)
    return { field: 'period', problem: `no period to compare (${score.periodProblem ?? 'the API gives no period'})` };
  if (s.elapsed_at_least !== undefined && score.elapsedMs === null)
    return { field: 'elapsed', problem: `no elapsed time to compare (${score.elapsedProblem ?? 'the API gives no elapsed time'})` };
  return null;
}

function evidenceOf(position: PositionView, market: MarketView, score: ScoreView | undefined, peak: bigint | null): Evidence {
  return {
    marketId: position.marketId,
    isYes: position.isYes,
    contractsMicro: position.contractsMicro.toString(),
    sellPriceMicroUsd: position.sellPriceMicroUsd === null ? null : position.sellPriceMicroUsd.toString(),
    peakMicroUsd: peak === null ? null : peak.toString(),
    closeTime: market.closeTime,
    score: score ? `${score.home}-${score.away}` : null,
    period: score?.period ?? null,
    elapsedMs: score?.elapsedMs ?? null,
    // What the API said, and the sport it was read for: the numbers above are readings of these.
    periodText: score?.periodText ?? null,
    elapsedText: score?.elapsedText ?? null,
    sport: score?.sport ?? null,
  };
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function micro(value: bigint): string {
  const whole = value / 1_000_000n;
  const frac = (value % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac === '' ? `${whole}` : `${whole}.${frac.length < 2 ? frac.padEnd(2, '0') : frac}`;
}
