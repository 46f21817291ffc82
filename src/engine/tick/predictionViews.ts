/**
 * The prediction feeds' values as the strategies see them (snapshot.ts): pure converters for
 * buildSnapshot. Nothing is guessed: a market whose status is not one the strategies know, or a score
 * whose display string does not read as "home-away", is left out — decide() then has no market (no
 * sell) or no score (no score rule fires), which is the safe reading of "unknown".
 */
import type { MarketView, ScoreView } from '../../strategies/snapshot.js';
import type { MarketMap } from '../feeds/markets.js';
import type { ScoreMap } from '../feeds/scores.js';

const STATUSES = new Set<MarketView['status']>(['open', 'closed', 'cancelled']);

/** Markets by id. An unknown close time reads as "not closing": a before-close rule never fires on it. */
export function marketViews(markets: MarketMap | undefined): Map<string, MarketView> {
  const out = new Map<string, MarketView>();
  for (const [id, m] of markets ?? []) {
    if (!STATUSES.has(m.status as MarketView['status'])) continue;
    out.set(id, {
      marketId: m.marketId,
      // No event: '' matches no strategy's `positions.event` and no score.
      eventId: m.eventId ?? '',
      status: m.status as MarketView['status'],
      closeTime: m.closeTime ?? Number.MAX_SAFE_INTEGER,
      result: m.result,
    });
  }
  return out;
}

/** Scores by event id. */
export function scoreViews(scores: ScoreMap | undefined): Map<string, ScoreView> {
  const out = new Map<string, ScoreView>();
  for (const [eventId, s] of scores ?? []) {
    const points = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(s.score ?? '');
    if (!points) continue;
    out.set(eventId, {
      eventId,
      home: Number(points[1]),
      away: Number(points[2]),
      period: periodOf(s.period),
      elapsedMs: elapsedOf(s.elapsed),
      live: s.live,
    });
  }
  return out;
}

/** "P4", "Q4", "4" → 4; anything else (null, "HT", "OT") → null. */
export function periodOf(period: string | null | undefined): number | null {
  const m = /^\s*[A-Za-z]{0,2}\s*(\d{1,2})\s*$/.exec(period ?? '');
  return m ? Number(m[1]) : null;
}

/** "mm:ss" (or "m:ss") of the current period → ms; anything else → null. */
export function elapsedOf(elapsed: string | null | undefined): number | null {
  const m = /^\s*(\d{1,3}):([0-5]\d)\s*$/.exec(elapsed ?? '');
  return m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : null;
}
