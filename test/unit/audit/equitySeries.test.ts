/** Equity from snapshots and kept prices, vault deposits aligned to the readings that show them, and series thinned for drawing. */
import { AuditLog } from '../../../src/store/audit.js';
import { Journal } from '../../../src/store/journal.js';
import { TriggerOrders } from '../../../src/store/triggerOrders.js';
import { describe, expect, it } from 'vitest';
import { equitySeries, valueUsd } from '../../../src/audit/equitySeries.js';
import { keptPrices, priceAt, type PriceTrack } from '../../../src/audit/keptPrices.js';
import { thinPoints } from '../../../src/audit/thinPoints.js';
import { alignedToReadings, heldAt, type VaultHolding, vaultHoldings, withVaultFunds } from '../../../src/audit/vaultHoldings.js';
import type { BalanceSnapshot } from '../../../src/audit/walletSnapshots.js';
import { formatFixed, parseFixed } from '../../../src/money/decimal.js';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import { recordPriceSamples } from '../../../src/store/priceSamples.js';
import { freshStore } from '../store/helpers.js';

const USD = (text: string): bigint => parseFixed(text) as bigint;
const track = (mint: string, points: [number, string][]): PriceTrack => ({ mint, times: points.map((p) => p[0]), usd: points.map((p) => USD(p[1])) });
const snapshot = (at: number, held: Record<string, [number, bigint]>): BalanceSnapshot => ({
  at,
  balances: new Map(Object.entries(held).map(([mint, [decimals, units]]) => [mint, { decimals, units }])),
});
const figures = (points: readonly { at: number; usd: bigint }[]): [number, string][] => points.map((p) => [p.at, formatFixed(p.usd)]);

describe('keptPrices', () => {
  it('reads every kept price exactly, one with more than 18 places rounded at the 18th, and holds each until the next', () => {
    const { db, clock } = freshStore();
    const t0 = clock.now();
    recordPriceSamples(
      db,
      [
        { mint: 'BONK', usd: '0.000019905791449550526' },
        { mint: SOL_MINT, usd: '150' },
      ],
      t0,
      60_000,
    );
    recordPriceSamples(
      db,
      [
        { mint: 'BONK', usd: '0.00002' },
        { mint: SOL_MINT, usd: '150.25' },
      ],
      t0 + 60_000,
      60_000,
    );
    const prices = keptPrices(db);
    expect([...prices.values()].map((t) => [t.mint, t.times.map((at) => at - t0), t.usd.map(formatFixed)])).toEqual([
      ['BONK', [0, 60_000], ['0.000019905791449551', '0.00002']],
      [SOL_MINT, [0, 60_000], ['150', '150.25']],
    ]);
    expect([t0 - 1, t0, t0 + 59_999, t0 + 60_000].map((at) => priceAt(prices, SOL_MINT, at))).toEqual([null, USD('150'), USD('150'), USD('150.25')]);
    // A dollar is a dollar, kept price or not; a token never kept has none.
    expect([priceAt(prices, USDC_MINT, t0), priceAt(prices, 'OTHER', t0)]).toEqual([USD('1'), null]);
  });
});

describe('equitySeries', () => {
  const prices = new Map([
    [
      SOL_MINT,
      track(SOL_MINT, [
        [100, '150'],
        [200, '160.5'],
      ]),
    ],
  ]);

  it('values each holding once, exactly: base units times the price over 10^decimals, rounded toward zero', () => {
    expect(formatFixed(valueUsd(1n, 9, USD('0.000000000000000001')))).toBe('0');
    expect(formatFixed(valueUsd(3n, 9, USD('333.333333333333333333')))).toBe('0.000000999999999999');
  });

  it('leaves out an instant at which a token held has no kept price yet, and a token never priced (named)', () => {
    const snapshots = [snapshot(50, { [SOL_MINT]: [9, 2_000_000_000n], [USDC_MINT]: [6, 5_000_000n], OTHER: [6, 1n] })];
    const equity = equitySeries(snapshots, prices, 250);
    // At 50 SOL had no kept price yet; OTHER never had one.
    expect(figures(equity.points)).toEqual([
      [100, '305'],
      [200, '326'],
      [250, '326'],
    ]);
    expect(equity.unpriced).toEqual(['OTHER']);
  });

  it('steps at each snapshot and each kept price, up to the instant asked, and is empty without snapshots', () => {
    const snapshots = [snapshot(100, { [SOL_MINT]: [9, 1_000_000_000n] }), snapshot(150, {})];
    expect(figures(equitySeries(snapshots, prices, 180).points)).toEqual([
      [100, '150'],
      [150, '0'],
      [180, '0'],
    ]);
    expect(equitySeries([], prices, 180)).toEqual({ points: [], unpriced: [] });
  });
});

describe('vault holdings', () => {
  const order: VaultHolding = { mint: SOL_MINT, decimals: 9, outMint: USDC_MINT, deposit: 5n, from: 1_000, until: 9_000, fills: [{ at: 4_000, units: 2n }] };

  it('holds the deposit from creation to its end, less its fills', () => {
    expect([999, 1_000, 3_999, 4_000, 8_999, 9_000].map((at) => heldAt(order, at))).toEqual([0n, 5n, 5n, 3n, 3n, 0n]);
  });

  it('counts each change from the wallet reading that shows it (near it, or the first one after it), and only at readings', () => {
    const readings = [
      snapshot(0, { [SOL_MINT]: [9, 10n], [USDC_MINT]: [6, 0n] }),
      snapshot(900, { [SOL_MINT]: [9, 5n], [USDC_MINT]: [6, 0n] }), // the deposit left, just before the order's own instant
      snapshot(4_500, { [SOL_MINT]: [9, 5n], [USDC_MINT]: [6, 7n] }), // the fill's proceeds arrived
      snapshot(700_000, { [SOL_MINT]: [9, 8n], [USDC_MINT]: [6, 7n] }), // the rest came back: the first reading after the end
    ];
    const [aligned] = alignedToReadings([order], readings);
    expect(aligned).toEqual({ ...order, from: 900, until: 700_000, fills: [{ at: 4_500, units: 2n }] });
    // Between the end and the reading that shows the money back, the vault still counts it: no dip
    // to 5 SOL that the wallet never had.
    const combined = withVaultFunds(readings, [aligned as VaultHolding]);
    expect(combined.map((s) => [s.at, s.balances.get(SOL_MINT)?.units])).toEqual([
      [0, 10n],
      [900, 10n],
      [4_500, 8n],
      [700_000, 8n],
    ]);
  });

  it('counts an OCO deposit once, until the first of its legs ends', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    const orders = new TriggerOrders(db, log);
    new Journal(db, log, clock).plan({ id: 'tp/oco', strategy: 'tp', kind: 'place-vault-order', params: {} });
    const t0 = clock.now();
    for (const id of ['leg-tp', 'leg-sl'])
      orders.upsert(
        {
          id,
          family: 'price',
          orderType: 'oco',
          state: 'open',
          rawState: 'open',
          inputMint: SOL_MINT,
          outputMint: USDC_MINT,
          inputAmount: '5',
          remaining: '5',
          inputUsed: null,
          outputAmount: null,
          triggerMint: SOL_MINT,
          condition: null,
          triggerPriceUsd: null,
          slippageBps: null,
          trailingBps: null,
          expiresAt: null,
          depositSignature: null,
          raw: `{"id":"${id}"}`,
          createdAt: t0,
          updatedAt: t0,
        },
        { intentId: 'tp/oco', strategy: 'tp', inputDecimals: 9, outputDecimals: 6, depositSignature: null },
        t0,
      );
    // Our cancel withdrew the deposit at +9 s; the other leg's end was learned a sync (15 min) later.
    clock.setWallTime(t0 + 9_000);
    orders.setState('leg-tp', 'cancelled', clock.now());
    log.append({ kind: 'order.cancelled', data: { orderId: 'leg-tp' } });
    clock.setWallTime(t0 + 900_000);
    orders.setState('leg-sl', 'cancelled', clock.now());
    log.append({ kind: 'order.cancelled', data: { orderId: 'leg-sl' } });
    expect(vaultHoldings(db).map((v) => [v.deposit, v.from - t0, (v.until ?? 0) - t0])).toEqual([[5n, 0, 9_000]]);
  });
});

describe('thinPoints', () => {
  it('keeps the first, the last, and each run’s lowest and highest, in time order', () => {
    const points = [5, 1, 9, 3, 3, 8, 0, 7, 2, 6].map((v, i) => [i, v] as const);
    expect(thinPoints(points, 6, (p) => p[1]).map((p) => p[0])).toEqual([0, 1, 2, 5, 6, 9]);
    expect(thinPoints(points, 20, (p) => p[1])).toEqual(points);
  });
});
