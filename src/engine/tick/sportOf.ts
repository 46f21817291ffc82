/**
 * Which sport a live score belongs to, and how that sport's clock runs, from what the API says of
 * the game: the score's `leagueAbbreviation` first (a league fixes the lengths: an NBA quarter is 12
 * minutes, a WNBA one 10), then the event's `subcategory`, then its `category`. Nothing is guessed
 * from the period string: "HT" follows the first of two halves in soccer and the second of four
 * quarters in basketball, and a clock of "5:18" is time left in an NFL quarter but time played in
 * a soccer match. A game whose sport none of these names reads only the periods that carry their own
 * unit (docs/strategies.md, "Live scores").
 */

export type Sport = 'soccer' | 'basketball' | 'american-football' | 'hockey' | 'esports';

export interface SportRules {
  readonly sport: Sport;
  /** What named the sport, for messages: `league "nba"`, `subcategory "soccer"`. */
  readonly source: string;
  /** The league's own name for messages ("NBA"), else the sport's ("basketball"). */
  readonly name: string;
  /** How regulation is divided; null when only the league would say (basketball plays quarters or halves). */
  readonly unit: 'half' | 'quarter' | 'period' | 'map' | null;
  /** One regulation period, ms; null when unknown. */
  readonly periodMs: number | null;
  /** One overtime period, ms; null when it is not one length (then {@link overtimeNote} says why). */
  readonly overtimeMs: number | null;
  readonly overtimeNote?: string;
  /**
   * `match`: one clock counts up from kick-off through every half (soccer); `countdown`: each period's
   * clock counts down to 0:00; `none`: the API gives no clock that measures play.
   */
  readonly clock: 'match' | 'countdown' | 'none';
}

type Rules = Omit<SportRules, 'source'>;

const MIN = 60_000;

const SOCCER: Rules = { sport: 'soccer', name: 'soccer', unit: 'half', periodMs: 45 * MIN, overtimeMs: 15 * MIN, clock: 'match' };
const BASKETBALL: Rules = { sport: 'basketball', name: 'basketball', unit: null, periodMs: null, overtimeMs: 5 * MIN, clock: 'countdown' };
const FOOTBALL: Rules = {
  sport: 'american-football',
  name: 'American football',
  unit: 'quarter',
  periodMs: 15 * MIN,
  overtimeMs: null,
  overtimeNote: 'American football overtime is not one length',
  clock: 'countdown',
};
const HOCKEY: Rules = {
  sport: 'hockey',
  name: 'hockey',
  unit: 'period',
  periodMs: 20 * MIN,
  overtimeMs: null,
  overtimeNote: 'hockey overtime is not one length',
  clock: 'countdown',
};
const ESPORTS: Rules = { sport: 'esports', name: 'esports', unit: 'map', periodMs: null, overtimeMs: null, clock: 'none' };

/** Leagues (as `leagueAbbreviation` or `subcategory`) and sports (as `subcategory` or `category`), lower case. */
const KNOWN = new Map<string, Rules>([
  ['nba', { ...BASKETBALL, name: 'NBA', unit: 'quarter', periodMs: 12 * MIN }],
  ['wnba', { ...BASKETBALL, name: 'WNBA', unit: 'quarter', periodMs: 10 * MIN }],
  ['ncaab', { ...BASKETBALL, name: 'NCAA basketball', unit: 'half', periodMs: 20 * MIN }],
  ['cbb', { ...BASKETBALL, name: 'college basketball', unit: 'half', periodMs: 20 * MIN }],
  ['basketball', BASKETBALL],
  ['nfl', { ...FOOTBALL, name: 'NFL', overtimeNote: 'an NFL overtime lasts 10 minutes in the regular season and 15 in the playoffs' }],
  ['cfb', { ...FOOTBALL, name: 'college football', overtimeNote: 'college football overtime has no clock' }],
  ['ncaaf', { ...FOOTBALL, name: 'college football', overtimeNote: 'college football overtime has no clock' }],
  ['american-football', FOOTBALL],
  ['nhl', { ...HOCKEY, name: 'NHL', overtimeNote: 'an NHL overtime lasts 5 minutes in the regular season and 20 in the playoffs' }],
  ['hockey', HOCKEY],
  ['ice-hockey', HOCKEY],
  ...['soccer', 'epl', 'ucl', 'uel', 'uecl', 'mls', 'lal', 'bun', 'sea', 'fl1', 'ere', 'efl'].map((k): [string, Rules] => [k, SOCCER]),
  ...['esports', 'cs2', 'csgo', 'lol', 'lck', 'lec', 'lcs', 'lpl', 'dota2', 'val', 'league-of-legends', 'counter-strike', 'dota-2', 'valorant'].map(
    (k): [string, Rules] => [k, ESPORTS],
  ),
]);

export interface SportHints {
  readonly league?: string | null | undefined;
  readonly subcategory?: string | null | undefined;
  readonly category?: string | null | undefined;
}

/** The sport's rules, or null when none of the hints names a sport jupbot knows. */
export function sportOf(hints: SportHints): SportRules | null {
  for (const field of ['league', 'subcategory', 'category'] as const) {
    const raw = hints[field];
    if (typeof raw !== 'string') continue;
    const rules = KNOWN.get(
      raw
        .trim()
        .toLowerCase()
        .replace(/[\s_]+/g, '-'),
    );
    if (rules) return { ...rules, source: `${field} "${raw}"` };
  }
  return null;
}

/** The hints as a message names them: `league "xyz", subcategory "abc"`, or `no league or category`. */
export function hintWords(hints: SportHints): string {
  const given = (['league', 'subcategory', 'category'] as const).filter((f) => typeof hints[f] === 'string' && hints[f] !== '');
  return given.length === 0 ? 'no league or category' : given.map((f) => `${f} "${hints[f] ?? ''}"`).join(', ');
}
