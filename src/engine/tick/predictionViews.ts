/**
 * The prediction feeds' values as the strategies see them (snapshot.ts): pure converters for
 * buildSnapshot. Nothing is guessed: a market whose status is not one the strategies know, or a score
 * whose display string does not read as "home-away", is left out — decide() then has no market (no
 * sell) or no score (no score rule fires), which is the safe reading of "unknown". A period or a
 * clock that does not read is kept as null with its problem, so the rules that need it wait, saying why.
 */
import type { MarketView, ScoreView } from '../../strategies/snapshot.js';
import type { MarketMap } from '../feeds/markets.js';
import type { ScoreMap } from '../feeds/scores.js';
import { readGameClock } from './readGameClock.js';
import { hintWords, sportOf } from './sportOf.js';

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

/**
 * Scores by event id. The period and elapsed strings are read for the game's sport, named by the
 * score's league or the event's subcategory or category (sportOf.ts); a string that does not read
 * leaves its number null with the problem beside it, for the rules that need it to wait on.
 */
export function scoreViews(scores: ScoreMap | undefined): Map<string, ScoreView> {
  const out = new Map<string, ScoreView>();
  for (const [eventId, s] of scores ?? []) {
    const points = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(s.score ?? '');
    if (!points) continue;
    const hints = { league: s.leagueAbbreviation, subcategory: s.eventSubcategory, category: s.eventCategory };
    const sport = sportOf(hints);
    const clock = readGameClock(s.period, s.elapsed, sport, hintWords(hints));
    out.set(eventId, {
      eventId,
      home: Number(points[1]),
      away: Number(points[2]),
      period: clock.period,
      elapsedMs: clock.elapsedMs,
      // "FT" while the API still says live: over, and no score rule acts on a finished game.
      live: s.live && !clock.over,
      sport: sport === null ? null : `${sport.name} (${sport.source})`,
      periodText: s.period ?? null,
      elapsedText: s.elapsed ?? null,
      ...(clock.periodProblem === undefined ? {} : { periodProblem: clock.periodProblem }),
      ...(clock.elapsedProblem === undefined ? {} : { elapsedProblem: clock.elapsedProblem }),
    });
  }
  return out;
}
