/**
 * The live score's period and elapsed strings, read for the game's sport as docs/strategies.md
 * ("Live scores") says: every documented format to its documented number, and every string that
 * does not read to a null with the problem in words.
 */
import { describe, expect, it } from 'vitest';
import type { ScoredGame, ScoreMap } from '../../../../src/engine/feeds/scores.js';
import { scoreViews } from '../../../../src/engine/tick/predictionViews.js';
import { readGameClock } from '../../../../src/engine/tick/readGameClock.js';
import { sportOf } from '../../../../src/engine/tick/sportOf.js';
import type { ScoreView } from '../../../../src/strategies/snapshot.js';

const MIN = 60_000;
const S = 1000;

interface Game {
  league?: string | null;
  subcategory?: string | null;
  category?: string | null;
}

function view(game: Game, period: string | null, elapsed: string | null, live = true): ScoreView | undefined {
  const score: ScoredGame = {
    eventId: 'E',
    gameId: 'g',
    leagueAbbreviation: game.league ?? null,
    homeTeam: null,
    awayTeam: null,
    score: '1-0',
    period,
    elapsed,
    status: null,
    live,
    ended: false,
    finishedTimestamp: null,
    updatedAt: null,
    ...(game.subcategory === undefined ? {} : { eventSubcategory: game.subcategory }),
    ...(game.category === undefined ? {} : { eventCategory: game.category }),
  };
  const scores: ScoreMap = new Map([['E', score]]);
  return scoreViews(scores).get('E');
}

const EPL = { league: 'epl' };
const NBA = { league: 'nba' };
const NFL = { league: 'nfl' };
const NHL = { league: 'nhl' };

describe('live score periods and clocks, read by sport', () => {
  it.each<[string, Game, string | null, string | null, number | null, number | null]>([
    // Soccer: halves; one match clock counts up from kick-off; elapsed is what is played of the current half.
    ['soccer, first half, minute', EPL, '1H', '32', 1, 32 * MIN],
    ['soccer, first half, match clock', EPL, '1H', '32:15', 1, 32 * MIN + 15 * S],
    ['soccer, first-half stoppage', EPL, '1H', '45+2', 1, 47 * MIN],
    ['soccer, half-time: the first half is over', EPL, 'HT', null, 1, 45 * MIN],
    ['soccer, half-time, whatever the clock says', EPL, 'HT', '45+3', 1, 45 * MIN],
    ['soccer, second half, minute 67', EPL, '2H', '67', 2, 22 * MIN],
    ['soccer, second half, minute 90', EPL, '2H', '90', 2, 45 * MIN],
    ['soccer, second-half stoppage', EPL, '2H', '90+3', 2, 48 * MIN],
    ['soccer, second half, match clock', EPL, '2H', '82:31', 2, 37 * MIN + 31 * S],
    ['soccer, extra time', EPL, 'OT', '98:00', 3, 8 * MIN],
    ['soccer, second half of extra time, stoppage', EPL, '2OT', '120+1', 4, 16 * MIN],
    // Basketball: the clock shows the time left; elapsed is the quarter's length minus it.
    ['NBA, fourth quarter', NBA, 'Q4', '5:18', 4, 6 * MIN + 42 * S],
    ['NBA, quarter written 4Q, at its start', NBA, '4Q', '12:00', 4, 0],
    ['NBA, end of the first quarter', NBA, 'Q1', '0:00', 1, 12 * MIN],
    ['NBA, half-time: the second quarter is over', NBA, 'HT', null, 2, 12 * MIN],
    ['NBA, overtime (5 minutes)', NBA, 'OT', '2:30', 5, 2 * MIN + 30 * S],
    ['NBA, second overtime', NBA, '2OT', '5:00', 6, 0],
    ['WNBA, 10-minute quarters', { league: 'wnba' }, 'Q2', '7:00', 2, 3 * MIN],
    ['college basketball, 20-minute halves', { league: 'ncaab' }, '2H', '12:34', 2, 7 * MIN + 26 * S],
    ['college basketball, half-time', { league: 'ncaab' }, 'HT', null, 1, 20 * MIN],
    ['college basketball, overtime after two halves', { league: 'ncaab' }, 'OT', '1:00', 3, 4 * MIN],
    // American football: 15-minute quarters counting down; overtime is not one length.
    ['NFL, fourth quarter', NFL, 'Q4', '5:18', 4, 9 * MIN + 42 * S],
    ['NFL, quarter written 3Q', NFL, '3Q', '12:34', 3, 2 * MIN + 26 * S],
    ['NFL, half-time', NFL, 'HT', null, 2, 15 * MIN],
    ['NFL, overtime: its period, not its clock', NFL, 'OT', '8:00', 5, null],
    // Hockey: 20-minute periods counting down.
    ['NHL, third period', NHL, 'P3', '12:34', 3, 7 * MIN + 26 * S],
    ['NHL, overtime: its period, not its clock', NHL, 'OT', '3:00', 4, null],
    // Esports: the map of a best-of; no clock.
    ['esports, map 2 of 3', { league: 'lck' }, '2/3', null, 2, null],
    ['esports, map 1 of 5', { league: 'cs2' }, '1/5', '12:00', 1, null],
    // The event's subcategory, then its category, when the league names no sport.
    ['a league unknown, subcategory soccer', { league: 'fac', subcategory: 'soccer' }, '2H', '90', 2, 45 * MIN],
    ['no league, category esports', { category: 'esports' }, '3/3', null, 3, null],
    // No sport known: periods that carry their own unit read, a clock does not.
    ['no sport known: a quarter', { league: 'xyz' }, 'Q3', '5:00', 3, null],
    ['no sport known: a half', { league: 'xyz' }, '2H', '67', 2, null],
    ['no sport known: a hockey period', {}, 'P2', '10:00', 2, null],
    ['no sport known: half-time', { league: 'xyz' }, 'HT', null, null, null],
  ])('%s: %s %s', (_name, game, period, elapsed, number, ms) => {
    expect(view(game, period, elapsed)).toMatchObject({ period: number, elapsedMs: ms, live: true });
  });

  it('reads "FT", "FT OT" and "FT NR" as a finished game, whatever `live` says', () => {
    for (const final of ['FT', 'FT OT', 'FT NR', 'VFT']) expect(view(EPL, final, '', true)).toMatchObject({ live: false, period: null, elapsedMs: null });
  });

  it('keeps the strings, the sport and the problems beside the numbers', () => {
    expect(view(NBA, 'Q4', '5:18')).toEqual({
      eventId: 'E',
      home: 1,
      away: 0,
      period: 4,
      elapsedMs: 402_000,
      live: true,
      sport: 'NBA (league "nba")',
      periodText: 'Q4',
      elapsedText: '5:18',
    });
    expect(view({ league: 'xyz', subcategory: 'curling' }, 'HT', null)).toEqual({
      eventId: 'E',
      home: 1,
      away: 0,
      period: null,
      elapsedMs: null,
      live: true,
      sport: null,
      periodText: 'HT',
      elapsedText: null,
      periodProblem: '"HT" depends on the sport, and the API names none jupbot knows (league "xyz", subcategory "curling")',
      elapsedProblem: 'it needs the period, and "HT" depends on the sport, and the API names none jupbot knows (league "xyz", subcategory "curling")',
    });
  });

  it.each<[string, Game, string | null, string | null, string, string | undefined]>([
    ['no period', NBA, null, '5:00', 'the API gives no period', 'the API gives no period'],
    ['a period in no form', NBA, 'Z9', '5:00', '"Z9" is not a period jupbot reads', 'it needs the period, and "Z9" is not a period jupbot reads'],
    [
      'halves in a league of quarters',
      NBA,
      '2H',
      null,
      '"2H" is not a period of NBA (league "nba"), which reads Q1–Q4 or 1Q–4Q, HT, OT, 2OT…',
      'it needs the period, and "2H" is not a period of NBA (league "nba"), which reads Q1–Q4 or 1Q–4Q, HT, OT, 2OT…',
    ],
    [
      'quarters in soccer',
      EPL,
      'Q4',
      '80',
      '"Q4" is not a period of soccer (league "epl"), which reads 1H, 2H, HT, OT, 2OT',
      'it needs the period, and "Q4" is not a period of soccer (league "epl"), which reads 1H, 2H, HT, OT, 2OT',
    ],
    [
      'a third extra time in soccer',
      EPL,
      '3OT',
      '125',
      '"3OT": soccer has two periods of extra time (OT, 2OT)',
      'it needs the period, and "3OT": soccer has two periods of extra time (OT, 2OT)',
    ],
    [
      'half-time in hockey',
      NHL,
      'HT',
      null,
      '"HT" is not a period of NHL (league "nhl"), which reads P1–P3, OT, 2OT…',
      'it needs the period, and "HT" is not a period of NHL (league "nhl"), which reads P1–P3, OT, 2OT…',
    ],
    [
      'overtime in esports',
      { league: 'lck' },
      'OT',
      null,
      '"OT" is not a period of esports (league "lck"), which reads 1/3, 2/3… (map of a best-of)',
      'it needs the period, and "OT" is not a period of esports (league "lck"), which reads 1/3, 2/3… (map of a best-of)',
    ],
    [
      'overtime in basketball of no known league',
      { league: 'bbl', subcategory: 'basketball' },
      'OT',
      '2:00',
      '"OT" is not a period of basketball (subcategory "basketball"), whose league does not say whether it plays halves or quarters',
      'it needs the period, and "OT" is not a period of basketball (subcategory "basketball"), whose league does not say whether it plays halves or quarters',
    ],
    ['map 4 of 3', { league: 'lck' }, '4/3', null, '"4/3" is not a period jupbot reads', 'it needs the period, and "4/3" is not a period jupbot reads'],
  ])('the period does not read: %s', (_name, game, period, elapsed, periodProblem, elapsedProblem) => {
    expect(view(game, period, elapsed)).toMatchObject({ period: null, elapsedMs: null, periodProblem, elapsedProblem });
  });

  it.each<[string, Game, string, string | null, number, string]>([
    ['more time left than a quarter has', NBA, 'Q4', '12:34', 4, 'elapsed "12:34" left is more than a whole NBA quarter (12:00)'],
    ['more time left than an overtime has', NBA, 'OT', '5:01', 5, 'elapsed "5:01" left is more than a whole NBA overtime (5:00)'],
    ['a countdown clock in minutes', NBA, 'Q4', '5', 4, 'elapsed "5" is not a countdown clock (m:ss left in the period)'],
    [
      'NFL overtime',
      NFL,
      'OT',
      '8:00',
      5,
      'an NFL overtime lasts 10 minutes in the regular season and 15 in the playoffs, so "8:00" left says nothing of the time played',
    ],
    [
      'NHL overtime',
      NHL,
      'OT',
      '3:00',
      4,
      'an NHL overtime lasts 5 minutes in the regular season and 20 in the playoffs, so "3:00" left says nothing of the time played',
    ],
    [
      'a quarter of basketball of no known league',
      { subcategory: 'basketball' },
      'Q2',
      '5:00',
      2,
      'the length of a basketball period is not known (subcategory "basketball")',
    ],
    ['a soccer clock before its half starts', EPL, '2H', '30', 2, 'elapsed "30" is before this period starts (45\')'],
    ['first-half stoppage in the second half', EPL, '2H', '45+2', 2, 'elapsed "45+2": stoppage in this period counts from 90\', not 45\''],
    ['a soccer clock in no form', EPL, '2H', "67'", 2, 'elapsed "67\'" is not a soccer clock (67, 67:15 or 45+2)'],
    ['no clock at all', EPL, '2H', null, 2, 'the API gives no elapsed time'],
    ['an empty clock', NBA, 'Q3', '', 3, 'the API gives no elapsed time'],
    ['esports', { league: 'lck' }, '2/3', '12:00', 2, 'esports scores carry no game clock'],
    [
      'no sport known',
      { league: 'xyz' },
      'Q3',
      '5:00',
      3,
      'the API names no sport jupbot knows (league "xyz"), so neither the direction nor the length of its clock is known',
    ],
  ])('the clock does not read: %s', (_name, game, period, elapsed, number, elapsedProblem) => {
    const v = view(game, period, elapsed);
    expect(v).toMatchObject({ period: number, elapsedMs: null, elapsedProblem });
    expect(v).not.toHaveProperty('periodProblem');
  });

  it('names the sport by league first, then subcategory, then category; "football" alone names none', () => {
    expect(sportOf({ league: 'NBA', subcategory: 'soccer' })).toMatchObject({ sport: 'basketball', name: 'NBA', source: 'league "NBA"' });
    expect(sportOf({ league: 'FAC', subcategory: 'Soccer' })).toMatchObject({ sport: 'soccer', source: 'subcategory "Soccer"' });
    expect(sportOf({ league: 'G2', subcategory: 'league of legends' })).toMatchObject({ sport: 'esports' });
    expect(sportOf({ category: 'esports' })).toMatchObject({ sport: 'esports', source: 'category "esports"' });
    expect(sportOf({ league: null, subcategory: 'football', category: 'sports' })).toBeNull();
    expect(readGameClock('Q4', '5:18', null)).toEqual({
      period: 4,
      elapsedMs: null,
      over: false,
      elapsedProblem: 'the API names no sport jupbot knows (no league or category), so neither the direction nor the length of its clock is known',
    });
  });
});
