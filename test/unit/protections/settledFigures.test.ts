/**
 * Drawdown and exposure when the feeds disagree for a while: the wallet is read every 10 s, the
 * order mirror a poll or more later. A fill whose proceeds reach the wallet before the mirror drops
 * the deposit, or a deposit that leaves the wallet before its order row exists, neither raises the
 * peak nor trips; a change that lasts the settling window does. Scripted feed states, a manual clock
 * and the store's own tables (the deposits come from `trigger_orders` as the mirror writes them).
 */
import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../../src/clock.js';
import type { Balances } from '../../../src/engine/feeds/balances.js';
import type { Feed } from '../../../src/engine/feeds/poller.js';
import type { PriceMap } from '../../../src/engine/feeds/prices.js';
import type { Position } from '../../../src/jupiter/schemas/prediction.js';
import { createProtections, type Protections } from '../../../src/protections/protections.js';
import { activeTrips, equityPeak } from '../../../src/protections/protectionRecords.js';
import { NO_PROTECTIONS, type ProtectionsConfig } from '../../../src/protections/protectionsSchema.js';
import { AuditLog } from '../../../src/store/audit.js';
import type { Db } from '../../../src/store/db.js';
import { SOL, USDC } from '../../support/mints.js';
import { freshStore } from '../store/helpers.js';

const SETTLE_MS = 60_000;
const READ_MS = 10_000;

interface Account {
  usdc: number;
  sol: number;
  solPrice: number;
}

/** A feed whose value is whatever `value()` says now (evaluate() reads nothing else of it). */
const scripted = <T>(value: () => T | undefined): Feed<T> => ({ state: () => ({ value: value() }) }) as unknown as Feed<T>;

function world(config: Partial<ProtectionsConfig>): {
  db: Db;
  clock: ManualClock;
  account: Account;
  protections: Protections;
  /** `n` reads of the wallet, 10 s apart, each evaluated. */
  reads: (n: number) => Promise<void>;
  placeOrder: (id: string, usdc: number) => void;
  fillOrder: (id: string) => void;
} {
  const { db, clock } = freshStore();
  const audit = new AuditLog(db, clock);
  const account: Account = { usdc: 800, sol: 0, solPrice: 100 };
  const balances = (): Balances => ({
    readAt: clock.now(),
    byMint: new Map([
      [USDC, BigInt(Math.round(account.usdc * 1e6))],
      [SOL, BigInt(Math.round(account.sol * 1e9))],
    ]),
    decimals: new Map([
      [USDC, 6],
      [SOL, 9],
    ]),
  });
  const prices = (): PriceMap => new Map([[SOL, { usdPrice: account.solPrice }]]) as unknown as PriceMap;
  const protections = createProtections({
    config: { ...NO_PROTECTIONS, ...config },
    clock,
    db,
    audit,
    notify: () => undefined,
    feeds: { balances: scripted(balances), prices: scripted(prices), positions: scripted<readonly Position[]>(() => []) },
    settleMs: SETTLE_MS,
  });
  return {
    db,
    clock,
    account,
    protections,
    async reads(n) {
      for (let i = 0; i < n; i += 1) {
        await clock.advance(READ_MS);
        protections.evaluate();
      }
    },
    placeOrder(id, usdc) {
      db.prepare(
        `INSERT INTO intents (id, strategy, kind, params, state, order_id, created_at, updated_at) VALUES (?, 's', 'place-vault-order', '{}', 'confirmed', ?, 1, 1)`,
      ).run(`intent-${id}`, id);
      db.prepare(
        `INSERT INTO trigger_orders (id, intent_id, strategy, family, order_type, state, input_mint, input_decimals, output_mint, output_decimals,
           input_amount, raw, created_at, updated_at, first_seen_at, last_synced_at)
         VALUES (?, ?, 's', 'price', 'single', 'open', ?, 6, ?, 9, ?, '{}', 1, 1, 1, 1)`,
      ).run(id, `intent-${id}`, USDC, SOL, String(usdc * 1e6));
    },
    fillOrder(id) {
      db.prepare("UPDATE trigger_orders SET state = 'filled' WHERE id = ?").run(id);
    },
  };
}

const drawdown: Partial<ProtectionsConfig> = { max_drawdown: { percent: '15', pauses: 'buying' } };
const peakOf = (db: Db): number => Number(equityPeak(db)?.usd);

describe('max_drawdown over lagging feeds', () => {
  it('a fill whose proceeds reach the wallet before the mirror drops its deposit neither raises the peak nor trips', async () => {
    const w = world(drawdown);
    // 800 USDC in the wallet and a 200 USDC deposit buying SOL: equity 1000, settled.
    w.placeOrder('buy-1', 200);
    await w.reads(8);
    expect(peakOf(w.db)).toBe(1000);

    // It fills: the wallet holds the 2 SOL at once, the mirror drops the deposit 30 s later.
    w.account.sol = 2;
    await w.reads(3);
    expect(peakOf(w.db)).toBe(1000);
    w.fillOrder('buy-1');
    await w.reads(12);
    expect(peakOf(w.db)).toBe(1000);
    expect(activeTrips(w.db)).toEqual([]);
    expect(w.protections.status()).toEqual([expect.objectContaining({ name: 'max_drawdown', figure: '0.00%', tripped: null })]);
  });

  it('a deposit that leaves the wallet before its order row exists does not trip; a drop that lasts the window does', async () => {
    const w = world(drawdown);
    w.account.sol = 2;
    await w.reads(8);
    expect(peakOf(w.db)).toBe(1000);

    // 200 of the 800 USDC go into the vault; the mirror lists the order 30 s later.
    w.account.usdc = 600;
    await w.reads(3);
    w.placeOrder('buy-2', 200);
    await w.reads(12);
    expect(activeTrips(w.db)).toEqual([]);

    // SOL falls from 100 to 20: equity 1000 → 840, a 16% drop, judged only once it lasted 60 s.
    w.account.solPrice = 20;
    await w.reads(6);
    expect(activeTrips(w.db)).toEqual([]);
    await w.reads(1);
    expect(activeTrips(w.db)).toEqual([
      expect.objectContaining({ name: 'max_drawdown', data: expect.objectContaining({ figure: '16%', peakUsd: '1000' }) as unknown }),
    ]);
  });
});

describe('max_exposure over lagging feeds', () => {
  it('a buy whose tokens reach the wallet before the mirror drops its deposit does not trip; exposure over the limit for the window does', async () => {
    const w = world({ max_exposure: { limitUsd: '250', pauses: 'all' } });
    // Exposure is the 200 USDC committed to buying SOL.
    w.placeOrder('buy-1', 200);
    await w.reads(8);
    // The fill: 2 SOL in the wallet while the deposit is still counted (400) for 30 s.
    w.account.sol = 2;
    await w.reads(3);
    w.fillOrder('buy-1');
    await w.reads(12);
    expect(activeTrips(w.db)).toEqual([]);

    // SOL rises to 130: 260 exposed, over 250 once it lasted 60 s; back under once that lasted too.
    w.account.solPrice = 130;
    await w.reads(6);
    expect(activeTrips(w.db)).toEqual([]);
    await w.reads(1);
    expect(activeTrips(w.db)).toEqual([expect.objectContaining({ name: 'max_exposure', data: expect.objectContaining({ figure: '260 USD' }) as unknown })]);
    w.account.solPrice = 120;
    await w.reads(6);
    expect(activeTrips(w.db)).toHaveLength(1);
    await w.reads(1);
    expect(activeTrips(w.db)).toEqual([]);
  });
});
