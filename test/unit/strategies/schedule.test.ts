import { describe, expect, it } from 'vitest';
import { decideDca } from '../../../src/strategies/decideDca.js';
import type { LoadedDca } from '../../../src/strategies/loadedStrategy.js';
import { dueInstants, nextInstant, planRuns } from '../../../src/strategies/schedule.js';
import type { StrategyState } from '../../../src/strategies/snapshot.js';
import { load, snapshot } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function local(t: number, timeZone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(t));
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}

// The four 2026 changes: Berlin 29 Mar and 25 Oct, New York 8 Mar and 1 Nov.
const changes = [
  { zone: 'Europe/Berlin', at: Date.UTC(2026, 2, 29), before: 8, after: 7 },
  { zone: 'Europe/Berlin', at: Date.UTC(2026, 9, 25), before: 7, after: 8 },
  { zone: 'America/New_York', at: Date.UTC(2026, 2, 8), before: 14, after: 13 },
  { zone: 'America/New_York', at: Date.UTC(2026, 10, 1), before: 13, after: 14 },
];

describe('cron schedules across daylight-saving changes', () => {
  it.each(changes)('09:00 $zone fires once a day at local 09:00 around $at', ({ zone, at, before, after }) => {
    const fires = dueInstants('0 9 * * *', zone, at - 4 * DAY, at + 4 * DAY);
    expect(fires).toHaveLength(8);
    expect(fires.map((t) => local(t, zone).time)).toEqual(Array(8).fill('09:00'));
    expect(new Set(fires.map((t) => local(t, zone).date)).size).toBe(8);
    // The UTC hour moves with the change: the zone's offset did, 09:00 local did not.
    expect(new Date(fires[0] ?? 0).getUTCHours()).toBe(before);
    expect(new Date(fires[7] ?? 0).getUTCHours()).toBe(after);
  });

  it.each(changes)('decide() buys exactly once per local day around the $zone change at $at', async ({ zone, at }) => {
    const strategy = await load<LoadedDca>(`name: d\nkind: dca\nbuy: SOL\namount: "5"\nschedule: { cron: "0 9 * * *", timezone: ${zone} }\n`);
    let state: StrategyState = { startedAt: at - 4 * DAY };
    const runs: number[] = [];
    // The engine's loop, every 5 minutes for 8 days, keeping the schedule cursor as it would.
    for (let now = at - 4 * DAY; now <= at + 4 * DAY; now += 5 * 60_000) {
      const decision = decideDca(strategy, state, snapshot({ at: now }), now);
      for (const intent of decision.intents) runs.push(Date.parse(intent.key.trigger));
      if (decision.scheduledThrough !== undefined) state = { ...state, lastScheduledRun: decision.scheduledThrough };
    }
    expect(runs).toHaveLength(8);
    expect(runs.map((t) => local(t, zone).time)).toEqual(Array(8).fill('09:00'));
  });

  it('fires a local time that does not exist once, an hour later on the clock, and a repeated one once', () => {
    // 02:30 does not exist in Berlin on 29 Mar 2026 (02:00 → 03:00); it exists twice on 25 Oct 2026.
    // Read with the offset before the change, 02:30 CET is 03:30 CEST (scheduleTransitions.test.ts has the rest).
    const spring = dueInstants('30 2 * * *', 'Europe/Berlin', Date.UTC(2026, 2, 28), Date.UTC(2026, 2, 30, 12));
    expect(spring.map((t) => local(t, 'Europe/Berlin'))).toEqual([
      { date: '2026-03-28', time: '02:30' },
      { date: '2026-03-29', time: '03:30' },
      { date: '2026-03-30', time: '02:30' },
    ]);
    const autumn = dueInstants('30 2 * * *', 'Europe/Berlin', Date.UTC(2026, 9, 24, 12), Date.UTC(2026, 9, 25, 12));
    expect(autumn).toHaveLength(1);
  });

  it('returns the next instant strictly after the one given', () => {
    const first = nextInstant('0 9 * * *', 'UTC', Date.UTC(2026, 0, 1));
    expect(first).toBe(Date.UTC(2026, 0, 1, 9));
    expect(nextInstant('0 9 * * *', 'UTC', first ?? 0)).toBe(Date.UTC(2026, 0, 2, 9));
  });
});

describe('catch-up after an outage', () => {
  const lastRun = Date.UTC(2026, 0, 1, 9);
  const back = Date.UTC(2026, 0, 4, 12); // down for three daily runs (2nd, 3rd, 4th at 09:00)

  it.each([
    ['skip', 0],
    ['run_once', 1],
    ['run_all', 3],
  ] as const)('catch_up: %s gives %i runs', async (policy, count) => {
    const strategy = await load<LoadedDca>(`name: d\nkind: dca\nbuy: SOL\namount: "5"\ncatch_up: ${policy}\nschedule: { cron: "0 9 * * *", timezone: UTC }\n`);
    const decision = decideDca(strategy, { lastScheduledRun: lastRun }, snapshot({ at: back }), back);
    expect(decision.intents).toHaveLength(count);
    expect(decision.scheduledThrough).toBe(Date.UTC(2026, 0, 4, 9));
    expect(decision.holds.filter((h) => h.reason.includes('missed'))).toHaveLength(3 - count);
    if (policy === 'run_once') expect(decision.intents[0]?.key.trigger).toBe('2026-01-04T09:00:00.000Z');
  });

  it('runs an on-time run whatever the policy', () => {
    const t = Date.UTC(2026, 0, 2, 9);
    expect(planRuns([t], t + 5 * 60_000, 10 * 60_000, 'skip')).toEqual({ run: [t], skipped: [] });
    expect(planRuns([t - DAY, t], t + 60_000, 10 * 60_000, 'run_once')).toEqual({ run: [t], skipped: [t - DAY] });
  });
});

describe("catch-up is capped at a day's allowance", () => {
  it('run_all never plans more than max_runs_per_day, dropping the oldest', () => {
    const due = Array.from({ length: 100 }, (_, i) => i * 600_000);
    const plan = planRuns(due, 100 * 600_000, 60_000, 'run_all', 48);
    expect(plan.run).toEqual(due.slice(52));
    expect(plan.skipped).toEqual(due.slice(0, 52));
  });
});
