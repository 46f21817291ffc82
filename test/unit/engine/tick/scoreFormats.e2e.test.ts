/**
 * Every live-score format the simulator serves, read by the daemon end to end: a prediction-exit
 * rule with period and elapsed conditions on a game in that format, through the engine's feeds, the
 * snapshot, decide() and the executor. Each rule is watched from a little before the moment its
 * conditions are met (it must not fire early) to a little after (it must fire, with the API's
 * strings and the numbers read from them in its evidence). The simulator's timeline per game is in
 * src/sim/prediction/markets.ts (GAME_FORMATS) and gameClock.ts.
 */
import { describe, expect, it } from 'vitest';
import { scoreViews } from '../../../../src/engine/tick/predictionViews.js';
import { createLogger } from '../../../../src/ops/log.js';
import type { Db } from '../../../../src/store/db.js';
import type { ScoreView } from '../../../../src/strategies/snapshot.js';
import { MemoryStream } from '../../../support/memoryStream.js';
import { buyPosition } from '../../../support/buyPosition.js';
import { NBA_EVENT, NBA_MARKET } from '../../../support/intentPlans.js';
import { actions } from '../../../support/journalRows.js';
import { testWorld, type TestWorld } from '../../../support/testStack.js';
import { strategies } from './support.js';
import { startTradingStack, type TradingStackOptions, type TradingStack } from './tradingSupport.js';

const MIN = 60_000;
const H = 60 * MIN;
/** When the test world begins (test/support/testStack.ts). */
const WORLD_START = Date.UTC(2026, 0, 1, 12);

interface Game {
  readonly event: string;
  readonly market: string;
}

const NBA: Game = { event: NBA_EVENT, market: NBA_MARKET };
const NFL: Game = { event: 'NFL-1002', market: 'NFL-1002-M1' };
const EPL: Game = { event: 'EPL-1003', market: 'EPL-1003-M1' };
const NHL: Game = { event: 'NHL-1004', market: 'NHL-1004-M1' };
const LCK: Game = { event: 'LCK-1005', market: 'LCK-1005-M1' };
const FAC: Game = { event: 'FAC-1012', market: 'FAC-1012-M1' };

function strategy(game: Game, score: string): string {
  return `name: exit\nkind: prediction-exit\npositions: { market: ${game.market} }\nrules:\n  - { id: late, when: { score: { ${score} } } }\n`;
}

function sells(db: Db): Array<{ kind: string; rule: string; state: string }> {
  return db.prepare("SELECT kind, rule, state FROM intents WHERE kind = 'sell-position' ORDER BY created_at").all() as never;
}

function evidence(db: Db): Record<string, unknown> {
  const [planned] = actions(db, 'intent.planned');
  return (JSON.parse(planned?.data ?? '{}') as { evidence?: Record<string, unknown> }).evidence ?? {};
}

/** The game's score as the snapshot reads it now. */
function scoreNow(s: TradingStack, game: Game): ScoreView | undefined {
  return scoreViews(s.feeds.scores.state().value).get(game.event);
}

/**
 * The world `at` ms after its start, holding a YES position in the game's market, with the strategy
 * running: five ticks in which the rule must not fire, the score read as `quiet` says at the end of
 * them (just short of the rule's conditions), then at most `within` more in which it must fire.
 */
async function firesOnTime(
  seed: string,
  game: Game,
  score: string,
  at: number,
  expected: { quiet: Record<string, unknown>; within?: number; setUp?: (w: TestWorld) => Promise<void> },
): Promise<Record<string, unknown>> {
  const w = testWorld({ seed, paperWallet: true });
  await expected.setUp?.(w);
  await w.sim.control.advance(WORLD_START + at - 2_000 - w.clock.now());
  // The paper wallet holds NBA YES; any other game's position is bought (the keeper fills it in those 2 s).
  if (game !== NBA) await buyPosition(w, game.market);
  else await w.sim.control.advance(2_000);
  const s = await startTradingStack(w, await strategies(strategy(game, score)));
  await s.tick(5);
  expect(sells(s.db)).toEqual([]);
  expect(scoreNow(s, game)).toMatchObject(expected.quiet);
  for (let i = 0; i < (expected.within ?? 2) && sells(s.db).length === 0; i++) await s.tick(1);
  // Journaled and sent in the tick that fired; confirmed as the keeper fills it.
  for (let i = 0; i < 4 && sells(s.db)[0]?.state !== 'confirmed'; i++) await s.tick(1);
  expect(sells(s.db)).toEqual([{ kind: 'sell-position', rule: 'late', state: 'confirmed' }]);
  const fired = evidence(s.db);
  await s.stop();
  return fired;
}

describe('live-score formats, end to end over the simulator', () => {
  it('NBA "Q4" with a clock counting down a 12-minute quarter: fires once 6 minutes of the quarter are played', async () => {
    // Q4 runs from 85 to 115 minutes into the world; 6 of its 12 minutes are played at 100.
    const fired = await firesOnTime('formats-nba-q4', NBA, 'period_at_least: 4, elapsed_at_least: 6m', 99 * MIN, {
      quiet: { period: 4, periodText: 'Q4', elapsedText: '6:04', elapsedMs: 5 * MIN + 56_000 },
    });
    expect(fired).toMatchObject({ period: 4, periodText: 'Q4', sport: 'NBA (league "NBA")' });
    expect(fired['elapsedMs']).toBeGreaterThanOrEqual(6 * MIN);
    expect(fired['elapsedMs']).toBeLessThanOrEqual(6 * MIN + 8_000);
  });

  it('NBA "HT": the second quarter is over, so period 2 with its 12 minutes played', async () => {
    // Half-time runs from 40 to 55 minutes into the world; the second quarter's clock shows seconds before.
    const fired = await firesOnTime('formats-nba-ht', NBA, 'period_at_least: 2, elapsed_at_least: 12m', 38 * MIN, {
      quiet: { period: 2, periodText: 'Q2', elapsedText: '0:28', elapsedMs: 11 * MIN + 32_000 },
      within: 8,
    });
    expect(fired).toMatchObject({ period: 2, periodText: 'HT', elapsedMs: 12 * MIN, elapsedText: null });
  });

  it('NFL "4Q" with a clock counting down a 15-minute quarter', async () => {
    // The NFL game starts at 1 h; its fourth quarter at 155 minutes into the game, 5 of 15 minutes played 15 minutes later.
    const fired = await firesOnTime('formats-nfl-4q', NFL, 'period_at_least: 4, elapsed_at_least: 5m', H + 169 * MIN, {
      quiet: { period: 4, periodText: '4Q', elapsedText: '10:03', elapsedMs: 4 * MIN + 57_000 },
    });
    expect(fired).toMatchObject({ period: 4, periodText: '4Q', sport: 'NFL (league "NFL")' });
    expect(fired['elapsedMs']).toBeGreaterThanOrEqual(5 * MIN);
    expect(fired['elapsedMs']).toBeLessThanOrEqual(5 * MIN + 4_000);
  });

  it('soccer "1H" into stoppage time, "45+1": 46 minutes of the first half played', async () => {
    const fired = await firesOnTime('formats-epl-stoppage', EPL, 'period_at_least: 1, elapsed_at_least: 46m', 3 * H + 45 * MIN, {
      quiet: { period: 1, periodText: '1H', elapsedText: '45', elapsedMs: 45 * MIN },
    });
    expect(fired).toMatchObject({ period: 1, periodText: '1H', elapsedText: '45+1', elapsedMs: 46 * MIN, sport: 'soccer (league "EPL")' });
  });

  it('soccer "HT": the first half is over, not the second begun; the rule fires at "2H" "45"', async () => {
    // Half-time runs from 47 to 62 minutes into the match (two minutes of first-half stoppage).
    const fired = await firesOnTime('formats-epl-ht', EPL, 'period_at_least: 2', 3 * H + 59 * MIN, {
      quiet: { period: 1, periodText: 'HT', elapsedMs: 45 * MIN },
      within: 14,
    });
    expect(fired).toMatchObject({ period: 2, periodText: '2H', elapsedText: '45', elapsedMs: 0 });
  });

  it('soccer "2H" with the minute counting up: "65" is 20 minutes of the second half', async () => {
    const fired = await firesOnTime('formats-epl-2h', EPL, 'period_at_least: 2, elapsed_at_least: 20m', 3 * H + 81 * MIN, {
      quiet: { period: 2, periodText: '2H', elapsedText: '64', elapsedMs: 19 * MIN },
    });
    expect(fired).toMatchObject({ period: 2, periodText: '2H', elapsedText: '65', elapsedMs: 20 * MIN });
  });

  it('soccer match clock with seconds, "75:00" in the second half; the league unknown, the event says soccer', async () => {
    // The cup tie kicks off at 30 minutes; its second half at 63 minutes into the match (three minutes of stoppage before).
    const fired = await firesOnTime('formats-fac-clock', FAC, 'period_at_least: 2, elapsed_at_least: 30m', 30 * MIN + 92 * MIN, {
      quiet: { period: 2, periodText: '2H', elapsedText: '74:50', elapsedMs: 29 * MIN + 50_000 },
    });
    expect(fired).toMatchObject({ period: 2, periodText: '2H', sport: 'soccer (subcategory "soccer")' });
    expect(['75:00', '75:10']).toContain(fired['elapsedText']);
  });

  it('soccer extra time, "OT": the third period, its clock running on from 90:00', async () => {
    // Level when the second half ends (113 minutes into the match): extra time, played in full.
    const fired = await firesOnTime('formats-fac-ot', FAC, 'period_at_least: 3, elapsed_at_least: 5m', 30 * MIN + 117 * MIN, {
      quiet: { period: 3, periodText: 'OT', elapsedText: '94:50', elapsedMs: 4 * MIN + 50_000 },
      setUp: async (w) => {
        await w.sim.control.advance(30 * MIN + 112 * MIN + 55_000);
        w.sim.control.setScore(FAC.event, 1, 1);
      },
    });
    expect(fired).toMatchObject({ period: 3, periodText: 'OT', sport: 'soccer (subcategory "soccer")' });
    expect(['95:00', '95:10']).toContain(fired['elapsedText']);
  });

  it('NHL "P3" with a clock counting down a 20-minute period', async () => {
    // The NHL game starts at 26 h; its third period 80 minutes later; 10 of its 20 minutes are played at 100.
    const fired = await firesOnTime('formats-nhl-p3', NHL, 'period_at_least: 3, elapsed_at_least: 10m', 26 * H + 99 * MIN, {
      quiet: { period: 3, periodText: 'P3', elapsedText: '10:05', elapsedMs: 9 * MIN + 55_000 },
    });
    expect(fired).toMatchObject({ period: 3, periodText: 'P3', sport: 'NHL (league "NHL")' });
    expect(fired['elapsedMs']).toBeGreaterThanOrEqual(10 * MIN);
    expect(fired['elapsedMs']).toBeLessThanOrEqual(10 * MIN + 5_000);
  });

  it('esports "2/3": the second map of a best-of-three is period 2', async () => {
    const fired = await firesOnTime('formats-lck-map', LCK, 'period_at_least: 2', 2 * H + 34 * MIN, {
      quiet: { period: 1, periodText: '1/3', elapsedMs: null },
    });
    expect(fired).toMatchObject({ period: 2, periodText: '2/3', elapsedText: null, sport: 'esports (league "LCK")' });
  });
});

describe('a score value that does not read', () => {
  it('holds the rule with the reason in the rule status, logs it once per market, and fires once it reads', async () => {
    const w = testWorld({ seed: 'formats-unreadable', paperWallet: true });
    // A NO position in the same market as the paper wallet's YES: two positions wait, one line is logged.
    await buyPosition(w, NBA_MARKET, false);
    let garbled = true;
    const jupiterFetch: TradingStackOptions['jupiterFetch'] = (base) => async (input, init) => {
      const answer = await base(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (!garbled || url.pathname !== '/prediction/v1/events/scores') return answer;
      const body = (await answer.json()) as { data: Array<Record<string, unknown>> };
      for (const score of body.data) if (score['eventId'] === NBA_EVENT) score['period'] = 'Z9';
      const headers = new Headers(answer.headers);
      headers.delete('content-length');
      return new Response(JSON.stringify(body), { status: answer.status, headers });
    };
    const out = new MemoryStream();
    const s = await startTradingStack(w, await strategies(strategy(NBA, 'period_at_least: 1')), undefined, {
      log: createLogger({ destination: out }),
      jupiterFetch,
    });
    await s.tick(8);
    const reason = 'late waits on NBA-1001-M1: no period to compare ("Z9" is not a period jupbot reads)';
    expect(sells(s.db)).toEqual([]);
    // What `jupbot status` shows for the rule: waiting, and why.
    expect(s.ticks.status().strategies['exit']?.rules).toEqual([{ rule: 'late', state: 'waiting', why: reason }]);
    const waits = (): Record<string, unknown>[] => out.lines().filter((l) => typeof l['msg'] === 'string' && l['msg'].includes('waits on'));
    expect(waits()).toEqual([expect.objectContaining({ level: 'warn', strategy: 'exit', rule: 'late', msg: `exit: ${reason}` })]);

    // The API's period reads again: the rule fires for both positions, on "Q1".
    garbled = false;
    for (let i = 0; i < 6 && sells(s.db).filter((r) => r.state === 'confirmed').length < 2; i++) await s.tick(1);
    expect(sells(s.db)).toEqual([
      { kind: 'sell-position', rule: 'late', state: 'confirmed' },
      { kind: 'sell-position', rule: 'late', state: 'confirmed' },
    ]);
    expect(evidence(s.db)).toMatchObject({ period: 1, periodText: 'Q1' });
    expect(waits()).toHaveLength(1);
    await s.stop();
  });
});
