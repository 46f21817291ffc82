import { describe, expect, it } from 'vitest';
import { decideDca } from '../../../src/strategies/decideDca.js';
import { describeStrategy } from '../../../src/strategies/describeStrategy.js';
import type { LoadedDca } from '../../../src/strategies/loadedStrategy.js';
import type { StrategyState } from '../../../src/strategies/snapshot.js';
import { load, snapshot } from './helpers.js';

const MINUTE = 60_000;

async function dca(cron: string, zone: string, catchUp = 'skip'): Promise<LoadedDca> {
  return load<LoadedDca>(`name: d\nkind: dca\nbuy: SOL\namount: "5"\ncatch_up: ${catchUp}\nschedule: { cron: "${cron}", timezone: ${zone} }\n`);
}

/** The engine's loop every 5 minutes from `from` to `to`, keeping the schedule cursor as it would: the runs it buys. */
function buys(strategy: LoadedDca, from: string, to: string): string[] {
  let state: StrategyState = { startedAt: Date.parse(from) };
  const runs: string[] = [];
  for (let now = Date.parse(from); now <= Date.parse(to); now += 5 * MINUTE) {
    const decision = decideDca(strategy, state, snapshot({ at: now }), now);
    for (const intent of decision.intents) runs.push(intent.key.trigger);
    if (decision.scheduledThrough !== undefined) state = { ...state, lastScheduledRun: decision.scheduledThrough };
  }
  return runs;
}

describe('a DCA across a clock change buys once per scheduled local time', () => {
  it('Berlin spring: 02:00 and 02:30 are bought at 03:00 and 03:30 CEST', async () => {
    expect(buys(await dca('*/30 2 * * *', 'Europe/Berlin'), '2026-03-28T12:00:00Z', '2026-03-30T12:00:00Z')).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-03-30T00:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
  });

  it('Berlin autumn: 02:00 and 02:30 are bought once each, in CEST', async () => {
    expect(buys(await dca('*/30 2 * * *', 'Europe/Berlin'), '2026-10-24T12:00:00Z', '2026-10-26T12:00:00Z')).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:00:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('New York autumn: 01:30 is bought once, in EDT', async () => {
    expect(buys(await dca('30 1 * * *', 'America/New_York'), '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z')).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
  });
});

describe('catch-up across a clock change counts the runs the new rules schedule', () => {
  // Down from the day before to 04:00 CEST on 29 March: the shifted 02:00 and 02:30 (01:00, 01:30 UTC) were missed.
  const springLast = Date.parse('2026-03-28T01:30:00Z');
  const springBack = Date.parse('2026-03-29T02:00:00Z');
  // Down from the day before to 03:00 CET on 25 October: 02:00 and 02:30 CEST (00:00, 00:30 UTC) were missed, once each.
  const autumnLast = Date.parse('2026-10-24T00:30:00Z');
  const autumnBack = Date.parse('2026-10-25T02:00:00Z');

  const spring = { last: springLast, back: springBack };
  const autumn = { last: autumnLast, back: autumnBack };
  it.each([
    ['skip', 'spring', spring, [], '2026-03-29T01:30:00.000Z'],
    ['run_once', 'spring', spring, ['2026-03-29T01:30:00.000Z'], '2026-03-29T01:30:00.000Z'],
    ['run_all', 'spring', spring, ['2026-03-29T01:00:00.000Z', '2026-03-29T01:30:00.000Z'], '2026-03-29T01:30:00.000Z'],
    ['skip', 'autumn', autumn, [], '2026-10-25T00:30:00.000Z'],
    ['run_once', 'autumn', autumn, ['2026-10-25T00:30:00.000Z'], '2026-10-25T00:30:00.000Z'],
    ['run_all', 'autumn', autumn, ['2026-10-25T00:00:00.000Z', '2026-10-25T00:30:00.000Z'], '2026-10-25T00:30:00.000Z'],
  ] as const)('catch_up: %s over the %s change', async (policy, _season, { last, back }, runs, through) => {
    const strategy = await dca('*/30 2 * * *', 'Europe/Berlin', policy);
    const decision = decideDca(strategy, { lastScheduledRun: last }, snapshot({ at: back }), back);
    expect(decision.intents.map((i) => i.key.trigger)).toEqual(runs);
    expect(decision.holds.filter((h) => h.reason.includes('missed'))).toHaveLength(2 - runs.length);
    expect(decision.scheduledThrough).toBe(Date.parse(through));
  });

  it('a shifted run is on time for on_time_within after its instant, and only the older one is missed', async () => {
    const strategy = await dca('*/30 2 * * *', 'Europe/Berlin', 'skip');
    const back = Date.parse('2026-03-29T01:35:00Z'); // 03:35 CEST: 02:30 (01:30 UTC) is 5 minutes late
    const decision = decideDca(strategy, { lastScheduledRun: springLast }, snapshot({ at: back }), back);
    expect(decision.intents.map((i) => i.key.trigger)).toEqual(['2026-03-29T01:30:00.000Z']);
    expect(decision.holds.map((h) => h.reason)).toEqual(['run due at 2026-03-29T01:00:00.000Z was missed; catch_up: skip skips it']);
  });
});

describe('jupbot plan names the next run the schedule will make', () => {
  async function nextRunLine(cron: string, zone: string, now: string): Promise<string | undefined> {
    const strategy = await dca(cron, zone);
    return describeStrategy(strategy.spec, { now: Date.parse(now) }).find((line) => line.startsWith('next run:'));
  }

  it('a skipped time: the instant it runs at, and which local time it stands for', async () => {
    expect(await nextRunLine('*/30 2 * * *', 'Europe/Berlin', '2026-03-29T01:10:00Z')).toBe(
      'next run: 2026-03-29T01:30:00.000Z (Sun 03:30 Europe/Berlin, for 02:30, which the clocks skip that day)',
    );
  });

  it('a repeated time: which of the two it is', async () => {
    expect(await nextRunLine('30 1 * * *', 'America/New_York', '2026-11-01T05:00:00Z')).toBe(
      "next run: 2026-11-01T05:30:00.000Z (Sun 01:30 America/New_York, the first of that day's two 01:30s)",
    );
    expect(await nextRunLine('*/30 * * * *', 'America/New_York', '2026-11-01T06:10:00Z')).toBe(
      "next run: 2026-11-01T06:30:00.000Z (Sun 01:30 America/New_York, the second of that day's two 01:30s)",
    );
  });

  it('after the first pass, a fixed time names the next day', async () => {
    expect(await nextRunLine('30 1 * * *', 'America/New_York', '2026-11-01T05:45:00Z')).toBe('next run: 2026-11-02T06:30:00.000Z (Mon 01:30 America/New_York)');
  });
});
