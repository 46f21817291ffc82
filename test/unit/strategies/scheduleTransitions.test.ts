import { describe, expect, it } from 'vitest';
import { dueInstants, firingAt, nextInstant } from '../../../src/strategies/schedule.js';

const MINUTE = 60_000;

/** An instant as `2026-03-29T01:30Z`; seconds and milliseconds stay visible when they are not zero. */
function iso(t: number): string {
  return new Date(t).toISOString().replace(':00.000Z', 'Z');
}

/** `count` instants `step` minutes apart from `first`, as iso() writes them. */
function every(first: string, step: number, count: number): string[] {
  const start = Date.parse(first);
  return Array.from({ length: count }, (_, i) => iso(start + i * step * MINUTE));
}

/** The four 2026 change days, each from local midnight to the next local midnight (23 or 25 hours). */
const days = {
  berlinSpring: { zone: 'Europe/Berlin', from: '2026-03-28T23:00Z', to: '2026-03-29T22:00Z' },
  berlinAutumn: { zone: 'Europe/Berlin', from: '2026-10-24T22:00Z', to: '2026-10-25T23:00Z' },
  newYorkSpring: { zone: 'America/New_York', from: '2026-03-08T05:00Z', to: '2026-03-09T04:00Z' },
  newYorkAutumn: { zone: 'America/New_York', from: '2026-11-01T04:00Z', to: '2026-11-02T05:00Z' },
} as const;
type Day = keyof typeof days;

/** Every instant the schedule fires at during the local day, as iso() writes them. */
function firesOn(day: Day, cron: string): string[] {
  const { zone, from, to } = days[day];
  return dueInstants(cron, zone, Date.parse(from) - 1, Date.parse(to) - 1).map(iso);
}

function localClock(t: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(t);
}

describe('the change days the tests below use', () => {
  it.each(Object.entries(days))('%s runs from local midnight to local midnight', (_, { zone, from, to }) => {
    expect(localClock(Date.parse(from), zone).slice(0, 5)).toBe('00:00');
    expect(localClock(Date.parse(to), zone).slice(0, 5)).toBe('00:00');
  });
});

describe('Europe/Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST (01:00 UTC)', () => {
  it('*/30 2 * * *: 02:00 fires at the jump and 02:30 half an hour later, as if the clocks had not moved', () => {
    expect(firesOn('berlinSpring', '*/30 2 * * *')).toEqual(['2026-03-29T01:00Z', '2026-03-29T01:30Z']);
  });

  it('30 2 * * *: the skipped 02:30 fires once, at 03:30 CEST', () => {
    expect(firesOn('berlinSpring', '30 2 * * *')).toEqual(['2026-03-29T01:30Z']);
  });

  it('0 2 * * *: the skipped 02:00 fires once, at the jump', () => {
    expect(firesOn('berlinSpring', '0 2 * * *')).toEqual(['2026-03-29T01:00Z']);
  });

  it('0 */2 * * *: twelve runs, the skipped 02:00 at the jump', () => {
    expect(firesOn('berlinSpring', '0 */2 * * *')).toEqual([
      '2026-03-28T23:00Z',
      '2026-03-29T01:00Z',
      '2026-03-29T02:00Z',
      ...every('2026-03-29T04:00Z', 120, 9),
    ]);
  });

  it('*/30 * * * * and 0 * * * *: every 30 minutes and every hour of real time, 46 and 23 runs', () => {
    expect(firesOn('berlinSpring', '*/30 * * * *')).toEqual(every('2026-03-28T23:00Z', 30, 46));
    expect(firesOn('berlinSpring', '0 * * * *')).toEqual(every('2026-03-28T23:00Z', 60, 23));
    expect(firesOn('berlinSpring', '0 */1 * * *')).toEqual(every('2026-03-28T23:00Z', 60, 23));
  });

  it('15 1-3 * * *: a skipped time that lands on a time the pattern names fires once there', () => {
    // 02:15 read in CET is 03:15 CEST, which the pattern names anyway: one run, not two at one instant.
    expect(firesOn('berlinSpring', '15 1-3 * * *')).toEqual(['2026-03-29T00:15Z', '2026-03-29T01:15Z']);
  });
});

describe('Europe/Berlin, 25 October 2026: 03:00 CEST becomes 02:00 CET (01:00 UTC)', () => {
  it('*/30 2 * * *: 02:00 and 02:30 fire once each, the first time', () => {
    expect(firesOn('berlinAutumn', '*/30 2 * * *')).toEqual(['2026-10-25T00:00Z', '2026-10-25T00:30Z']);
  });

  it('30 2 * * *: once, at 02:30 CEST', () => {
    expect(firesOn('berlinAutumn', '30 2 * * *')).toEqual(['2026-10-25T00:30Z']);
  });

  it('0 */2 * * *: twelve runs, 02:00 only the first time', () => {
    expect(firesOn('berlinAutumn', '0 */2 * * *')).toEqual(['2026-10-24T22:00Z', '2026-10-25T00:00Z', ...every('2026-10-25T03:00Z', 120, 10)]);
  });

  it('*/30 * * * * and 0 * * * *: the repeated hour is an hour of real time and fires both times, 50 and 25 runs', () => {
    expect(firesOn('berlinAutumn', '*/30 * * * *')).toEqual(every('2026-10-24T22:00Z', 30, 50));
    expect(firesOn('berlinAutumn', '0 * * * *')).toEqual(every('2026-10-24T22:00Z', 60, 25));
    expect(firesOn('berlinAutumn', '0 0-23 * * *')).toEqual(every('2026-10-24T22:00Z', 60, 25));
  });
});

describe('America/New_York, 8 March 2026: 02:00 EST becomes 03:00 EDT (07:00 UTC)', () => {
  it('*/30 2 * * *: 02:00 fires at the jump and 02:30 half an hour later', () => {
    expect(firesOn('newYorkSpring', '*/30 2 * * *')).toEqual(['2026-03-08T07:00Z', '2026-03-08T07:30Z']);
  });

  it('30 1 * * * and */30 1 * * *: 01:xx exists once, nothing moves', () => {
    expect(firesOn('newYorkSpring', '30 1 * * *')).toEqual(['2026-03-08T06:30Z']);
    expect(firesOn('newYorkSpring', '*/30 1 * * *')).toEqual(['2026-03-08T06:00Z', '2026-03-08T06:30Z']);
  });

  it('0 */2 * * *: twelve runs, the skipped 02:00 at the jump', () => {
    expect(firesOn('newYorkSpring', '0 */2 * * *')).toEqual([
      '2026-03-08T05:00Z',
      '2026-03-08T07:00Z',
      '2026-03-08T08:00Z',
      ...every('2026-03-08T10:00Z', 120, 9),
    ]);
  });

  it('*/30 * * * * and 0 * * * *: 46 and 23 runs, evenly spaced in real time', () => {
    expect(firesOn('newYorkSpring', '*/30 * * * *')).toEqual(every('2026-03-08T05:00Z', 30, 46));
    expect(firesOn('newYorkSpring', '0 * * * *')).toEqual(every('2026-03-08T05:00Z', 60, 23));
  });
});

describe('America/New_York, 1 November 2026: 02:00 EDT becomes 01:00 EST (06:00 UTC)', () => {
  it('30 1 * * * and */30 1 * * *: the repeated 01:xx fires once, the first time (EDT)', () => {
    expect(firesOn('newYorkAutumn', '30 1 * * *')).toEqual(['2026-11-01T05:30Z']);
    expect(firesOn('newYorkAutumn', '*/30 1 * * *')).toEqual(['2026-11-01T05:00Z', '2026-11-01T05:30Z']);
  });

  it('*/30 2 * * *: 02:xx exists once (EST), nothing moves', () => {
    expect(firesOn('newYorkAutumn', '*/30 2 * * *')).toEqual(['2026-11-01T07:00Z', '2026-11-01T07:30Z']);
  });

  it('0 */2 * * *: twelve runs; the pattern names no repeated hour', () => {
    expect(firesOn('newYorkAutumn', '0 */2 * * *')).toEqual(['2026-11-01T04:00Z', ...every('2026-11-01T07:00Z', 120, 11)]);
  });

  it('0 1-3 * * *: a pattern naming particular hours runs 01:00 once', () => {
    expect(firesOn('newYorkAutumn', '0 1-3 * * *')).toEqual(['2026-11-01T05:00Z', '2026-11-01T07:00Z', '2026-11-01T08:00Z']);
  });

  it('*/30 * * * * and 0 * * * *: the repeated hour fires both times, 50 and 25 runs', () => {
    expect(firesOn('newYorkAutumn', '*/30 * * * *')).toEqual(every('2026-11-01T04:00Z', 30, 50));
    expect(firesOn('newYorkAutumn', '0 * * * *')).toEqual(every('2026-11-01T04:00Z', 60, 25));
  });
});

describe('nextInstant from inside a change', () => {
  it('from the jump itself, a skipped time still ahead is next', () => {
    // 03:10 CEST (01:10 UTC): 02:30, read in CET, is still 20 minutes away.
    expect(iso(nextInstant('*/30 2 * * *', 'Europe/Berlin', Date.parse('2026-03-29T01:10Z')) ?? 0)).toBe('2026-03-29T01:30Z');
  });

  it('from late in the first pass of a repeated hour, an interval goes on to the second pass', () => {
    // 02:45 CEST (00:45 UTC); the next half hour of real time is 02:00 CET.
    expect(iso(nextInstant('*/30 * * * *', 'Europe/Berlin', Date.parse('2026-10-25T00:45Z')) ?? 0)).toBe('2026-10-25T01:00Z');
    // A fixed time does not fire again: the next 02:30 is the next day's.
    expect(iso(nextInstant('30 2 * * *', 'Europe/Berlin', Date.parse('2026-10-25T00:45Z')) ?? 0)).toBe('2026-10-26T01:30Z');
  });

  it('from inside the second pass, a fixed time in the repeated hour waits for the next day', () => {
    expect(iso(nextInstant('*/30 1 * * *', 'America/New_York', Date.parse('2026-11-01T06:10Z')) ?? 0)).toBe('2026-11-02T06:00Z');
  });
});

describe('firingAt: what a run stands for on the clock', () => {
  it('names the skipped local time a shifted run stands for', () => {
    expect(firingAt('*/30 2 * * *', 'Europe/Berlin', Date.parse('2026-03-29T01:30Z'))).toEqual({ local: Date.UTC(2026, 2, 29, 2, 30), clock: 'skipped' });
  });

  it('says which pass of a repeated hour a run is', () => {
    expect(firingAt('30 1 * * *', 'America/New_York', Date.parse('2026-11-01T05:30Z'))).toEqual({ local: Date.UTC(2026, 10, 1, 1, 30), clock: 'first' });
    expect(firingAt('*/30 * * * *', 'America/New_York', Date.parse('2026-11-01T06:30Z'))).toEqual({ local: Date.UTC(2026, 10, 1, 1, 30), clock: 'second' });
  });

  it('calls a run that also lands on a named time ordinary', () => {
    expect(firingAt('0 * * * *', 'Europe/Berlin', Date.parse('2026-03-29T01:00Z'))).toEqual({ local: Date.UTC(2026, 2, 29, 3, 0), clock: 'ordinary' });
    expect(firingAt('0 9 * * *', 'Europe/Berlin', Date.parse('2026-06-01T07:00Z'))).toEqual({ local: Date.UTC(2026, 5, 1, 9, 0), clock: 'ordinary' });
  });
});
