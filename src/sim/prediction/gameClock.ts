/**
 * How a simulated game's period and clock read on the wire, sport by sport, as the real scores feed
 * writes them: quarters as `Q4` (NBA) or `4Q` (NFL), halves as `1H`/`2H` with `HT` between,
 * hockey periods as `P3`, esports maps as `2/3`, overtime as `OT`, `2OT`…, and `FT` (`FT OT`) once
 * over. Clocks count down the time left in a period (`11:34`, basketball, American football, hockey),
 * count the minutes of a soccer match up from kick-off (`67`, and `45+2` in stoppage time), or run
 * as a soccer match clock with seconds (`82:31`); esports have none.
 *
 * World time and game time differ where the real ones do: a basketball quarter of 12 minutes on
 * the clock takes longer in the world (the clock stops), a soccer clock runs with the world.
 */

export type ClockStyle = 'countdown' | 'minutes' | 'match-clock' | 'none';

export interface GameFormat {
  /** The API's name of regulation period `n` (1-based). */
  readonly name: (n: number) => string;
  /** The API's name of overtime period `n`; null: there is none, the last period goes on until someone leads. */
  readonly overtime: ((n: number) => string) | null;
  readonly clock: ClockStyle;
  /** What the clock covers in one regulation period and one overtime period, ms (45 and 15 minutes in soccer). */
  readonly clockMs: number;
  readonly overtimeClockMs: number;
  /** World time one overtime period takes. */
  readonly overtimeMs: number;
  /** A half-time break after this many periods, and its world length. */
  readonly halftime: { readonly after: number; readonly ms: number } | null;
  /** Stoppage time added to each regulation period, world ms (soccer). */
  readonly stoppageMs: readonly number[];
  /** Overtime periods there can be; after the last, it goes on until someone scores (a golden goal). */
  readonly maxOvertimes: number;
}

/** The timing of a game, as markets.ts keeps it. */
export interface GameTiming {
  readonly periods: number;
  /** World time of one regulation period (before stoppage). */
  readonly periodMs: number;
  readonly format: GameFormat;
  readonly startsAt: number;
  finishedAt: number | null;
  /** Regulation ended level: the game went on into overtime. */
  playedOvertime: boolean;
}

export interface GamePhase {
  readonly live: boolean;
  readonly ended: boolean;
  readonly period: string | null;
  readonly elapsed: string | null;
  readonly status: string;
}

/** `OT`, `2OT`, `3OT`… */
export const overtimeName = (n: number): string => (n === 1 ? 'OT' : `${n}OT`);

/** World time from the start to the end of regulation: periods, their stoppage time and half-time. */
export function regulationMs(game: Pick<GameTiming, 'periods' | 'periodMs' | 'format'>): number {
  const f = game.format;
  let ms = game.periods * game.periodMs + (f.halftime && f.halftime.after < game.periods ? f.halftime.ms : 0);
  for (let n = 0; n < game.periods; n++) ms += f.stoppageMs[n] ?? 0;
  return ms;
}

/** Whether the game is at half-time (nobody scores then). */
export function atHalftime(game: GameTiming, now: number): boolean {
  const half = game.format.halftime;
  if (half === null || half.after >= game.periods) return false;
  let from = game.startsAt + half.after * game.periodMs;
  for (let n = 0; n < half.after; n++) from += game.format.stoppageMs[n] ?? 0;
  return now >= from && now < from + half.ms;
}

/** Live-game facts for GameScore answers. */
export function gamePhase(game: GameTiming, now: number): GamePhase {
  if (now < game.startsAt) return { live: false, ended: false, period: null, elapsed: null, status: 'scheduled' };
  const f = game.format;
  if (game.finishedAt !== null) return { live: false, ended: true, period: game.playedOvertime ? 'FT OT' : 'FT', elapsed: null, status: 'final' };
  const live = (period: string, elapsed: string | null): GamePhase => ({ live: true, ended: false, period, elapsed, status: 'in_progress' });
  let t = now - game.startsAt;
  for (let n = 1; n <= game.periods; n++) {
    const length = game.periodMs + (f.stoppageMs[n - 1] ?? 0);
    // The last period goes on when there is no overtime.
    if (t < length || (n === game.periods && f.overtime === null)) return live(f.name(n), clockText(f, t, game.periodMs, f.clockMs, (n - 1) * f.clockMs));
    t -= length;
    if (f.halftime?.after === n && n < game.periods) {
      if (t < f.halftime.ms) return live('HT', null);
      t -= f.halftime.ms;
    }
  }
  const overtime = f.overtime ?? overtimeName;
  const k = Math.min(f.maxOvertimes, Math.floor(t / f.overtimeMs) + 1);
  const inPeriod = t - (k - 1) * f.overtimeMs;
  return live(overtime(k), clockText(f, inPeriod, f.overtimeMs, f.overtimeClockMs, game.periods * f.clockMs + (k - 1) * f.overtimeClockMs));
}

/**
 * The clock `inPeriod` world ms into a period of `periodMs` world ms whose clock covers `clockMs`,
 * in a match whose clock stood at `start` when the period began (the soccer styles).
 */
function clockText(f: GameFormat, inPeriod: number, periodMs: number, clockMs: number, start: number): string | null {
  const played = Math.floor((inPeriod * clockMs) / periodMs);
  switch (f.clock) {
    case 'none':
      return null;
    case 'countdown':
      return mmss(Math.max(0, clockMs - played));
    case 'match-clock':
      return mmss(start + played);
    case 'minutes': {
      // The minute as shown; past the period's due end, stoppage counts from it: "45+2".
      const minute = Math.floor(played / 60_000);
      const due = clockMs / 60_000;
      return minute <= due ? `${start / 60_000 + minute}` : `${(start + clockMs) / 60_000}+${minute - due}`;
    }
  }
}

function mmss(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
