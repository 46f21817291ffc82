import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { dueInstants } from '../../../src/strategies/schedule.js';

/**
 * The schedule's rules checked minute by minute against the zone's own clock (Intl), around every
 * 2026 change of zones that change in spring and autumn, by a full hour or by 30 minutes, at 02:00
 * or at midnight, north and south. The rules, written out from the docs:
 * - a local time shown once fires then;
 * - a local time shown twice fires the first time, and the second time too if the pattern names all 24 hours;
 * - a local time never shown (skipped) fires at the instant it has under the offset before the change;
 * - an instant fires once, however many of these rules name it.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe', 'America/Santiago', 'America/Havana'];
const PATTERNS: readonly (readonly [string, boolean])[] = [
  // [pattern, names all 24 hours]
  ['*/30 2 * * *', false],
  ['30 2 * * *', false],
  ['30 1 * * *', false],
  ['0 */2 * * *', false],
  ['15 1-3 * * *', false],
  ['*/20 0-3 * * *', false],
  ['0 0 * * *', false],
  ['45 23 * * *', false],
  ['*/30 * * * *', true],
  ['*/15 * * * *', true],
  ['0 * * * *', true],
  ['10 * * * 0', true],
];

function clockFormat(zone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
}

/** The zone's clock at `t`, as a local time (its calendar fields read as UTC), from Intl alone. */
function clockAt(format: Intl.DateTimeFormat, t: number): number {
  const parts = Object.fromEntries(format.formatToParts(t).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0);
}

/** Each 2026 instant (to the minute) at which the zone's offset changes (they are months apart). */
function changes(zone: string): number[] {
  const format = clockFormat(zone);
  const offset = (t: number): number => clockAt(format, t) - t;
  const out: number[] = [];
  const STEP = 6 * HOUR;
  for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += STEP) {
    if (offset(t) === offset(t + STEP)) continue;
    let lo = t;
    let hi = t + STEP;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (offset(mid) === offset(t)) lo = mid;
      else hi = mid;
    }
    out.push(hi);
  }
  return out;
}

/** The zone's clock at each minute from `start` to `end`. */
function clockMinutes(zone: string, start: number, end: number): { t: number; local: number }[] {
  const format = clockFormat(zone);
  const out: { t: number; local: number }[] = [];
  for (let t = start; t <= end; t += MINUTE) out.push({ t, local: clockAt(format, t) });
  return out;
}

function expected(clock: readonly { t: number; local: number }[], pattern: string, everyHour: boolean, from: number, to: number): number[] {
  const cron = new Cron(pattern, { utcOffset: 0, paused: true });
  const names = (local: number): boolean => cron.match(new Date(local));
  const fires = new Set<number>();
  const seen = new Set<number>();
  let previous: { t: number; local: number } | undefined;
  for (const now of clock) {
    const again = seen.has(now.local);
    seen.add(now.local);
    if (names(now.local) && (!again || everyHour)) fires.add(now.t);
    // Local times the clock jumped over fire at the instant they have under the offset before the jump.
    if (previous)
      for (let skipped = previous.local + MINUTE; skipped < now.local; skipped += MINUTE)
        if (names(skipped)) fires.add(previous.t + (skipped - previous.local));
    previous = now;
  }
  return [...fires].filter((t) => t > from && t <= to).sort((a, b) => a - b);
}

describe('every 2026 change, minute by minute against Intl', () => {
  const cases = ZONES.flatMap((zone) => changes(zone).map((at) => ({ zone, at: new Date(at).toISOString() })));

  it('finds the changes it is meant to check (two a zone)', () => {
    expect(cases.map((c) => `${c.zone} ${c.at}`)).toEqual([
      'Europe/Berlin 2026-03-29T01:00:00.000Z',
      'Europe/Berlin 2026-10-25T01:00:00.000Z',
      'America/New_York 2026-03-08T07:00:00.000Z',
      'America/New_York 2026-11-01T06:00:00.000Z',
      'Australia/Sydney 2026-04-04T16:00:00.000Z',
      'Australia/Sydney 2026-10-03T16:00:00.000Z',
      'Australia/Lord_Howe 2026-04-04T15:00:00.000Z',
      'Australia/Lord_Howe 2026-10-03T15:30:00.000Z',
      'America/Santiago 2026-04-05T03:00:00.000Z',
      'America/Santiago 2026-09-06T04:00:00.000Z',
      'America/Havana 2026-03-08T05:00:00.000Z',
      'America/Havana 2026-11-01T05:00:00.000Z',
    ]);
  });

  it.each(cases)('$zone around $at: each pattern fires exactly where the rules say', ({ zone, at }) => {
    const from = Date.parse(at) - 30 * HOUR;
    const to = Date.parse(at) + 30 * HOUR;
    // From a few hours early, so a repeated time's first showing is seen before its second.
    const clock = clockMinutes(zone, from - 3 * HOUR, to);
    for (const [pattern, everyHour] of PATTERNS) {
      const want = expected(clock, pattern, everyHour, from, to).map((t) => new Date(t).toISOString());
      const got = dueInstants(pattern, zone, from, to).map((t) => new Date(t).toISOString());
      expect({ pattern, fires: got }).toEqual({ pattern, fires: want });
    }
  });
});
