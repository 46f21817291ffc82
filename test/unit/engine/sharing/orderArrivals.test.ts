import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_MS, OrderArrivals, type ArrivedOrder } from '../../../../src/engine/sharing/orderArrivals.js';

const START = Date.UTC(2026, 10, 24, 8, 0);

describe('when a foreign order came to be', () => {
  it('listed in the first read of its family: there before the start, whatever its time', () => {
    const arrivals = new OrderArrivals({ startedAt: START, onArrival: () => undefined });
    arrivals.read('price', ['old', 'fresh']);
    arrivals.read('price', ['old', 'fresh', 'new']);
    expect(['old', 'fresh', 'new'].map((id) => arrivals.judge('price', id, START + 1_000))).toEqual(['pre-existing', 'pre-existing', 'while-running']);
  });

  it('absent from the first read: created while the daemon runs, unless its time is clearly before the start (a finished order updated again)', () => {
    const arrivals = new OrderArrivals({ startedAt: START, onArrival: () => undefined });
    arrivals.read('dca', []);
    expect([
      arrivals.judge('dca', 'a', START - CLOCK_SKEW_MS - 1),
      arrivals.judge('dca', 'b', START - CLOCK_SKEW_MS),
      arrivals.judge('dca', 'c', null),
      // Before the first read of its own family nothing is known: it is taken as there before.
      arrivals.judge('price', 'd', START + 60_000),
    ]).toEqual(['pre-existing', 'while-running', 'while-running', 'pre-existing']);
  });

  it('hands on what arrived', () => {
    const seen: ArrivedOrder[] = [];
    const arrivals = new OrderArrivals({ startedAt: START, onArrival: (order) => seen.push(order) });
    const order = { family: 'price', orderId: 'o1', createdAt: START + 5, depositSignature: 'dep', described: { orderType: 'single' } } as const;
    arrivals.arrived(order);
    expect(seen).toEqual([order]);
  });
});
