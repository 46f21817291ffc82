/**
 * A stop is never disarmed by a refusal: one hostile `/order` answer makes the guard refuse the
 * stop-loss swap, the price keeps falling, and the stop sells on the next clean answer — within
 * the same process, and across a restart. Through the engine's real decide loop and executor
 * against the simulator.
 */
import { describe, expect, it } from 'vitest';
import { RETRY_AFTER_MS } from '../../../../src/engine/executor/attempts.js';
import { HEADER } from '../../strategies/helpers.js';
import { SOL, USDC } from '../../../support/mints.js';
import { testWorld, type TestWorld } from '../../../support/testStack.js';
import { strategies } from './support.js';
import { countRows, startTradingStack } from './tradingSupport.js';

const STOP = `${HEADER}name: sol-local-stop
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: local
stop_loss:
  at: "140"
slippage_bps: 100
`;

const sold = (w: TestWorld): bigint => 2_000_000_000n - w.sim.control.balance(w.wallet.address, SOL);

describe('a stop is never disarmed', () => {
  it('one hostile answer: the stop-loss is refused, then sells on the next clean answer as the price falls', async () => {
    const w = testWorld({ seed: 'stop-armed' });
    const s = await startTradingStack(w, await strategies(STOP));
    w.sim.control.injectFault({ path: '/swap/v2/order', kind: 'hostile', variant: 'route-destination-stranger', count: 1 });
    w.sim.control.setPrice(SOL, 130);
    await s.tick(2);
    // Refused once: the decision failed with the guard's verdict, nothing sold.
    expect(countRows(s.db, "SELECT count(*) AS n FROM actions WHERE kind = 'guard.refused'")).toBe(1);
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE state = 'failed' AND error_code = 'GUARD_REFUSED'")).toBe(1);
    expect(w.sim.control.balance(w.wallet.address, SOL)).toBeGreaterThan(1_900_000_000n);
    const status = s.ticks.status().strategies['sol-local-stop'];
    expect(status?.rules).toEqual([expect.objectContaining({ rule: 'stop_loss', state: 'retrying', failures: 1 })]);
    w.sim.control.setPrice(SOL, 100);
    await s.tick(RETRY_AFTER_MS / 10_000 + 1);
    // The retry got a clean answer and sold: one swap, the rule filled.
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE kind = 'swap' AND state = 'confirmed' AND id LIKE '%~r1'")).toBe(1);
    expect(sold(w)).toBeGreaterThanOrEqual(1_000_000_000n);
    expect(countRows(s.db, 'SELECT count(*) AS n FROM fills WHERE in_mint = ? AND out_mint = ?', SOL, USDC)).toBe(1);
    await s.stop();
  });

  it('across a restart: the refused stop is retried by the next process, never left failed', async () => {
    const w = testWorld({ seed: 'stop-armed-restart' });
    const first = await startTradingStack(w, await strategies(STOP));
    w.sim.control.injectFault({ path: '/swap/v2/order', kind: 'hostile', variant: 'route-destination-stranger', count: 1 });
    w.sim.control.setPrice(SOL, 130);
    await first.tick(2);
    expect(countRows(first.db, "SELECT count(*) AS n FROM intents WHERE state = 'failed'")).toBe(1);
    await first.stop();

    w.sim.control.setPrice(SOL, 100);
    const second = await startTradingStack(w, await strategies(STOP));
    await second.tick(RETRY_AFTER_MS / 10_000 + 1);
    expect(countRows(second.db, "SELECT count(*) AS n FROM intents WHERE kind = 'swap' AND state = 'confirmed'")).toBe(1);
    expect(sold(w)).toBeGreaterThanOrEqual(1_000_000_000n);
    await second.stop();
  });

  it('keeps trying after three refusals in a row, marks the strategy degraded, and recovers when it sells', async () => {
    const w = testWorld({ seed: 'stop-degraded' });
    const s = await startTradingStack(w, await strategies(STOP));
    w.sim.control.injectFault({ path: '/swap/v2/order', kind: 'hostile', variant: 'route-destination-stranger', count: 4 });
    w.sim.control.setPrice(SOL, 120);
    // One minute, two, four, then five at the slowest: four refusals and the sale take 12 minutes.
    await s.tick(6 * 14);
    expect(countRows(s.db, "SELECT count(*) AS n FROM actions WHERE kind = 'guard.refused'")).toBe(4);
    const degraded = s.db.prepare("SELECT data FROM actions WHERE kind = 'strategy.degraded'").all() as { data: string }[];
    expect(degraded.map((r) => JSON.parse(r.data) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ rule: 'stop_loss', failures: 3, code: 'GUARD_REFUSED', protective: true, final: false }),
    ]);
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE kind = 'swap' AND state = 'confirmed'")).toBe(1);
    expect(countRows(s.db, "SELECT count(*) AS n FROM actions WHERE kind = 'strategy.recovered'")).toBe(1);
    expect(s.ticks.status().strategies['sol-local-stop']?.degraded).toBeNull();
    await s.stop();
  });
});

describe('a price is confirmed by the quote', () => {
  it('a feed saying $1 while the market trades at ~$150: the stop does not sell, and says why', async () => {
    const w = testWorld({ seed: 'feed-lies' });
    const s = await startTradingStack(w, await strategies(STOP));
    w.sim.control.setFeedPrice(SOL, 1);
    await s.tick(12);
    // The jump is held for a poll, then the rule fires, and the quote refuses to confirm $1.
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE kind = 'swap' AND state = 'confirmed'")).toBe(0);
    expect(w.sim.control.balance(w.wallet.address, SOL)).toBe(2_000_000_000n);
    const failed = s.db.prepare("SELECT error_code, error_message FROM intents WHERE state = 'failed' ORDER BY created_at").all() as {
      error_code: string;
      error_message: string;
    }[];
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.every((f) => f.error_code === 'QUOTE_DISAGREES_WITH_FEED')).toBe(true);
    expect(failed[0]?.error_message).toMatch(
      /^the quote prices the input at \$1[45]\d\.\d+ and the feed's price that fired the rule was \$1: 99\.\d\d% apart, more than the 5\.00% allowed; nothing traded$/,
    );
    // The feed tells the truth again: the rule no longer fires, nothing was sold.
    w.sim.control.setFeedPrice(SOL, null);
    await s.tick(3);
    expect(s.ticks.status().strategies['sol-local-stop']?.rules).toEqual([expect.objectContaining({ rule: 'stop_loss', state: 'armed' })]);
    expect(w.sim.control.balance(w.wallet.address, SOL)).toBe(2_000_000_000n);
    await s.stop();
  });

  it('a real crash sells one poll later: the jump is confirmed by the next poll and the quote agrees', async () => {
    const w = testWorld({ seed: 'real-crash' });
    const s = await startTradingStack(w, await strategies(STOP));
    w.sim.control.setPrice(SOL, 100);
    await s.tick(1);
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE kind = 'swap'")).toBe(0);
    await s.tick(3);
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE kind = 'swap' AND state = 'confirmed'")).toBe(1);
    expect(sold(w)).toBeGreaterThanOrEqual(1_000_000_000n);
    await s.stop();
  });
});
