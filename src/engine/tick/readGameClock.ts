/**
 * A live score's `period` and `elapsed` strings as the numbers `period_at_least` and
 * `elapsed_at_least` compare (docs/strategies.md, "Live scores"): the period as its number in the
 * sport's count, overtime continuing it; elapsed as the time played in the current period. Which
 * sport the game is decides what the strings mean (sportOf.ts). A string that does not read is not
 * guessed at: its number is null and the problem says, in words, what came and what was expected,
 * so the rule that needs it waits and the operator is told why.
 */
import type { SportRules } from './sportOf.js';

export interface GameClock {
  /** The period in the sport's count (overtime continues it); null when not given or unreadable. */
  readonly period: number | null;
  /** Time played in the current period, ms; null when not given or unreadable. */
  readonly elapsedMs: number | null;
  /** The API says the game is over ("FT", "FT OT", "FT NR"): no score rule acts on it. */
  readonly over: boolean;
  /** Why `period` is null; absent when it read. */
  readonly periodProblem?: string;
  /** Why `elapsedMs` is null; absent when it read. */
  readonly elapsedProblem?: string;
}

type Token =
  | { readonly kind: 'half' | 'quarter' | 'period' | 'map'; readonly n: number }
  | { readonly kind: 'halftime' }
  | { readonly kind: 'overtime'; readonly n: number }
  | { readonly kind: 'over' };

/** Where the current period stands: its number, and whether it is overtime or the half-time break. */
interface Place {
  readonly period: number;
  readonly overtime: boolean;
  readonly halftime: boolean;
}

const MIN = 60_000;

/** The forms each unit is written in, for messages. */
const FORMS: Record<NonNullable<SportRules['unit']>, string> = {
  half: '1H, 2H, HT, OT, 2OT',
  quarter: 'Q1–Q4 or 1Q–4Q, HT, OT, 2OT…',
  period: 'P1–P3, OT, 2OT…',
  map: '1/3, 2/3… (map of a best-of)',
};

/** Regulation periods of each unit. */
const REGULATION: Record<'half' | 'quarter' | 'period', number> = { half: 2, quarter: 4, period: 3 };

/** `unknown`: when `sport` is null, what the API said of the game instead (sportOf.ts `hintWords`), for messages. */
export function readGameClock(
  period: string | null | undefined,
  elapsed: string | null | undefined,
  sport: SportRules | null,
  unknown = 'no league or category',
): GameClock {
  const text = (period ?? '').trim();
  if (text === '') return { period: null, elapsedMs: null, over: false, periodProblem: 'the API gives no period', elapsedProblem: 'the API gives no period' };
  const token = tokenOf(text);
  if (token?.kind === 'over') return { period: null, elapsedMs: null, over: true };
  const place = token === null ? `"${text}" is not a period jupbot reads` : placeOf(token, text, sport, unknown);
  if (typeof place === 'string')
    return { period: null, elapsedMs: null, over: false, periodProblem: place, elapsedProblem: `it needs the period, and ${place}` };
  const played = elapsedOf(place, (elapsed ?? '').trim(), sport, unknown);
  return typeof played === 'string'
    ? { period: place.period, elapsedMs: null, over: false, elapsedProblem: played }
    : { period: place.period, elapsedMs: played, over: false };
}

function tokenOf(raw: string): Token | null {
  const t = raw.toUpperCase().replace(/\s+/g, ' ');
  let m: RegExpExecArray | null;
  if (/^V?FT( OT| NR)?$/.test(t)) return { kind: 'over' };
  if (t === 'HT') return { kind: 'halftime' };
  if ((m = /^([12])H$/.exec(t))) return { kind: 'half', n: Number(m[1]) };
  if ((m = /^Q([1-4])$/.exec(t) ?? /^([1-4])Q$/.exec(t))) return { kind: 'quarter', n: Number(m[1]) };
  if ((m = /^P([1-3])$/.exec(t))) return { kind: 'period', n: Number(m[1]) };
  if ((m = /^([2-9])?OT$/.exec(t))) return { kind: 'overtime', n: m[1] === undefined ? 1 : Number(m[1]) };
  if ((m = /^(\d{1,2})\/(\d{1,2})$/.exec(t))) {
    const [n, of] = [Number(m[1]), Number(m[2])];
    return n >= 1 && n <= of ? { kind: 'map', n } : null;
  }
  return null;
}

function placeOf(token: Exclude<Token, { kind: 'over' }>, text: string, sport: SportRules | null, unknown: string): Place | string {
  const known = sport === null ? null : `${sport.name} (${sport.source})`;
  switch (token.kind) {
    case 'half':
    case 'quarter':
    case 'period':
    case 'map':
      // A unit the sport does not play is a contradiction, not a period to count.
      if (sport !== null && sport.unit !== token.kind && !(sport.unit === null && (token.kind === 'half' || token.kind === 'quarter')))
        return `"${text}" is not a period of ${known ?? ''}${sport.unit ? `, which reads ${FORMS[sport.unit]}` : ''}`;
      return { period: token.n, overtime: false, halftime: false };
    case 'halftime':
    case 'overtime': {
      const unit = sport?.unit ?? null;
      if (unit === null || unit === 'map')
        return sport === null
          ? `"${text}" depends on the sport, and the API names none jupbot knows (${unknown})`
          : `"${text}" is not a period of ${known ?? ''}${unit === 'map' ? `, which reads ${FORMS.map}` : ', whose league does not say whether it plays halves or quarters'}`;
      const regulation = REGULATION[unit];
      if (token.kind === 'halftime') {
        if (unit === 'period') return `"${text}" is not a period of ${known ?? ''}, which reads ${FORMS.period}`;
        return { period: regulation / 2, overtime: false, halftime: true };
      }
      if (sport?.sport === 'soccer' && token.n > 2) return `"${text}": soccer has two periods of extra time (OT, 2OT)`;
      return { period: regulation + token.n, overtime: true, halftime: false };
    }
  }
}

function elapsedOf(place: Place, text: string, sport: SportRules | null, unknown: string): number | string {
  if (sport === null) return `the API names no sport jupbot knows (${unknown}), so neither the direction nor the length of its clock is known`;
  const periodMs = sport.periodMs;
  // Half-time: the period before it is over, whatever the clock shows.
  if (place.halftime) return periodMs ?? `the length of a ${sport.name} period is not known (${sport.source})`;
  if (sport.clock === 'none') return `${sport.name} scores carry no game clock`;
  if (text === '') return 'the API gives no elapsed time';
  return sport.clock === 'countdown' ? countdown(place, text, sport) : matchClock(place, text, sport);
}

/** Basketball, American football, hockey: the clock shows the time left in the period. */
function countdown(place: Place, text: string, sport: SportRules): number | string {
  const m = /^(\d{1,2}):([0-5]\d)$/.exec(text);
  if (!m) return `elapsed "${text}" is not a countdown clock (m:ss left in the period)`;
  const length = place.overtime ? sport.overtimeMs : sport.periodMs;
  if (length === null)
    return place.overtime
      ? `${sport.overtimeNote ?? 'overtime is not one length'}, so "${text}" left says nothing of the time played`
      : `the length of a ${sport.name} period is not known (${sport.source})`;
  const left = (Number(m[1]) * 60 + Number(m[2])) * 1000;
  if (left > length)
    return `elapsed "${text}" left is more than a whole ${sport.name} ${place.overtime ? 'overtime' : (sport.unit ?? 'period')} (${clockWords(length)})`;
  return length - left;
}

/** Soccer: one clock counts up from kick-off; each half (and each half of extra time) starts where the last one was due to end. */
function matchClock(place: Place, text: string, sport: SportRules): number | string {
  const regulation = sport.periodMs ?? 45 * MIN;
  const extra = sport.overtimeMs ?? 15 * MIN;
  const start = place.period <= 2 ? (place.period - 1) * regulation : 2 * regulation + (place.period - 3) * extra;
  const due = start + (place.period <= 2 ? regulation : extra);
  let clock: number;
  let m: RegExpExecArray | null;
  if ((m = /^(\d{1,3})$/.exec(text))) clock = Number(m[1]) * MIN;
  else if ((m = /^(\d{1,3}):([0-5]\d)$/.exec(text))) clock = Number(m[1]) * MIN + Number(m[2]) * 1000;
  else if ((m = /^(\d{1,3})\+(\d{1,2})$/.exec(text))) {
    // Stoppage time is written from the minute the period was due to end: "45+2" is the 47th minute of the first half.
    if (Number(m[1]) * MIN !== due) return `elapsed "${text}": stoppage in this period counts from ${due / MIN}', not ${m[1]}'`;
    clock = due + Number(m[2]) * MIN;
  } else return `elapsed "${text}" is not a soccer clock (67, 67:15 or 45+2)`;
  if (clock < start) return `elapsed "${text}" is before this period starts (${start / MIN}')`;
  return clock - start;
}

function clockWords(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
