import type { Random } from '../../random.js';
import { atHalftime, type GameFormat, overtimeName, regulationMs } from './gameClock.js';

/** Prediction prices are micro-USD: 1,000,000 = $1 = one winning contract's payout. */
export const MICRO = 1_000_000;
const HALF_SPREAD = 10_000;
const MIN_PRICE = 10_000;
const MAX_PRICE = 990_000;
/** Closed markets settle this long after closing (lifecycle `resolving` in between). */
const SETTLE_DELAY_MS = 60_000;

export type Category = 'crypto' | 'sports' | 'politics' | 'economics' | 'tech' | 'culture' | 'esports';

export interface Game {
  readonly gameId: string;
  readonly league: string;
  readonly home: string;
  readonly away: string;
  readonly periods: number;
  /** World time of one regulation period (before stoppage). */
  readonly periodMs: number;
  /** How its period and clock read on the wire (gameClock.ts). */
  readonly format: GameFormat;
  /** Chance per step that a team scores, and how much. */
  readonly scoreChance: number;
  readonly points: readonly number[];
  readonly startsAt: number;
  homeScore: number;
  awayScore: number;
  finishedAt: number | null;
  /** Regulation ended level: overtime was played. */
  playedOvertime: boolean;
  /** When a leader next wins: the end of regulation, then of each overtime period. */
  decidesAt: number;
  updatedAt: number;
}

export interface PMarket {
  readonly marketId: string;
  readonly eventId: string;
  readonly title: string;
  readonly openTime: number;
  /** Epoch ms. Sports markets close when the game ends. */
  closeTime: number;
  /** Mid price of YES in micro-USD. */
  mid: number;
  /** Daily volatility of the logit walk. */
  readonly volatility: number;
  status: 'open' | 'closed' | 'cancelled';
  result: 'yes' | 'no' | null;
  resolvedAt: number | null;
  volume: number;
  readonly isTeamMarket: boolean;
}

export interface PEvent {
  readonly eventId: string;
  readonly title: string;
  readonly category: Category;
  readonly subcategory: string;
  readonly series: string;
  readonly beginAt: number;
  readonly markets: PMarket[];
  readonly game: Game | null;
}

const clamp = (n: number): number => Math.min(MAX_PRICE, Math.max(MIN_PRICE, Math.round(n)));

export function pricesOf(m: PMarket): { buyYes: number | null; buyNo: number | null; sellYes: number | null; sellNo: number | null } {
  if (m.status !== 'open') return { buyYes: null, buyNo: null, sellYes: null, sellNo: null };
  const buyYes = clamp(m.mid + HALF_SPREAD);
  const sellYes = clamp(m.mid - HALF_SPREAD);
  return { buyYes, sellYes, buyNo: MICRO - sellYes, sellNo: MICRO - buyYes };
}

/**
 * The prediction world: events across categories, markets whose YES price walks in logit space,
 * games whose scores progress through periods to an end, and markets that close and settle.
 */
export class PredictionMarkets {
  readonly events: PEvent[] = [];
  /** The events a step can still change, in the order of `events`. */
  #active: PEvent[] = [];
  readonly #markets = new Map<string, PMarket>();
  #count = 0;
  /** Settlement hooks (claims, lost positions) run by the trading side. */
  onSettle: (market: PMarket, t: number) => void = () => undefined;

  readonly #walks: boolean;

  constructor(
    private readonly random: Random,
    start: number,
    options: { readonly walk?: boolean } = {},
  ) {
    this.#walks = options.walk !== false;
    this.#build(start);
  }

  /**
   * Sets the mid so that one contract of `side` sells for `usd` (within the tradable band). A market
   * that is not open keeps its price: false. A game's market follows its game again on the next step.
   */
  setMark(m: PMarket, side: 'yes' | 'no', usd: number): boolean {
    if (!(usd >= 0 && usd <= 1)) throw new RangeError(`a mark is a price between 0 and 1 USD, got ${usd}`);
    if (m.status !== 'open') return false;
    const sell = Math.round(usd * MICRO);
    m.mid = clamp(side === 'yes' ? sell + HALF_SPREAD : MICRO - sell - HALF_SPREAD);
    return true;
  }

  market(marketId: string): PMarket | undefined {
    return this.#markets.get(marketId);
  }

  event(eventId: string): PEvent | undefined {
    return this.events.find((e) => e.eventId === eventId);
  }

  eventOf(market: PMarket): PEvent {
    return this.event(market.eventId) as PEvent;
  }

  step(t: number, dtMs: number): void {
    // Index loop: a settlement during the step appends the successor, which steps this time too.
    const active = this.#active;
    for (let i = 0; i < active.length; i++) {
      const event = active[i] as PEvent;
      const game = event.game;
      if (game && t >= game.startsAt && game.finishedAt === null) this.#playGame(event, game, t);
      for (const m of event.markets) {
        if (m.status === 'open') {
          if (!game && this.#walks) this.#walk(m, dtMs);
          m.volume += Math.round(this.random.next() * 50);
          // Game markets close when the game ends, whatever the scheduled close said.
          if (!game && t >= m.closeTime) m.status = 'closed';
        }
        const decided = !game || game.finishedAt !== null;
        if (m.status === 'closed' && m.result === null && decided && t >= m.closeTime + SETTLE_DELAY_MS) this.settle(m, this.#outcome(m, game), t);
      }
    }
    // An event whose markets are all settled and whose game (if any) is over changes no more: a run
    // of weeks would otherwise step every game it ever played, every second.
    this.#active = active.filter((e) => !(e.markets.every((m) => m.result !== null) && (e.game === null || e.game.finishedAt !== null)));
  }

  /**
   * Sets a game's score (control surface), so a test can script "up by 20 in the 4th". The game goes
   * on from there, and its market's price follows the new lead on the next step.
   */
  setScore(eventId: string, home: number, away: number, t: number): void {
    const game = this.event(eventId)?.game;
    if (!game) throw new RangeError(`no game for event ${eventId}`);
    if (!Number.isInteger(home) || !Number.isInteger(away) || home < 0 || away < 0)
      throw new RangeError(`a score is two non-negative integers, got ${home}-${away}`);
    if (game.finishedAt !== null) throw new RangeError(`the game of event ${eventId} has ended`);
    game.homeScore = home;
    game.awayScore = away;
    game.updatedAt = t;
  }

  /** Forces a result (control surface) or records the natural one. */
  settle(m: PMarket, result: 'yes' | 'no', t: number): void {
    if (m.result !== null) return;
    m.status = 'closed';
    m.closeTime = Math.min(m.closeTime, t);
    m.result = result;
    m.resolvedAt = t;
    m.mid = result === 'yes' ? MICRO : 0;
    this.onSettle(m, t);
    const event = this.eventOf(m);
    if (event.markets.every((x) => x.result !== null)) this.#rollover(event, t);
  }

  /**
   * A settled event gets a successor (the next game, the next period's question), so a paper run of
   * weeks always has live games and open markets.
   */
  #rollover(old: PEvent, t: number): void {
    const H = 3_600_000;
    const g = old.game;
    const game: Game | null = g
      ? {
          ...g,
          gameId: `${g.gameId.replace(/-\d+$/, '')}-${this.#count + 1}`,
          home: g.away,
          away: g.home,
          startsAt: t + H,
          homeScore: 0,
          awayScore: 0,
          finishedAt: null,
          playedOvertime: false,
          decidesAt: t + H + regulationMs(g),
          updatedAt: t,
        }
      : null;
    const length = game ? regulationMs(game) + 2 * H : Math.max(H, Math.max(...old.markets.map((m) => m.closeTime)) - old.beginAt);
    const eventId = this.#nextEventId(old.series);
    const successor: PEvent = {
      eventId,
      title: game ? `${game.home} vs ${game.away}` : old.title,
      category: old.category,
      subcategory: old.subcategory,
      series: old.series,
      beginAt: game ? game.startsAt : t,
      game,
      markets: old.markets.map((m, i) => ({
        marketId: `${eventId}-M${i + 1}`,
        eventId,
        title: game ? `${game.home} win` : m.title,
        openTime: t,
        closeTime: (game ? game.startsAt : t) + length,
        mid: 500_000,
        volatility: m.volatility,
        status: 'open',
        result: null,
        resolvedAt: null,
        volume: 0,
        isTeamMarket: m.isTeamMarket,
      })),
    };
    for (const m of successor.markets) this.#markets.set(m.marketId, m);
    this.events.push(successor);
    this.#active.push(successor);
  }

  #nextEventId(series: string): string {
    this.#count++;
    return `${series}-${String(1000 + this.#count)}`;
  }

  #outcome(m: PMarket, game: Game | null): 'yes' | 'no' {
    if (game) return game.homeScore > game.awayScore ? 'yes' : 'no';
    return this.random.next() * MICRO < m.mid ? 'yes' : 'no';
  }

  #walk(m: PMarket, dtMs: number): void {
    const p = m.mid / MICRO;
    const logit = Math.log(p / (1 - p));
    const z = gaussian(this.random);
    const next = logit + m.volatility * Math.sqrt(dtMs / 86_400_000) * z;
    m.mid = clamp(MICRO / (1 + Math.exp(-next)));
  }

  #playGame(event: PEvent, game: Game, t: number): void {
    // Nobody scores at half-time; the draws are made all the same, so the world's randomness does not shift.
    const playing = !atHalftime(game, t);
    for (const side of ['home', 'away'] as const) {
      if (this.random.next() < game.scoreChance) {
        const pts = game.points[this.random.int(0, game.points.length - 1)] ?? 1;
        if (!playing) continue;
        if (side === 'home') game.homeScore += pts;
        else game.awayScore += pts;
        game.updatedAt = t;
      }
    }
    const total = regulationMs(game);
    const played = Math.min(1, (t - game.startsAt) / total);
    // Win probability from the lead, sharper as the clock runs out.
    const lead = game.homeScore - game.awayScore;
    const scale = game.points.length > 1 ? 6 : 1;
    const p = 1 / (1 + Math.exp(-(lead / scale) * (0.5 + 3 * played)));
    const market = event.markets[0] as PMarket;
    if (market.status === 'open') market.mid = clamp(p * MICRO);
    if (t < game.decidesAt) return;
    if (lead === 0) {
      // Level when a result was due: another period of overtime, played in full; after the last
      // one the next score wins (a golden goal, the simulator's stand-in for a shoot-out).
      const f = game.format;
      const end = game.startsAt + total;
      const begun = Math.round((game.decidesAt - end) / f.overtimeMs) + 1;
      game.playedOvertime = true;
      game.decidesAt = f.overtime !== null && begun <= f.maxOvertimes ? end + begun * f.overtimeMs : t;
    } else {
      game.finishedAt = t;
      game.updatedAt = t;
      for (const m of event.markets) {
        m.closeTime = t;
        m.status = 'closed';
      }
    }
  }

  #build(start: number): void {
    const H = 3_600_000;
    const D = 24 * H;
    const add = (
      category: Category,
      subcategory: string,
      series: string,
      title: string,
      beginAt: number,
      markets: { title: string; closeIn: number; mid: number; vol: number }[],
      game: Game | null = null,
    ): void => {
      const eventId = this.#nextEventId(series);
      const n = this.#count;
      const event: PEvent = {
        eventId,
        title,
        category,
        subcategory,
        series,
        beginAt,
        game,
        markets: markets.map((m, i) => ({
          marketId: `${eventId}-M${i + 1}`,
          eventId,
          title: m.title,
          openTime: start - 7 * D,
          closeTime: start + m.closeIn,
          mid: m.mid,
          volatility: m.vol,
          status: 'open',
          result: null,
          resolvedAt: null,
          volume: 10_000 + n * 1_337,
          isTeamMarket: game !== null,
        })),
      };
      for (const m of event.markets) this.#markets.set(m.marketId, m);
      this.events.push(event);
      this.#active.push(event);
    };
    const game = (
      gameId: string,
      league: string,
      home: string,
      away: string,
      startsIn: number,
      periods: number,
      periodMs: number,
      format: GameFormat,
      scoreChance: number,
      points: number[],
    ): Game => ({
      gameId,
      league,
      home,
      away,
      periods,
      periodMs,
      format,
      scoreChance,
      points,
      startsAt: start + startsIn,
      homeScore: 0,
      awayScore: 0,
      finishedAt: null,
      playedOvertime: false,
      decidesAt: start + startsIn + regulationMs({ periods, periodMs, format }),
      updatedAt: start,
    });
    const M = 60_000;
    const nba = game('g-nba-1', 'NBA', 'Los Angeles Lakers', 'Boston Celtics', -20 * M, 4, 30 * M, GAME_FORMATS.nba, 0.02, [2, 2, 3, 1]);
    add('sports', 'basketball', 'NBA', 'Lakers vs Celtics', nba.startsAt, [{ title: 'Lakers win', closeIn: 3 * H, mid: 500_000, vol: 0 }], nba);
    const nfl = game('g-nfl-1', 'NFL', 'Kansas City Chiefs', 'Buffalo Bills', H, 4, 45 * M, GAME_FORMATS.nfl, 0.003, [3, 7, 7]);
    add('sports', 'football', 'NFL', 'Chiefs vs Bills', nfl.startsAt, [{ title: 'Chiefs win', closeIn: 5 * H, mid: 550_000, vol: 0 }], nfl);
    const epl = game('g-epl-1', 'EPL', 'Arsenal', 'Chelsea', 3 * H, 2, 45 * M, GAME_FORMATS.league, 0.0006, [1]);
    add('sports', 'soccer', 'EPL', 'Arsenal vs Chelsea', epl.startsAt, [{ title: 'Arsenal win', closeIn: 6 * H, mid: 480_000, vol: 0 }], epl);
    const nhl = game('g-nhl-1', 'NHL', 'Toronto Maple Leafs', 'Montreal Canadiens', 26 * H, 3, 40 * M, GAME_FORMATS.nhl, 0.0012, [1]);
    add('sports', 'hockey', 'NHL', 'Maple Leafs vs Canadiens', nhl.startsAt, [{ title: 'Maple Leafs win', closeIn: 30 * H, mid: 560_000, vol: 0 }], nhl);
    const lol = game('g-lol-1', 'LCK', 'T1', 'Gen.G', 2 * H, 3, 35 * M, GAME_FORMATS.bestOf3, 0.0008, [1]);
    add('esports', 'league-of-legends', 'LCK', 'T1 vs Gen.G', lol.startsAt, [{ title: 'T1 win', closeIn: 5 * H, mid: 520_000, vol: 0 }], lol);
    add('crypto', 'bitcoin', 'BTC', 'Bitcoin price at month end', start, [
      { title: 'BTC above $120,000 on Jan 31', closeIn: 30 * D, mid: 420_000, vol: 1.2 },
      { title: 'BTC above $100,000 on Jan 31', closeIn: 30 * D, mid: 710_000, vol: 1.0 },
    ]);
    add('crypto', 'solana', 'SOL', 'SOL above $200 tomorrow', start, [{ title: 'SOL above $200 at 00:00 UTC', closeIn: 20 * H, mid: 180_000, vol: 2.5 }]);
    add('politics', 'us', 'POL', 'Senate passes the budget bill this week', start, [{ title: 'Passes by Friday', closeIn: 4 * D, mid: 350_000, vol: 1.5 }]);
    add('economics', 'fed', 'FED', 'Fed decision in January', start, [
      { title: 'Rate cut', closeIn: 12 * D, mid: 250_000, vol: 0.8 },
      { title: 'No change', closeIn: 12 * D, mid: 700_000, vol: 0.8 },
    ]);
    add('tech', 'ai', 'TECH', 'New frontier model released this month', start, [{ title: 'Released by Jan 31', closeIn: 30 * D, mid: 600_000, vol: 0.7 }]);
    add('culture', 'awards', 'CULT', 'Best Picture winner announced', start, [{ title: 'Favourite wins', closeIn: 8 * H, mid: 650_000, vol: 1.0 }]);
    // Added last, so the events before it keep their ids. A cup tie: level after 90 minutes, it goes
    // to extra time. Its league is one the daemon does not know: the event's subcategory says soccer.
    const cup = game('g-fac-1', 'FAC', 'Liverpool', 'Everton', 30 * M, 2, 45 * M, GAME_FORMATS.cup, 0.0006, [1]);
    add('sports', 'soccer', 'FAC', 'Liverpool vs Everton', cup.startsAt, [{ title: 'Liverpool win', closeIn: 4 * H, mid: 530_000, vol: 0 }], cup);
  }
}

const MIN = 60_000;

/** Soccer: two 45-minute halves, 15 minutes of half-time, extra time of two 15-minute halves. */
const SOCCER: GameFormat = {
  name: (n) => `${n}H`,
  overtime: overtimeName,
  clock: 'minutes',
  clockMs: 45 * MIN,
  overtimeClockMs: 15 * MIN,
  overtimeMs: 15 * MIN,
  halftime: { after: 1, ms: 15 * MIN },
  stoppageMs: [2 * MIN, 4 * MIN],
  maxOvertimes: 2,
};

/** The wire formats of the simulator's games, one per kind of competition (gameClock.ts). */
const GAME_FORMATS = {
  /** NBA: `Q1`…`Q4`, 12-minute quarters counting down, half-time, 5-minute overtimes. */
  nba: {
    name: (n) => `Q${n}`,
    overtime: overtimeName,
    clock: 'countdown',
    clockMs: 12 * MIN,
    overtimeClockMs: 5 * MIN,
    overtimeMs: 12.5 * MIN,
    halftime: { after: 2, ms: 15 * MIN },
    stoppageMs: [],
    maxOvertimes: Number.POSITIVE_INFINITY,
  },
  /** NFL: `1Q`…`4Q`, 15-minute quarters counting down, half-time, 10-minute overtimes. */
  nfl: {
    name: (n) => `${n}Q`,
    overtime: overtimeName,
    clock: 'countdown',
    clockMs: 15 * MIN,
    overtimeClockMs: 10 * MIN,
    overtimeMs: 30 * MIN,
    halftime: { after: 2, ms: 20 * MIN },
    stoppageMs: [],
    maxOvertimes: Number.POSITIVE_INFINITY,
  },
  /** NHL: `P1`…`P3`, 20-minute periods counting down, 5-minute overtimes. */
  nhl: {
    name: (n) => `P${n}`,
    overtime: overtimeName,
    clock: 'countdown',
    clockMs: 20 * MIN,
    overtimeClockMs: 5 * MIN,
    overtimeMs: 10 * MIN,
    halftime: null,
    stoppageMs: [],
    maxOvertimes: Number.POSITIVE_INFINITY,
  },
  /** A soccer league match: `1H`, `HT`, `2H`, the minute counting up (`67`, `45+2`). */
  league: SOCCER,
  /** A soccer cup tie: the match clock with seconds (`82:31`), extra time `OT`, `2OT`. */
  cup: { ...SOCCER, clock: 'match-clock', stoppageMs: [3 * MIN, 5 * MIN] },
  /** An esports best-of-three: map `1/3`…`3/3`, no clock. */
  bestOf3: {
    name: (n) => `${n}/3`,
    overtime: null,
    clock: 'none',
    clockMs: 35 * MIN,
    overtimeClockMs: 35 * MIN,
    overtimeMs: 35 * MIN,
    halftime: null,
    stoppageMs: [],
    maxOvertimes: 0,
  },
} satisfies Record<string, GameFormat>;

function gaussian(random: Random): number {
  const u = Math.max(random.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}
