/**
 * The auditor's views (migration 0010): `trades`, `orders` and `holdings` on a database with known
 * rows, every column compared as the exact text an auditor reads: amounts with their decimals
 * applied on the digits, dollar prices by long division rounded toward zero at 18 places (a third
 * of a dollar, a price too large to divide exactly), symbols from the first pin, times in ISO UTC.
 */
import { describe, expect, it } from 'vitest';
import { SOL_MINT, USDC_MINT, USDT_MINT } from '../../../src/solana/programIds.js';
import { tokenNamer } from '../../../src/audit/tokenNames.js';
import { toTrade, tradeJson } from '../../../src/audit/trades.js';
import { AuditLog } from '../../../src/store/audit.js';
import { listFills, pinnedSymbols } from '../../../src/store/fillRecords.js';
import type { Db } from '../../../src/store/db.js';
import { recordFill } from '../../../src/store/fills.js';
import { TokenPins } from '../../../src/store/tokenPins.js';
import { freshStore } from './helpers.js';

const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const T = Date.UTC(2026, 0, 1);

type Leg = [string, string, number];

function fill(db: Db, audit: AuditLog, n: number, strategy: string | null, given: Leg, got: Leg, fee: Leg | null = null, intentId: string | null = null): void {
  const at = T + n * 60_000 + 123;
  const input = {
    signature: `sig${n}`,
    idx: 0,
    source: 'swap' as const,
    inMint: given[0],
    inAmount: given[1],
    inDecimals: given[2],
    outMint: got[0],
    outAmount: got[1],
    outDecimals: got[2],
    fee: fee === null ? null : { mint: fee[0], amount: fee[1], decimals: fee[2] },
    at,
  };
  db.transaction(() => recordFill(db, audit, input, { intentId, strategy }, at))();
}

function database(): Db {
  const { db, clock } = freshStore();
  const audit = new AuditLog(db, clock);
  const pins = new TokenPins(db);
  // Two strategies pinned BONK under different symbols: the first pin names it.
  pins.pin({ strategy: 'bonk-exit', symbol: 'BONK', mint: BONK, decimals: 5 }, T);
  pins.pin({ strategy: 'zz', symbol: 'Bonk2', mint: BONK, decimals: 5 }, T + 1);
  pins.pin({ strategy: 'sol-tp', symbol: 'JUP', mint: JUP, decimals: 6 }, T);
  db.prepare(
    "INSERT INTO strategy_versions (strategy, version, yaml_sha256, yaml, source_file, applied_at) VALUES ('sol-tp', 1, ?, 'name: sol-tp', 'sol-tp.yaml', ?)",
  ).run('a'.repeat(64), T);
  db.prepare(
    "INSERT INTO intents (id, strategy, strategy_version, rule, kind, params, created_at, updated_at) VALUES ('sol-tp/1/tp1', 'sol-tp', 1, 'tp1', 'swap', '{}', ?, ?)",
  ).run(T, T);
  audit.append({
    kind: 'intent.planned',
    strategy: 'sol-tp',
    intentId: 'sol-tp/1/tp1',
    data: { kind: 'swap', reason: 'SOL at $180 reached take profit $180' },
  });

  fill(db, audit, 1, 'sol-tp', [USDC_MINT, '270500000', 6], [SOL_MINT, '1500000000', 9], [SOL_MINT, '3000000', 9]); // buy 1.5 SOL for 270.5: $180.333…
  fill(db, audit, 2, 'sol-tp', [SOL_MINT, '3000000000', 9], [USDC_MINT, '1000000', 6], null, 'sol-tp/1/tp1'); // sell 3 SOL for $1: a third
  fill(db, audit, 3, 'sol-tp', [SOL_MINT, '250000000', 9], [JUP, '1000000000', 6]); // swap: no price
  fill(db, audit, 4, 'bonk-exit', [BONK, '123456789012345678', 5], [USDT_MINT, '1000000000000', 6]); // 18 digits of BONK: too large to divide exactly
  fill(db, audit, 5, null, [USDT_MINT, '1000', 6], [BONK, '100000', 5]); // an adopted order's fill: $0.001 for 1 BONK
  fill(db, audit, 6, 'x', [USDC_MINT, '1', 6], ['NewMint1111111111111111111111111111111111111', '7', 0]); // a 0-decimal token, a mint no one named

  db.prepare(
    `INSERT INTO trigger_orders (id, intent_id, strategy, adopted, family, order_type, state, raw_state, input_mint, input_decimals, output_mint, output_decimals,
       input_amount, remaining_input_amount, output_amount, trigger_mint, trigger_condition, trigger_price_usd, tp_price_usd, sl_price_usd, slippage_bps,
       expires_at, deposit_signature, raw, created_at, updated_at, first_seen_at, last_synced_at)
     VALUES ('o-1', 'sol-tp/1/tp1', 'sol-tp', 0, 'price', 'otoco', 'open', 'open', ?, 9, ?, 6, '2500000000', '1250000000', '225050000', ?, 'above',
       '180', '200.5', '150', 300, ?, 'dep1', '{}', ?, ?, ?, ?)`,
  ).run(SOL_MINT, USDC_MINT, SOL_MINT, T + 86_400_000 + 1, T + 5, T + 60_000, T + 5, T + 60_000);
  db.prepare(
    `INSERT INTO trigger_orders (id, adopted, family, order_type, state, input_mint, input_decimals, output_mint, output_decimals, input_amount,
       raw, created_at, updated_at, first_seen_at, last_synced_at)
     VALUES ('o-2', 1, 'dca', 'time_based', 'active', ?, 6, ?, 5, '50000000', '{}', ?, ?, ?, ?)`,
  ).run(USDC_MINT, BONK, T + 10, T + 10, T + 10, T + 10);

  audit.append({ kind: 'wallet.balances', data: { balances: [{ mint: SOL_MINT, decimals: 9, amount: '1' }], readAt: T } });
  audit.append({
    kind: 'wallet.balances',
    data: {
      balances: [
        { mint: BONK, decimals: 5, amount: '120000000' },
        { mint: 'NewMint1111111111111111111111111111111111111', decimals: 0, amount: '7' },
        { mint: SOL_MINT, decimals: 9, amount: '500000001' },
      ],
      readAt: T + 3_600_000 + 42,
    },
  });
  return db;
}

describe('audit views', () => {
  it('trades: one row per fill in human units, with the price, fee and the intent behind it', () => {
    const db = database();
    const rows = db.prepare('SELECT * FROM trades').all() as Record<string, unknown>[];
    expect(
      rows.map((r) => [r.at_utc, r.strategy, r.side, r.token, r.token_amount, r.counter, r.counter_amount, r.price_usd, r.fee_token, r.fee_amount]),
    ).toEqual([
      ['2026-01-01T00:01:00.123Z', 'sol-tp', 'buy', 'SOL', '1.5', 'USDC', '270.5', '180.333333333333333333', 'SOL', '0.003'],
      ['2026-01-01T00:02:00.123Z', 'sol-tp', 'sell', 'SOL', '3', 'USDC', '1', '0.333333333333333333', null, null],
      ['2026-01-01T00:03:00.123Z', 'sol-tp', 'swap', 'SOL', '0.25', 'JUP', '1000', null, null, null],
      ['2026-01-01T00:04:00.123Z', 'bonk-exit', 'sell', 'BONK', '1234567890123.45678', 'USDT', '1000000', null, null, null],
      ['2026-01-01T00:05:00.123Z', null, 'buy', 'BONK', '1', 'USDT', '0.001', '0.001', null, null],
      ['2026-01-01T00:06:00.123Z', 'x', 'buy', 'NewMint1111111111111111111111111111111111111', '7', 'USDC', '0.000001', '0.000000142857142857', null, null],
    ]);
    // The same prices and amounts as jupbot's own reading of the fills (`jupbot audit trades --json`), where the view can divide.
    const name = tokenNamer(pinnedSymbols(db));
    const own = listFills(db).map((f) => tradeJson(toTrade(f, name)) as { priceUsd: string | null; token: { amount: string }; counter: { amount: string } });
    expect(rows.map((r) => [r.token_amount, r.counter_amount, r.price_usd])).toEqual(
      own.map((t, i) => [t.token.amount, t.counter.amount, i === 3 ? null : t.priceUsd]),
    );
    expect(own[3]?.priceUsd).toBe('0.00000081000000729');
    expect(rows[1]).toEqual({
      id: 2,
      at_utc: '2026-01-01T00:02:00.123Z',
      strategy: 'sol-tp',
      source: 'swap',
      side: 'sell',
      token: 'SOL',
      token_amount: '3',
      counter: 'USDC',
      counter_amount: '1',
      price_usd: '0.333333333333333333',
      fee_token: null,
      fee_amount: null,
      signature: 'sig2',
      intent_id: 'sol-tp/1/tp1',
      rule: 'tp1',
      reason: 'SOL at $180 reached take profit $180',
      token_mint: SOL_MINT,
      counter_mint: USDC_MINT,
    });
  });

  it('orders: one row per order, times in UTC, amounts with their decimals, adopted ones named so', () => {
    const db = database();
    expect(db.prepare('SELECT * FROM orders').all()).toEqual([
      {
        id: 'o-1',
        created_utc: '2026-01-01T00:00:00.005Z',
        updated_utc: '2026-01-01T00:01:00.000Z',
        expires_utc: '2026-01-02T00:00:00.001Z',
        family: 'price',
        type: 'otoco',
        state: 'open',
        strategy: 'sol-tp',
        input: 'SOL',
        input_amount: '2.5',
        remaining_input_amount: '1.25',
        output: 'USDC',
        output_amount: '225.05',
        trigger_token: 'SOL',
        trigger_condition: 'above',
        trigger_price_usd: '180',
        tp_price_usd: '200.5',
        sl_price_usd: '150',
        slippage_bps: 300,
        trailing_bps: null,
        intent_id: 'sol-tp/1/tp1',
        deposit_signature: 'dep1',
      },
      {
        id: 'o-2',
        created_utc: '2026-01-01T00:00:00.010Z',
        updated_utc: '2026-01-01T00:00:00.010Z',
        expires_utc: null,
        family: 'dca',
        type: 'time_based',
        state: 'active',
        strategy: 'adopted',
        input: 'USDC',
        input_amount: '50',
        remaining_input_amount: null,
        output: 'BONK',
        output_amount: null,
        trigger_token: null,
        trigger_condition: null,
        trigger_price_usd: null,
        tp_price_usd: null,
        sl_price_usd: null,
        slippage_bps: null,
        trailing_bps: null,
        intent_id: null,
        deposit_signature: null,
      },
    ]);
  });

  it('holdings: the newest recorded balances, by mint, with their decimals applied', () => {
    const db = database();
    const newest = (db.prepare("SELECT max(id) AS id FROM actions WHERE kind = 'wallet.balances'").get() as { id: number }).id;
    expect(db.prepare('SELECT * FROM holdings').all()).toEqual([
      { mint: BONK, symbol: 'BONK', amount: '1200', units: '120000000', decimals: 5, read_utc: '2026-01-01T01:00:00.042Z', action_id: newest },
      {
        mint: 'NewMint1111111111111111111111111111111111111',
        symbol: 'NewMint1111111111111111111111111111111111111',
        amount: '7',
        units: '7',
        decimals: 0,
        read_utc: '2026-01-01T01:00:00.042Z',
        action_id: newest,
      },
      { mint: SOL_MINT, symbol: 'SOL', amount: '0.500000001', units: '500000001', decimals: 9, read_utc: '2026-01-01T01:00:00.042Z', action_id: newest },
    ]);
  });

  it('holdings: empty before the first reading', () => {
    const { db } = freshStore();
    expect(db.prepare('SELECT * FROM holdings').all()).toEqual([]);
  });
});
