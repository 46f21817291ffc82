import { Cron, CronPattern } from 'croner';
import { leastOffsetAround, resolveLocal, zoneOffset } from './zoneTime.js';

/** What to do with runs that fell due while the daemon was down. */
export type CatchUp = 'skip' | 'run_once' | 'run_all';

interface LocalSchedule {
  /** The pattern over local times (a zone's calendar fields read as UTC), free of any clock change. */
  readonly cron: Cron;
  /** The pattern names all 24 hours: an interval ("every 30 minutes"), not an appointment. */
  readonly everyHour: boolean;
}

// Parsing a pattern costs far more than asking it for the next instant; strategies reuse theirs.
const cache = new Map<string, LocalSchedule>();

function scheduleFor(pattern: string): LocalSchedule {
  let schedule = cache.get(pattern);
  if (!schedule) {
    schedule = { cron: new Cron(pattern, { utcOffset: 0, paused: true }), everyHour: new CronPattern(pattern).hour.every((h) => h !== 0) };
    cache.set(pattern, schedule);
  }
  return schedule;
}

/**
 * The first instant strictly after `after` (epoch ms) at which the schedule fires, or null.
 *
 * The pattern is matched against the zone's wall clock, so 09:00 stays 09:00 local across
 * daylight-saving changes. Each local time the pattern names fires once, at the instant that shows
 * it, with two exceptions on the days the clocks change (docs/strategies.md has the table):
 * - a local time a spring change skips (02:00–02:59 in Berlin on 29 March 2026) is read with the
 *   offset in force before the change, so it fires when it would have had the clocks not moved:
 *   02:00 at the jump (03:00), 02:30 at 03:30. No run is dropped and no two share an instant: a
 *   DCA run is a swap, and two at one instant would buy twice at one price under one journal key.
 *   When that instant is one the pattern names anyway (half-hourly: 02:30 → 03:30), it fires once
 *   there, so an interval keeps its spacing in real time;
 * - a local time an autumn change repeats (02:00–02:59 in Berlin on 25 October 2026) fires once,
 *   the first time, unless the pattern names all 24 hours (hourly, every 30 minutes): such an
 *   interval promises runs spaced in real time, and the repeated hour is an hour of real time, so
 *   it fires both times. A pattern naming particular hours ("at 02:30", "every second hour") keeps
 *   its number of runs per local day.
 */
export function nextInstant(pattern: string, timezone: string, after: number): number | null {
  // Zone-aware cron arithmetic costs tens of µs, and every tick asks the same question (the next
  // run after the last one handled) until a run happens: remember the answers. The function is
  // pure, so a memo cannot change a result; the bound keeps a long run's memory flat.
  const key = `${timezone}\u0000${pattern}\u0000${after}`;
  const known = answers.get(key);
  if (known !== undefined) return known;
  const result = firstFiringAfter(scheduleFor(pattern), timezone, after);
  if (answers.size >= MAX_ANSWERS) answers.clear();
  answers.set(key, result);
  return result;
}

const MAX_ANSWERS = 50_000;
const answers = new Map<string, number | null>();

/**
 * Walks the pattern's local times in order and maps each to its instants. The map keeps order
 * except next to a clock change (a skipped time fires after the local times that follow the jump
 * begin; a repeated hour's second pass comes after the first pass of the times after it), so the
 * walk starts early enough to see a pending shifted or repeated run and, once it has an answer,
 * goes on for the size of the change before it trusts it.
 */
function firstFiringAfter(schedule: LocalSchedule, zone: string, after: number): number | null {
  let cursor = after + leastOffsetAround(zone, after);
  let best: number | null = null;
  let horizon = Number.POSITIVE_INFINITY;
  for (;;) {
    const local = schedule.cron.nextRun(new Date(cursor))?.getTime();
    if (local === undefined || local >= horizon) return best;
    cursor = local;
    const where = resolveLocal(zone, local);
    let fires: number[];
    if (where.kind === 'single') fires = [where.at];
    else if (where.kind === 'skipped') fires = [where.shifted];
    else fires = schedule.everyHour ? [where.first, where.second] : [where.first];
    for (const at of fires) if (at > after && (best === null || at < best)) best = at;
    if (best !== null && horizon === Number.POSITIVE_INFINITY) {
      // An ordinary time's instant is final; a shifted or repeated one may be beaten by the times just after it.
      if (where.kind === 'single') return best;
      horizon = local + where.change;
    }
  }
}

/** The local time a run stands for, and how the zone's clock shows it that day. */
export interface Firing {
  /** The local time the pattern names (the zone's calendar fields read as UTC). */
  readonly local: number;
  /** `skipped`: a spring change skips it, so the run fires later on the clock; `first`/`second`: an autumn change repeats it. */
  readonly clock: 'ordinary' | 'skipped' | 'first' | 'second';
}

/** What `at`, an instant the schedule fires at, stands for: so `jupbot plan` can say why 02:30 runs at 03:30. */
export function firingAt(pattern: string, timezone: string, at: number): Firing {
  const { cron } = scheduleFor(pattern);
  const shown = at + zoneOffset(timezone, at);
  // A skipped time fires when it would have been under the offset before the change, the lower one.
  const unshifted = at + leastOffsetAround(timezone, at);
  if (unshifted !== shown && cron.match(new Date(unshifted))) {
    const where = resolveLocal(timezone, unshifted);
    if (where.kind === 'skipped' && where.shifted === at && !cron.match(new Date(shown))) return { local: unshifted, clock: 'skipped' };
  }
  const where = resolveLocal(timezone, shown);
  if (where.kind === 'repeated') return { local: shown, clock: at === where.first ? 'first' : 'second' };
  return { local: shown, clock: 'ordinary' };
}

/** Every instant in (after, until], oldest first, at most `limit` of them (the newest are kept). */
export function dueInstants(pattern: string, timezone: string, after: number, until: number, limit = 1_000): number[] {
  const out: number[] = [];
  let cursor = after;
  for (;;) {
    const next = nextInstant(pattern, timezone, cursor);
    if (next === null || next > until) break;
    out.push(next);
    if (out.length > limit) out.shift();
    cursor = next;
  }
  return out;
}

export interface RunPlan {
  /** Scheduled instants to run now, oldest first. */
  readonly run: readonly number[];
  /** Scheduled instants that will not run (missed and skipped by the policy). */
  readonly skipped: readonly number[];
}

/**
 * Applies the catch-up policy to the due instants. A run at most `onTimeWithin` ms late is on
 * time and always runs; older ones were missed: `skip` drops them, `run_once` folds all missed
 * runs into one (the latest), `run_all` runs each.
 */
export function planRuns(due: readonly number[], now: number, onTimeWithin: number, policy: CatchUp, maxRuns = Number.POSITIVE_INFINITY): RunPlan {
  const onTime = due.filter((t) => now - t <= onTimeWithin);
  const all = due.filter((t) => now - t > onTimeWithin);
  // However long the daemon was down, a catch-up never runs more than a day's allowance: the oldest are skipped.
  const room = Math.max(0, maxRuns - onTime.length);
  const missed = all.slice(Math.max(0, all.length - room));
  const dropped = all.slice(0, all.length - missed.length);
  switch (policy) {
    case 'skip':
      return { run: onTime, skipped: all };
    case 'run_all':
      return { run: [...missed, ...onTime], skipped: dropped };
    case 'run_once': {
      if (all.length === 0) return { run: onTime, skipped: [] };
      if (onTime.length > 0) return { run: onTime, skipped: all };
      return { run: all.slice(-1), skipped: all.slice(0, -1) };
    }
  }
}
