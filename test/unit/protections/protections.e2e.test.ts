/**
 * The account-wide protections through the daemon's composition root, on the simulator's scripted
 * market and a manual clock: each trips at its figure and not just below it, pauses what it says
 * (a buying strategy stops deciding; a stop keeps working under `pauses: buying`, and is paused
 * under `pauses: all`), shows in /status and /readyz, and clears as documented. The drawdown's peak
 * and trip survive a restart; the daily loss clears at midnight UTC.
 */
import { describe, expect, it } from 'vitest';
import { clearProtection, equityPeak } from '../../../src/protections/protectionRecords.js';
import { AuditLog } from '../../../src/store/audit.js';
import { openDatabase } from '../../../src/store/db.js';
import type { ProtectionStatus } from '../../../src/protections/protections.js';
import { recordFill } from '../../../src/store/fills.js';
import { HEADER } from '../strategies/helpers.js';
import { SOL, USDC } from '../../support/mints.js';
import { testWorld, type TestWorld } from '../../support/testStack.js';
import { strategies } from '../engine/tick/support.js';
import { countRows, startTradingStack, type TradingStack } from '../engine/tick/tradingSupport.js';

const DCA = `${HEADER}name: sol-dca
kind: dca
buy: SOL
pay_with: USDC
amount: "1"
execution: swap
schedule:
  cron: "*/5 * * * *"
  timezone: UTC
max_runs_per_day: 288
`;

const STOP = `${HEADER}name: sol-stop
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: local
stop_loss:
  at: "100"
slippage_bps: 100
`;

const protection = (s: TradingStack, name: string): ProtectionStatus | undefined =>
  (s.engine.status().protections as ProtectionStatus[] | undefined)?.find((p) => p.name === name);

/** The SOL price at which the wallet (SOL and USDC, nothing else) is worth `usd`. */
function priceFor(w: TestWorld, usd: number): number {
  const sol = Number(w.sim.control.balance(w.wallet.address, SOL)) / 1e9;
  const dollars = Number(w.sim.control.balance(w.wallet.address, USDC)) / 1e6;
  return (usd - dollars) / sol;
}

/** How many decisions `strategy` made while `run` ran. */
async function decisions(s: TradingStack, strategy: string, run: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const off = s.ticks.events.on('decided', (d) => {
    if (d.strategy === strategy) n += 1;
  });
  await run();
  off();
  return n;
}

const kinds = (s: TradingStack, kind: string): Record<string, unknown>[] =>
  (s.db.prepare('SELECT data FROM actions WHERE kind = ? ORDER BY id').all(kind) as { data: string }[]).map(
    (r) => JSON.parse(r.data) as Record<string, unknown>,
  );

describe('max_drawdown', () => {
  it('trips at 10% below the peak and not at 9.5%, pauses the DCA but not the stop, and survives a restart until an operator clears it', async () => {
    const w = testWorld({ seed: 'protect-drawdown' });
    const config = 'protections:\n  max_drawdown: 10%\n';
    const s = await startTradingStack(w, await strategies(DCA, STOP), undefined, { config });
    // Equity counts once it held for the settling window (twice `poll.orders`: two reads here).
    await s.tick(2);
    const peak = Number(equityPeak(s.db)?.usd);
    expect(peak).toBeGreaterThan(700);
    expect(protection(s, 'max_drawdown')).toMatchObject({ limit: '10%', tripped: null });

    // The price feed holds a jump this large for one read, then the window must pass: four reads.
    w.sim.control.setPrice(SOL, priceFor(w, peak * 0.905));
    expect(await decisions(s, 'sol-dca', () => s.tick(4))).toBeGreaterThan(0);
    expect(protection(s, 'max_drawdown')).toMatchObject({ tripped: null });
    expect(Number(protection(s, 'max_drawdown')?.figure.replace('%', ''))).toBeGreaterThan(9);
    expect(kinds(s, 'protection.tripped')).toEqual([]);

    // A drop trips once it lasted the window: the first read at the new price and two more.
    w.sim.control.setPrice(SOL, priceFor(w, peak * 0.895));
    await s.tick(2);
    expect(kinds(s, 'protection.tripped')).toEqual([]);
    await s.tick(1);
    const tripped = protection(s, 'max_drawdown');
    expect(tripped).toMatchObject({ headroom: '0', tripped: { pauses: 'buying', clears: expect.stringContaining('only by an operator') as unknown } });
    expect(kinds(s, 'protection.tripped')).toEqual([
      expect.objectContaining({
        name: 'max_drawdown',
        limit: '10%',
        pauses: 'buying',
        peakUsd: equityPeak(s.db)?.usd,
        equityUsd: expect.any(String) as unknown,
      }),
    ]);
    const figure = Number(String(kinds(s, 'protection.tripped')[0]?.figure).replace('%', ''));
    expect(figure).toBeGreaterThanOrEqual(10);
    expect(figure).toBeLessThan(11);
    const ready = await fetch(`${s.engine.opsUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(JSON.stringify(await ready.json())).toMatch(/"name":"protections","ok":false,"detail":"max_drawdown tripped: max_drawdown at .*buying paused/);

    // Paused: the DCA decides nothing more; the stop still watches, and sells when the price crosses it.
    expect(await decisions(s, 'sol-dca', () => s.tick(3))).toBe(0);
    expect(s.ticks.status().strategies['sol-dca']?.rules).toEqual([
      expect.objectContaining({ state: 'paused', why: expect.stringContaining('max_drawdown') as unknown }),
    ]);
    const solBefore = w.sim.control.balance(w.wallet.address, SOL);
    w.sim.control.setPrice(SOL, 95);
    await s.tick(4);
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE strategy = 'sol-stop' AND state = 'confirmed'")).toBe(1);
    expect(solBefore - w.sim.control.balance(w.wallet.address, SOL)).toBeGreaterThanOrEqual(1_000_000_000n);
    const peakAtStop = equityPeak(s.db);
    await s.stop();

    // A restart keeps the peak and the trip: nothing recorded twice, the DCA still paused.
    const again = await startTradingStack(w, await strategies(DCA, STOP), undefined, { config });
    expect(equityPeak(again.db)).toEqual(peakAtStop);
    expect(protection(again, 'max_drawdown')?.tripped).toMatchObject({ since: tripped?.tripped?.since });
    expect(await decisions(again, 'sol-dca', () => again.tick(2))).toBe(0);
    expect(kinds(again, 'protection.tripped')).toHaveLength(1);

    // The operator's clear, from another process on the same database (`jupbot resume`): the daemon
    // sees it at its next evaluation; a new peak starts from the equity then, and the DCA decides again.
    const resume = openDatabase(w.file);
    expect(clearProtection(resume, new AuditLog(resume, w.clock), 'max_drawdown', { at: w.clock.now(), by: 'operator', reason: 'resumed' })).not.toBeNull();
    resume.close();
    expect(kinds(again, 'protection.cleared')).toEqual([expect.objectContaining({ name: 'max_drawdown', by: 'operator', trippedAt: tripped?.tripped?.since })]);
    expect(await decisions(again, 'sol-dca', () => again.tick(2))).toBeGreaterThan(0);
    expect(Number(equityPeak(again.db)?.usd)).toBeLessThan(peak * 0.9);
    expect(protection(again, 'max_drawdown')).toMatchObject({ tripped: null });
    await again.stop();
  });
});

describe('max_exposure', () => {
  it('trips at its limit and not below it, pauses even the stop with `pauses: all`, and clears once back under', async () => {
    const w = testWorld({ seed: 'protect-exposure' });
    const s = await startTradingStack(w, await strategies(STOP), undefined, { config: 'protections:\n  max_exposure_usd: { limit: 360, pauses: all }\n' });
    // Exposure is the wallet's 2 SOL (its USDC is not exposed): 2 × 175 = 350, under 360.
    w.sim.control.setPrice(SOL, 175);
    await s.tick(3);
    expect(protection(s, 'max_exposure')).toMatchObject({ limit: '360 USD', tripped: null });
    expect(Number(protection(s, 'max_exposure')?.headroom.replace(' USD', ''))).toBeGreaterThan(0);

    // Over the limit for the settling window (twice `poll.orders`) before it trips.
    w.sim.control.setPrice(SOL, 182);
    await s.tick(2);
    expect(kinds(s, 'protection.tripped')).toEqual([]);
    await s.tick(1);
    expect(protection(s, 'max_exposure')).toMatchObject({ headroom: '0', tripped: { pauses: 'all', clears: 'when exposure is back under 360 USD' } });
    expect(kinds(s, 'protection.tripped')).toEqual([expect.objectContaining({ name: 'max_exposure', limit: '360 USD', pauses: 'all' })]);
    expect(await decisions(s, 'sol-stop', () => s.tick(2))).toBe(0);

    w.sim.control.setPrice(SOL, 170);
    await s.tick(3);
    expect(kinds(s, 'protection.cleared')).toEqual([expect.objectContaining({ name: 'max_exposure', by: 'under limit' })]);
    expect(protection(s, 'max_exposure')).toMatchObject({ tripped: null });
    expect(await decisions(s, 'sol-stop', () => s.tick(2))).toBeGreaterThan(0);
    await s.stop();
  });
});

/**
 * A buy and a sale of one SOL by `strategy` at `at`: the sale realizes `sell - buy` dollars. The
 * history is written as the executor writes fills; the strategy is one the DCA's own buys never mix with.
 */
function roundTrip(s: TradingStack, strategy: string, at: number, buyUsd: number, sellUsd: number, tag: string): void {
  const owner = { intentId: null, strategy };
  const usd = (n: number): bigint => BigInt(Math.round(n * 1e6));
  s.db.transaction(() => {
    recordFill(
      s.db,
      s.audit,
      {
        signature: `${tag}-buy`,
        idx: 0,
        source: 'swap',
        inMint: USDC,
        inAmount: usd(buyUsd),
        inDecimals: 6,
        outMint: SOL,
        outAmount: 1_000_000_000n,
        outDecimals: 9,
        at,
      },
      owner,
      at,
    );
    recordFill(
      s.db,
      s.audit,
      {
        signature: `${tag}-sell`,
        idx: 0,
        source: 'swap',
        inMint: SOL,
        inAmount: 1_000_000_000n,
        inDecimals: 9,
        outMint: USDC,
        outAmount: usd(sellUsd),
        outDecimals: 6,
        at,
      },
      owner,
      at,
    );
  })();
}

describe('max_daily_loss', () => {
  it('trips when the day’s realized loss reaches the limit, not before, and clears at midnight UTC', async () => {
    const w = testWorld({ seed: 'protect-daily' });
    // Start ten minutes before midnight (the world starts at noon).
    await w.clock.advance(11 * 3_600_000 + 50 * 60_000);
    const s = await startTradingStack(w, await strategies(DCA), undefined, { config: 'protections:\n  max_daily_loss_usd: 50\n' });
    roundTrip(s, 'by-hand', w.clock.now(), 150, 110.01, 'a');
    await s.tick(1);
    expect(protection(s, 'max_daily_loss')).toMatchObject({ limit: '50 USD', figure: '39.99 USD', headroom: '10.01 USD', tripped: null });
    expect(await decisions(s, 'sol-dca', () => s.tick(2))).toBeGreaterThan(0);

    roundTrip(s, 'by-hand', w.clock.now(), 150, 140.01, 'b');
    await s.tick(1);
    expect(protection(s, 'max_daily_loss')).toMatchObject({ figure: '49.98 USD', tripped: null });
    roundTrip(s, 'by-hand', w.clock.now(), 150, 149.98, 'c');
    await s.tick(1);
    expect(protection(s, 'max_daily_loss')).toMatchObject({ figure: '50.00 USD', headroom: '0', tripped: { pauses: 'buying' } });
    expect(kinds(s, 'protection.tripped')).toEqual([
      expect.objectContaining({ name: 'max_daily_loss', limit: '50 USD', figure: '50 USD', exits: 3, realizedUsd: '-50' }),
    ]);
    expect(await decisions(s, 'sol-dca', () => s.tick(3))).toBe(0);

    // Midnight: the trip clears and the DCA decides again; yesterday's losses are not today's.
    const midnight = Math.ceil(w.clock.now() / 86_400_000) * 86_400_000;
    const ticks = Math.ceil((midnight - w.clock.now()) / 10_000);
    expect(await decisions(s, 'sol-dca', () => s.tick(ticks - 1))).toBe(0);
    expect(await decisions(s, 'sol-dca', () => s.tick(2))).toBeGreaterThan(0);
    expect(kinds(s, 'protection.cleared')).toEqual([expect.objectContaining({ name: 'max_daily_loss', by: 'day boundary' })]);
    expect(protection(s, 'max_daily_loss')).toMatchObject({ figure: '0.00 USD', tripped: null });
    await s.stop();
  });
});

describe('loss_cooldown', () => {
  it('pauses after N losing exits in a row (not after N - 1, nor when a win breaks the streak), for its duration', async () => {
    const w = testWorld({ seed: 'protect-cooldown' });
    const s = await startTradingStack(w, await strategies(DCA), undefined, { config: 'protections:\n  loss_cooldown: { losing_exits: 3, for: 5m }\n' });
    const now = (): number => w.clock.now();
    roundTrip(s, 'by-hand', now(), 150, 140, 'a');
    roundTrip(s, 'by-hand', now(), 150, 140, 'b');
    roundTrip(s, 'by-hand', now(), 150, 151, 'win');
    roundTrip(s, 'by-hand', now(), 150, 140, 'c');
    roundTrip(s, 'by-hand', now(), 150, 140, 'd');
    await s.tick(1);
    expect(protection(s, 'loss_cooldown')).toMatchObject({ limit: '3 losing exits in a row', figure: '2 losing exits in a row', tripped: null });
    expect(await decisions(s, 'sol-dca', () => s.tick(2))).toBeGreaterThan(0);

    roundTrip(s, 'by-hand', now(), 150, 149, 'e');
    const third = now();
    await s.tick(1);
    expect(protection(s, 'loss_cooldown')).toMatchObject({ tripped: { since: third, pauses: 'buying' } });
    expect(kinds(s, 'protection.tripped')).toEqual([
      expect.objectContaining({ name: 'loss_cooldown', lossesUsd: '21', until: new Date(third + 300_000).toISOString() }),
    ]);
    expect(await decisions(s, 'sol-dca', () => s.tick(28))).toBe(0);
    expect(await decisions(s, 'sol-dca', () => s.tick(3))).toBeGreaterThan(0);
    expect(kinds(s, 'protection.cleared')).toEqual([expect.objectContaining({ name: 'loss_cooldown', by: 'cooldown over' })]);
    // The streak that started the cooldown does not start another.
    expect(kinds(s, 'protection.tripped')).toHaveLength(1);
    await s.stop();
  });
});
