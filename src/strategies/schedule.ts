import { Cron } from 'croner';

/** What to do with runs that fell due while the daemon was down. */
export type CatchUp = 'skip' | 'run_once' | 'run_all';

// Parsing a pattern costs far more than asking it for the next instant; strategies reuse theirs.
const cache = new Map<string, Cron>();

function cronFor(pattern: string, timezone: string): Cron {
  const key = `${timezone}\u0000${pattern}`;
  let cron = cache.get(key);
  if (!cron) {
    cron = new Cron(pattern, { timezone, paused: true });
    cache.set(key, cron);
  }
  return cron;
}

/**
 * The first instant strictly after `after` (epoch ms) at which the schedule fires, or null.
 * croner evaluates the pattern in the IANA zone, so 09:00 stays 09:00 local across DST changes;
 * a local time skipped by a spring-forward change fires once, at the jump (02:30 → 03:00), and
 * one repeated by an autumn change fires once, the first time.
 */
export function nextInstant(pattern: string, timezone: string, after: number): number | null {
  // Zone-aware cron arithmetic costs tens of µs, and every tick asks the same question (the next
  // run after the last one handled) until a run happens: remember the answers. The function is
  // pure, so a memo cannot change a result; the bound keeps a long run's memory flat.
  const key = `${timezone}\u0000${pattern}\u0000${after}`;
  const known = answers.get(key);
  if (known !== undefined) return known;
  const next = cronFor(pattern, timezone).nextRun(new Date(after));
  const result = next ? next.getTime() : null;
  if (answers.size >= MAX_ANSWERS) answers.clear();
  answers.set(key, result);
  return result;
}

const MAX_ANSWERS = 50_000;
const answers = new Map<string, number | null>();

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
