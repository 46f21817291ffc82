/**
 * The wallet's records for the audit: `wallet.balances` once per change of the balances (and not
 * again after a restart over the same wallet), and `basis.observed` once per token held at the first
 * reading, at the first dollar price seen for it, whichever of the two feeds reads first.
 */
import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../../src/clock.js';
import type { Balances } from '../../../src/engine/feeds/balances.js';
import { createPoller, type Poller } from '../../../src/engine/feeds/poller.js';
import type { PriceMap, TokenPrice } from '../../../src/engine/feeds/prices.js';
import { recordObservedBasis } from '../../../src/engine/recordObservedBasis.js';
import { recordWalletBalances } from '../../../src/engine/recordWalletBalances.js';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import { AuditLog } from '../../../src/store/audit.js';
import type { Db } from '../../../src/store/db.js';
import { recordFill } from '../../../src/store/fills.js';
import { freshStore } from '../store/helpers.js';

const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const DECIMALS = new Map([
  [SOL_MINT, 9],
  [USDC_MINT, 6],
  [JUP, 6],
  [BONK, 5],
]);

/** A feed whose next poll returns whatever `next` holds then. */
function scripted<T>(name: string, clock: ManualClock, first: T): { feed: Poller<T>; read(value: T): Promise<void> } {
  let next = first;
  const feed = createPoller<T>({ name, intervalMs: 3_600_000, clock, poll: () => Promise.resolve(next) });
  feed.start(new AbortController().signal);
  return {
    feed,
    async read(value) {
      next = value;
      const updated = feed.events.next('updated');
      feed.pollSoon();
      await updated;
    },
  };
}

const balances = (clock: ManualClock, held: Record<string, bigint>): Balances => ({
  readAt: clock.now(),
  byMint: new Map(Object.entries(held)),
  decimals: DECIMALS,
});
const prices = (usd: Record<string, number>): PriceMap =>
  new Map(
    Object.entries(usd).map(([mint, usdPrice]): [string, TokenPrice] => [
      mint,
      { mint, symbol: '?', decimals: DECIMALS.get(mint) ?? 0, usdPrice, priceBlockId: null },
    ]),
  );
const actions = (db: Db, kind: string): { at: number; mint: string | null; amount: string | null; data: unknown }[] =>
  (
    db.prepare('SELECT at, mint, amount, data FROM actions WHERE kind = ? ORDER BY id').all(kind) as {
      at: number;
      mint: string | null;
      amount: string | null;
      data: string;
    }[]
  ).map((r) => ({ ...r, data: JSON.parse(r.data) as unknown }));

describe('wallet.balances', () => {
  it('records the first reading and each change, sorted by mint, zero balances left out; a restart over the same wallet writes nothing', async () => {
    const { db, clock } = freshStore();
    const audit = new AuditLog(db, clock);
    const wallet = scripted('balances', clock, balances(clock, { [SOL_MINT]: 5_000_000_000n, [JUP]: 0n, [BONK]: 120_00000n }));
    await wallet.feed.events.next('updated');
    const stop = recordWalletBalances({ feed: wallet.feed, db, audit });
    await wallet.read(balances(clock, { [SOL_MINT]: 5_000_000_000n, [JUP]: 0n, [BONK]: 120_00000n }));
    clock.setWallTime(clock.now() + 60_000);
    await wallet.read(balances(clock, { [SOL_MINT]: 5_000_000_000n, [BONK]: 120_00000n }));
    clock.setWallTime(clock.now() + 60_000);
    await wallet.read(balances(clock, { [SOL_MINT]: 4_999_995_000n, [BONK]: 120_00000n, [JUP]: 7_500_000n }));
    stop();

    const T = Date.UTC(2026, 0, 1);
    expect(actions(db, 'wallet.balances').map((a) => a.data)).toEqual([
      {
        balances: [
          { mint: BONK, decimals: 5, amount: '12000000' },
          { mint: SOL_MINT, decimals: 9, amount: '5000000000' },
        ],
        readAt: T,
      },
      {
        balances: [
          { mint: BONK, decimals: 5, amount: '12000000' },
          { mint: JUP, decimals: 6, amount: '7500000' },
          { mint: SOL_MINT, decimals: 9, amount: '4999995000' },
        ],
        readAt: T + 120_000,
      },
    ]);

    // A restart: the last recorded reading is in the database; the same wallet writes nothing, a change writes one.
    const again = recordWalletBalances({ feed: wallet.feed, db, audit: new AuditLog(db, clock) });
    await wallet.read(balances(clock, { [SOL_MINT]: 4_999_995_000n, [BONK]: 120_00000n, [JUP]: 7_500_000n }));
    expect(actions(db, 'wallet.balances')).toHaveLength(2);
    await wallet.read(balances(clock, { [SOL_MINT]: 4_999_990_000n, [BONK]: 120_00000n, [JUP]: 7_500_000n }));
    again();
    expect(actions(db, 'wallet.balances').map((a) => (a.data as { balances: { amount: string }[] }).balances.map((b) => b.amount))).toEqual([
      ['12000000', '5000000000'],
      ['12000000', '7500000', '4999995000'],
      ['12000000', '7500000', '4999990000'],
    ]);
  });
});

describe('basis.observed', () => {
  it('records the first price seen for each token held at the first reading, once, dollars left out', async () => {
    const { db, clock } = freshStore();
    const audit = new AuditLog(db, clock);
    const T = clock.now();
    // The first prices come before the first reading; BONK has no price yet.
    const feed = scripted('prices', clock, prices({ [SOL_MINT]: 150.25, [USDC_MINT]: 1, [JUP]: 0.00041 }));
    await feed.feed.events.next('updated');
    clock.setWallTime(T + 5_000);
    const wallet = scripted('balances', clock, balances(clock, { [SOL_MINT]: 5_000_000_000n, [USDC_MINT]: 1_000_000_000n, [BONK]: 120_00000n }));
    await wallet.feed.events.next('updated');
    const stops = [recordWalletBalances({ feed: wallet.feed, db, audit }), recordObservedBasis({ prices: feed.feed, balances: wallet.feed, db, audit })];
    await wallet.read(balances(clock, { [SOL_MINT]: 5_000_000_000n, [USDC_MINT]: 1_000_000_000n, [BONK]: 120_00000n }));
    expect(actions(db, 'basis.observed')).toEqual([
      {
        at: T + 5_000,
        mint: SOL_MINT,
        amount: '5000000000',
        data: { mint: SOL_MINT, decimals: 9, units: '5000000000', priceUsd: '150.25', at: T },
      },
    ]);
    // BONK's first price, then new prices: only BONK is recorded, once.
    clock.setWallTime(T + 60_000);
    await feed.read(prices({ [SOL_MINT]: 151, [BONK]: 0.0000123 }));
    await feed.read(prices({ [SOL_MINT]: 152, [BONK]: 0.0000124 }));
    for (const stop of stops) stop();
    expect(actions(db, 'basis.observed').map((a) => a.data)).toEqual([
      { mint: SOL_MINT, decimals: 9, units: '5000000000', priceUsd: '150.25', at: T },
      { mint: BONK, decimals: 5, units: '12000000', priceUsd: '0.0000123', at: T + 60_000 },
    ]);

    // A restart looks at the database: nothing is observed twice.
    const again = recordObservedBasis({ prices: feed.feed, balances: wallet.feed, db, audit: new AuditLog(db, clock) });
    await feed.read(prices({ [SOL_MINT]: 153, [BONK]: 0.0000125 }));
    again();
    expect(actions(db, 'basis.observed')).toHaveLength(2);
  });

  it('leaves out a token jupbot had traded before the first reading', async () => {
    const { db, clock } = freshStore();
    const audit = new AuditLog(db, clock);
    const fill = {
      signature: 'sig1',
      idx: 0,
      source: 'swap' as const,
      inMint: USDC_MINT,
      inAmount: '150000000',
      inDecimals: 6,
      outMint: SOL_MINT,
      outAmount: '1000000000',
      outDecimals: 9,
      fee: null,
      at: clock.now(),
    };
    db.transaction(() => recordFill(db, audit, fill, { intentId: null, strategy: 'dca' }, clock.now()))();
    clock.setWallTime(clock.now() + 1_000);
    const feed = scripted('prices', clock, prices({ [SOL_MINT]: 150, [JUP]: 0.5 }));
    await feed.feed.events.next('updated');
    const wallet = scripted('balances', clock, balances(clock, { [SOL_MINT]: 1_000_000_000n, [JUP]: 2_000_000n }));
    await wallet.feed.events.next('updated');
    const stops = [recordWalletBalances({ feed: wallet.feed, db, audit }), recordObservedBasis({ prices: feed.feed, balances: wallet.feed, db, audit })];
    await wallet.read(balances(clock, { [SOL_MINT]: 1_000_000_000n, [JUP]: 2_000_000n }));
    for (const stop of stops) stop();
    expect(actions(db, 'basis.observed').map((a) => a.mint)).toEqual([JUP]);
  });
});
