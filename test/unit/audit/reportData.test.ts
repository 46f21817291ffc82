/**
 * What the report reads from a database, figure by figure: the equity curve built on the wallet's
 * recorded balances (vault deposits counted from the reading that shows them), the fills' running
 * sum when no balances are recorded, holdings now, one row per open order with its distances, the
 * trades with their reasons, the timeline, and the mode.
 */
import { describe, expect, it } from 'vitest';
import { reportData } from '../../../src/audit/reportData.js';
import { recordOpening } from '../../../src/rehearsal/ledger.js';
import { insertOrder } from '../../../src/rehearsal/rehearsalOrderStore.js';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import { AuditLog } from '../../../src/store/audit.js';
import { openDatabase } from '../../../src/store/db.js';
import { Journal } from '../../../src/store/journal.js';
import { recordPriceSamples } from '../../../src/store/priceSamples.js';
import { START } from '../cli/auditHarness.js';
import { freshStore } from '../store/helpers.js';
import { MIN, NOW, reportDatabase } from './reportDatabase.js';

function read(file: string, now = NOW, clock: 'daemon' | 'wall' = 'daemon'): ReturnType<typeof reportData> {
  const db = openDatabase(file, { readonly: true });
  try {
    return reportData(db, now, clock);
  } finally {
    db.close();
  }
}

const exact = (points: readonly (readonly [number, number, string])[]): [string, string][] =>
  points.map(([s, , usd]) => [`${((s * 1000 - START) / MIN).toFixed(2)}m`, usd]);

describe('reportData', () => {
  it('marks the wallet to market at the kept prices, vault deposits included, stepping only when something changed', () => {
    const data = read(reportDatabase());
    expect(data.equity.source).toBe('wallet');
    expect(exact(data.equity.points)).toEqual([
      ['0.00m', '2599.5'],
      ['15.00m', '2699.5'],
      ['20.17m', '2699.5'],
      ['30.00m', '2809.5'],
      ['35.33m', '2809.5'],
      ['40.00m', '2809.5'],
      ['45.00m', '2832'],
      ['50.08m', '2832'],
      ['55.00m', '2837.88'],
      ['60.00m', '2873.38'],
      ['62.00m', '2873.38'],
      ['65.00m', '2873.38'],
    ]);
    expect(data.equity.nowUsd).toBe('2873.38');
    expect(data.equity.unpriced).toEqual([]);
    // Floats for drawing only: the same figures.
    expect(data.equity.points.map((p) => p[1])).toEqual([2599.5, 2699.5, 2699.5, 2809.5, 2809.5, 2809.5, 2832, 2832, 2837.88, 2873.38, 2873.38, 2873.38]);
  });

  it('lists what the wallet and its vault orders hold now, at the newest kept prices, most valuable first', () => {
    const data = read(reportDatabase());
    expect(data.holdings.at).toBe('2026-01-01T01:02:00.000Z');
    expect(data.holdings.rows.map((r) => [r.where, r.symbol, r.amount, r.priceUsd, r.valueUsd])).toEqual([
      ['wallet', 'SOL', '5.5', '175', '962.5'],
      ['vault orders', 'SOL', '5', '175', '875'],
      ['wallet', 'USDC', '853.38', '1', '853.38'],
      ['wallet', 'BONK', '5000000', '0.00002', '100'],
      ['wallet', 'JUP', '50', '0.85', '42.5'],
      ['vault orders', 'USDC', '40', '1', '40'],
    ]);
  });

  it('without recorded balances, charts the running sum of the fills from zero and says so', () => {
    const data = read(reportDatabase({ balances: false }));
    expect(data.equity.source).toBe('fills');
    // 20m: -160 USDC +1 SOL at 160 = 0; 30m: SOL 170 → +10; 45m: SOL 172 → +12; 50m: -40 USDC +50 JUP at 0.8 = 0;
    // 55m: +5.88 USDC -10 contracts at 0.6;
    // 60m: SOL 175 (+3 on the one held), JUP 0.85 (+2.5); 62m: -0.5 SOL +87.5 USDC at 175 = 0. The contracts sold
    // (-10) are valued at their kept price, 0.6.
    expect(exact(data.equity.points)).toEqual([
      ['20.00m', '0'],
      ['30.00m', '10'],
      ['45.00m', '12'],
      ['50.00m', '12'],
      ['55.00m', '11.88'],
      ['60.00m', '17.38'],
      ['62.00m', '17.38'],
      ['65.00m', '17.38'],
    ]);
    expect(data.holdings.rows.map((r) => [r.symbol, r.amount, r.valueUsd])).toEqual([
      ['SOL', '0.5', '87.5'],
      ['JUP', '50', '42.5'],
      ['NBA-1 YES', '-10', '-6'],
      ['USDC', '-106.62', '-106.62'],
    ]);
  });

  it('shows each open order once, an OCO with both legs, each trigger with its distance from the newest kept price', () => {
    const data = read(reportDatabase());
    expect(data.openOrders).toEqual([
      {
        id: 'order-tp',
        legs: ['order-tp', 'order-sl'],
        strategy: 'sol-tp',
        adopted: false,
        family: 'price',
        orderType: 'oco',
        state: 'open',
        sells: { mint: 'So11111111111111111111111111111111111111112', symbol: 'SOL', amount: '5', remaining: '5' },
        receives: { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', symbol: 'USDC' },
        watched: { mint: 'So11111111111111111111111111111111111111112', symbol: 'SOL', priceUsd: '175', at: '2026-01-01T01:00:00.000Z' },
        // (180 - 175) / 175 and (135 - 175) / 175, in percent, to 18 places toward zero.
        takeProfit: { priceUsd: '180', distancePct: '2.857142857142857142' },
        stop: { priceUsd: '135', distancePct: '-22.857142857142857142' },
        entry: null,
        trailingBps: null,
        expiresAt: '2026-01-08T00:00:00.000Z',
      },
      {
        id: 'dca-1',
        legs: ['dca-1'],
        strategy: 'jup-dca',
        adopted: false,
        family: 'dca',
        orderType: 'time_based',
        state: 'active',
        sells: { mint: USDC_MINT, symbol: 'USDC', amount: '80', remaining: '40' },
        receives: { mint: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN', symbol: 'JUP' },
        watched: null,
        takeProfit: null,
        stop: null,
        entry: null,
        trailingBps: null,
        expiresAt: null,
      },
    ]);
  });

  it('gives each trade, newest first, the reason its intent was planned with and the rule that fired', () => {
    const data = read(reportDatabase());
    expect(data.tradeCount).toBe(4);
    expect(data.trades.map((t) => [t.trade.signature, t.trade.priceUsd, t.rule, t.reason])).toEqual([
      ['sig-sell', '175', 'exit', 'sell half of what the DCA bought, SOL at $175'],
      ['sig-nba', '0.588', 'take-profit', 'take-profit: sell the YES position in NBA-1 at $0.60'],
      ['sig-dca-1', '0.8', 'vault_dca', 'place a DCA order buying JUP with 2 × 40 USDC, one every 10m'],
      ['sig-buy', '160', 'run', 'scheduled buy of SOL with 160 USDC (due 2026-01-01T00:20:00.000Z)'],
    ]);
  });

  it('charts each token on its own, traded ones first, with its fills marked', () => {
    const data = read(reportDatabase());
    expect(data.prices.map((c) => [c.symbol, c.priceUsd, c.at, c.points.length, c.fills.map((f) => [f[2], f[3]])])).toEqual([
      [
        'SOL',
        '175',
        '2026-01-01T01:00:00.000Z',
        5,
        [
          ['buy', '160'],
          ['sell', '175'],
        ],
      ],
      ['JUP', '0.85', '2026-01-01T01:00:00.000Z', 5, [['buy', '0.8']]],
      ['NBA-1 YES', '0.6', '2026-01-01T01:00:00.000Z', 5, [['sell', '0.588']]],
      ['BONK', '0.00002', '2026-01-01T01:00:00.000Z', 5, []],
    ]);
  });

  it('lists the newest actions in plain words, newest first', () => {
    const data = read(reportDatabase());
    expect(data.timeline.slice(0, 4).map((a) => [a.kind, a.strategy, a.words])).toEqual([
      ['wallet.balances', null, 'wallet balances read: 4 token(s) held'],
      ['fill', 'sol-dca', 'filled: 0.5 SOL for 87.50 USDC'],
      ['intent.planned', 'sol-dca', 'planned swap: sell half of what the DCA bought, SOL at $175'],
      ['wallet.balances', null, 'wallet balances read: 4 token(s) held'],
    ]);
    expect(data.timeline.at(-1)?.words).toBe('daemon started in paper mode, version 0.1.0');
  });

  it('says the mode the daemon recorded, and "unknown" for a database that does not say', () => {
    expect(read(reportDatabase()).mode).toEqual({ mode: 'paper', evidence: 'the daemon recorded paper mode at each start' });
    expect(read(reportDatabase({ mode: 'live' })).mode.mode).toBe('live');
    expect(read(reportDatabase({ mode: null })).mode).toEqual({ mode: null, evidence: 'the daemon starts it records do not say which mode they ran in' });
    expect(read(reportDatabase({ mode: undefined })).mode).toEqual({ mode: null, evidence: 'no daemon start is recorded in it' });
  });

  it('stands at the clock it is given, and `jupbot report` on a paper database at its newest record', () => {
    const file = reportDatabase();
    expect(read(file).generatedAt).toBe('2026-01-01T01:05:00.000Z');
    // Another process's clock is not the paper world's: the page stands at the newest record.
    const wall = read(file, Date.UTC(2026, 5, 1), 'wall');
    expect(wall.generatedAt).toBe('2026-01-01T01:02:00.000Z');
    expect(wall.clock).toBe("UTC, on the paper world's simulated clock (as of the newest record)");
    expect(exact(wall.equity.points).at(-1)).toEqual(['62.00m', '2873.38']);
    // A live database's clock is the reader's.
    expect(read(reportDatabase({ mode: 'live' }), NOW + MIN, 'wall').generatedAt).toBe('2026-01-01T01:06:00.000Z');
  });

  it('reads a rehearsal: its mark, and its OCO kept as one row with both prices', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    log.append({ kind: 'daemon.started', data: { mode: 'rehearsal' } });
    recordOpening(db, log, 'config', [{ mint: SOL_MINT, amount: 10_000_000_000n, decimals: 9 }], clock.now());
    recordPriceSamples(db, [{ mint: SOL_MINT, usd: '200' }], clock.now(), MIN);
    new Journal(db, log, clock).plan({ id: 'tp/1/take_profit[0]/g0', strategy: 'tp', rule: 'take_profit[0]', kind: 'place-vault-order', params: {} });
    insertOrder(
      db,
      log,
      {
        id: 'rehearsal-tp',
        intentId: 'tp/1/take_profit[0]/g0',
        strategy: 'tp',
        family: 'price',
        orderType: 'oco',
        state: 'open',
        inputMint: SOL_MINT,
        inputDecimals: 9,
        outputMint: USDC_MINT,
        outputDecimals: 6,
        inputAmount: 2_000_000_000n,
        triggerMint: SOL_MINT,
        condition: null,
        triggerPriceUsd: null,
        tpPriceUsd: '250',
        slPriceUsd: '150',
        slippageBps: 50,
        trailingBps: null,
        expiresAt: START + 86_400_000,
        raw: {
          note: 'test',
          intentId: 'tp/1/take_profit[0]/g0',
          phase: 'order',
          parentId: null,
          slippage: {},
          watermarkUsd: null,
          fills: 0,
          dca: null,
          sent: {},
        },
      },
      clock.now(),
    );
    const data = reportData(db, clock.now());
    expect(data.mode).toEqual({ mode: 'rehearsal', evidence: 'its rehearsal ledger is opened: nothing in it was signed or sent' });
    expect(data.rehearsal).toBe(true);
    expect(data.openOrders.map((o) => [o.id, o.legs, o.takeProfit, o.stop, o.entry])).toEqual([
      ['rehearsal-tp', ['rehearsal-tp'], { priceUsd: '250', distancePct: '25' }, { priceUsd: '150', distancePct: '-25' }, null],
    ]);
  });

  it('leaves out a wallet.balances record it cannot read, and counts it', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    log.append({ kind: 'wallet.balances', data: { balances: [{ mint: SOL_MINT, decimals: 9, amount: '1.5' }], readAt: clock.now() } });
    log.append({ kind: 'wallet.balances', data: { balances: [{ mint: USDC_MINT, decimals: 6, amount: '2500000' }], readAt: clock.now() } });
    const data = reportData(db, clock.now());
    expect(data.equity).toMatchObject({ source: 'wallet', unreadable: 1, nowUsd: '2.5' });
  });
});
