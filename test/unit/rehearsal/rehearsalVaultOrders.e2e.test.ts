/**
 * Rehearsed vault orders end to end: the daemon in rehearsal mode against the simulator standing in
 * for Jupiter and the chain, demo-like vault strategies deciding exactly what they would live, and
 * the rehearsal's keeper filling their orders at the quotes Jupiter answers. The simulator records
 * every request that would change its world: nothing but quotes (`GET /swap/v2/order`), and no
 * Trigger call, `/execute` or `sendTransaction` at all.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import { ledgerBalances } from '../../../src/rehearsal/ledger.js';
import type { Db } from '../../../src/store/db.js';
import { rehearsalWorld, type RehearsalWorld } from './support/rehearsalWorld.js';

const START = Date.UTC(2026, 10, 2, 8, 0);
const MINUTE = 60_000;
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
/** The simulator's paper wallet: 10 SOL, 1000 USDC. */
const OPENING = new Map([
  [SOL, 10_000_000_000n],
  [USDC, 1_000_000_000n],
]);
const FEE = 5_000n;

/** strategies/sol-take-profit.yaml, as shipped but for its expiry. */
const SOL_TAKE_PROFIT = (expiry: string): string => `name: sol-take-profit
kind: price-order
sell: SOL
receive: USDC
amount: "50%"
execution: vault
reference_price_usd: "150"
take_profit:
  - at: "+20%"
    sell: "50%"
  - at: "+40%"
    sell: "50%"
stop_loss:
  at: "-10%"
  slippage_bps: 100
slippage_bps: 50
${expiry}
risk:
  max_notional_per_order_usd: "5000"
  min_sell_price_usd: "100"
`;

/** strategies/bonk-trailing-stop.yaml, as shipped. */
const BONK_TRAILING_STOP = `name: bonk-trailing-stop
kind: price-order
sell: BONK
receive: USDC
amount: "25000000"
trailing_stop:
  distance: "12%"
  mode: ratchet
  ratchet_step: "1%"
expires_after: 3d
renew_before: 2h
`;

/** strategies/jup-dca-vault.yaml with three hourly rounds instead of ten daily ones. */
const JUP_DCA_VAULT = `name: jup-dca-vault
kind: dca
buy: JUP
pay_with: USDC
amount: "20"
execution: vault
vault:
  orders: 3
  interval: 1h
  type: time_based
`;

const worlds: RehearsalWorld[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.close();
});

function world(seed: string, strategies: Record<string, string>, config: readonly string[] = []): RehearsalWorld {
  const w = rehearsalWorld({ seed, startAt: START, strategies, priceWalk: false, config });
  worlds.push(w);
  return w;
}

function read<T>(w: RehearsalWorld, query: (db: Db) => T): T {
  const db = new Database(w.database, { readonly: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

interface OrderRow {
  id: string;
  intent_id: string;
  state: string;
  order_type: string;
  input_amount: string;
  remaining_input_amount: string | null;
  trigger_price_usd: string | null;
  tp_price_usd: string | null;
  sl_price_usd: string | null;
}
interface FillRow {
  signature: string;
  source: string;
  trigger_order_id: string;
  in_mint: string;
  in_amount: string;
  out_mint: string;
  out_amount: string;
}
const orders = (db: Db): OrderRow[] => db.prepare('SELECT * FROM trigger_orders ORDER BY created_at, id').all() as OrderRow[];
const fills = (db: Db): FillRow[] => db.prepare('SELECT * FROM fills ORDER BY id').all() as FillRow[];
const costs = (db: Db): bigint =>
  (
    db.prepare("SELECT c.lamports FROM rehearsal_costs c JOIN intents i ON i.id = c.intent_id WHERE i.state = 'confirmed'").all() as { lamports: string }[]
  ).reduce((sum, r) => sum + BigInt(r.lamports), 0n);

/** Nothing but quotes reached the world: no Trigger write, no `/execute`, no `sendTransaction`. */
function expectOnlyQuotes(w: RehearsalWorld): void {
  const writes = w.writes.map((r) => `${r.method} ${r.path}`);
  expect(writes.filter((line) => line !== 'GET /swap/v2/order')).toEqual([]);
  for (const quote of w.quotes) expect(quote.query['taker']).toBeUndefined();
}

/** Every fill is one of the quotes Jupiter answered, for exactly its amount, asked without a taker. */
function expectFilledAtQuotes(w: RehearsalWorld, rows: readonly FillRow[]): void {
  for (const fill of rows) {
    const answer = w.quotes.find((q) => q.query['inputMint'] === fill.in_mint && q.body.inAmount === fill.in_amount && q.body.outAmount === fill.out_amount);
    expect(answer?.query, `fill ${fill.signature} at a quote received, asked without a taker`).toEqual({
      inputMint: fill.in_mint,
      outputMint: fill.out_mint,
      amount: fill.in_amount,
    });
  }
}

describe('rehearsed vault orders', () => {
  it('an OCO of sol-take-profit is held in the ledger, fills at exactly the quote when SOL crosses its take-profit, and the ledger is opening − in + out', async () => {
    const w = world('rehearsal-oco', { 'sol-take-profit': SOL_TAKE_PROFIT('expires_after: 7d\nrenew_before: 1h') });
    const daemon = await w.start();
    await driveTo(w.clock, w.net, START + 2 * MINUTE);
    const placed = read(w, (db) => ({ orders: orders(db), balances: ledgerBalances(db) }));
    expect(placed.orders.map((o) => [o.order_type, o.state, o.input_amount, o.tp_price_usd, o.sl_price_usd])).toEqual([
      ['oco', 'open', '2500000000', '180', '135'],
      ['oco', 'open', '2500000000', '210', '135'],
    ]);
    // Half the SOL is in the two deposits, and each deposit paid its signature.
    expect(placed.balances.get(SOL)).toBe((OPENING.get(SOL) ?? 0n) - 5_000_000_000n - 2n * FEE);
    expect(placed.balances.get(USDC)).toBe(OPENING.get(USDC));
    expect(w.quotes).toEqual([]);

    w.sim.control.setPrice(SOL, 181);
    await driveTo(w.clock, w.net, START + 4 * MINUTE);
    await daemon.stop('done');
    const after = read(w, (db) => ({ orders: orders(db), fills: fills(db), balances: ledgerBalances(db), costs: costs(db) }));
    expect(after.orders.map((o) => o.state)).toEqual(['filled', 'open']);
    expect(after.fills).toHaveLength(1);
    const [fill] = after.fills;
    expect(fill).toMatchObject({ source: 'trigger', trigger_order_id: after.orders[0]?.id, in_mint: SOL, in_amount: '2500000000', out_mint: USDC });
    expectFilledAtQuotes(w, after.fills);
    const outUsdc = BigInt(fill?.out_amount ?? '0');
    expect(outUsdc).toBeGreaterThanOrEqual(447_750_000n);
    // Opening − what the fill took − what the open rung still holds − fees; + what the fill brought.
    expect(after.costs).toBe(2n * FEE);
    expect(after.balances.get(SOL)).toBe((OPENING.get(SOL) ?? 0n) - 2_500_000_000n - 2_500_000_000n - after.costs);
    expect(after.balances.get(USDC)).toBe((OPENING.get(USDC) ?? 0n) + outUsdc);
    expectOnlyQuotes(w);
    expect(w.writes.length).toBe(w.quotes.length);
  }, 120_000);

  it('a renewal withdraws the old OCO (its funds come back) and places its replacement, with no call to Trigger', async () => {
    const w = world('rehearsal-renew', { 'sol-take-profit': SOL_TAKE_PROFIT('expires_after: 1h\nrenew_before: 50m') });
    const daemon = await w.start();
    await driveTo(w.clock, w.net, START + 15 * MINUTE);
    await daemon.stop('done');
    const after = read(w, (db) => ({
      orders: orders(db),
      balances: ledgerBalances(db),
      renewals: db.prepare("SELECT id, state FROM intents WHERE kind = 'renew-vault-order' ORDER BY id").all() as { id: string; state: string }[],
      cancels: db.prepare("SELECT id FROM intents WHERE kind = 'cancel-vault-order'").all(),
      successors: db.prepare("SELECT id, state FROM intents WHERE id LIKE '%#place' ORDER BY id").all() as { id: string; state: string }[],
      cancelled: db.prepare("SELECT json_extract(data, '$.orderId') AS orderId FROM actions WHERE kind = 'order.cancelled'").all() as { orderId: string }[],
    }));
    expect(after.renewals.map((c) => c.state)).toEqual(['confirmed', 'confirmed']);
    expect(after.cancels).toEqual([]);
    expect(after.successors.map((s) => [s.id, s.state])).toEqual(after.renewals.map((c) => [`${c.id}#place`, 'confirmed']));
    const first = after.orders.slice(0, 2);
    expect(first.map((o) => o.state)).toEqual(['cancelled', 'cancelled']);
    expect(after.cancelled.map((c) => c.orderId).sort()).toEqual(first.map((o) => o.id).sort());
    expect(after.orders.slice(2).map((o) => [o.state, o.input_amount])).toEqual([
      ['open', '2500000000'],
      ['open', '2500000000'],
    ]);
    // Two deposits, two withdrawals, two deposits again: the replacements hold what the old ones did.
    expect(after.balances.get(SOL)).toBe((OPENING.get(SOL) ?? 0n) - 5_000_000_000n - 6n * FEE);
    expect(w.writes).toEqual([]);
  }, 120_000);

  it('a ratchet raises its stop by PATCH of the rehearsed order, which then fills at the quote when BONK falls to it', async () => {
    const w = world('rehearsal-ratchet', { 'bonk-trailing-stop': BONK_TRAILING_STOP }, ['rehearsal: { balances: { BONK: "25000000", SOL: "1" } }']);
    const daemon = await w.start();
    await driveTo(w.clock, w.net, START + 2 * MINUTE);
    const placed = read(w, (db) => orders(db));
    expect(placed.map((o) => [o.order_type, o.state, o.trigger_price_usd])).toEqual([['single', 'open', '0.0000176']]);

    w.sim.control.setPrice(BONK, 0.000022);
    await driveTo(w.clock, w.net, START + 4 * MINUTE);
    const raised = read(w, (db) => ({
      orders: orders(db),
      patches: db.prepare("SELECT state, params FROM intents WHERE kind = 'patch-vault-order'").all() as { state: string; params: string }[],
    }));
    expect(raised.patches.map((p) => [p.state, (JSON.parse(p.params) as { triggerPriceUsd: string }).triggerPriceUsd])).toEqual([['confirmed', '0.00001936']]);
    expect(raised.orders.map((o) => [o.state, o.trigger_price_usd])).toEqual([['open', '0.00001936']]);
    expect(w.quotes).toEqual([]);

    w.sim.control.setPrice(BONK, 0.0000193);
    await driveTo(w.clock, w.net, START + 6 * MINUTE);
    await daemon.stop('done');
    const after = read(w, (db) => ({ orders: orders(db), fills: fills(db), balances: ledgerBalances(db) }));
    expect(after.orders.map((o) => o.state)).toEqual(['filled']);
    expect(after.fills.map((f) => [f.in_mint, f.in_amount, f.out_mint])).toEqual([[BONK, '2500000000000', USDC]]);
    expectFilledAtQuotes(w, after.fills);
    expect(after.balances.get(BONK)).toBe(0n);
    expect(after.balances.get(USDC)).toBe(BigInt(after.fills[0]?.out_amount ?? '0'));
    expectOnlyQuotes(w);
  }, 120_000);

  it('a DCA vault order of jup-dca-vault fills a round at creation and one each hour at the quotes, then completes', async () => {
    const w = world('rehearsal-dca', { 'jup-dca-vault': JUP_DCA_VAULT });
    const daemon = await w.start();
    await driveTo(w.clock, w.net, START + 2 * MINUTE);
    const first = read(w, (db) => ({ orders: orders(db), fills: fills(db), balances: ledgerBalances(db) }));
    expect(first.orders.map((o) => [o.order_type, o.state, o.input_amount, o.remaining_input_amount])).toEqual([
      ['time_based', 'active', '60000000', '40000000'],
    ]);
    expect(first.fills.map((f) => [f.source, f.in_amount])).toEqual([['dca', '20000000']]);
    expect(first.balances.get(USDC)).toBe((OPENING.get(USDC) ?? 0n) - 60_000_000n);

    await driveTo(w.clock, w.net, START + 2 * 60 * MINUTE + 2 * MINUTE);
    await daemon.stop('done');
    const after = read(w, (db) => ({
      orders: orders(db),
      fills: fills(db),
      balances: ledgerBalances(db),
      completed: db.prepare("SELECT count(*) AS n FROM actions WHERE kind = 'order.completed'").get() as { n: number },
    }));
    expect(after.orders.map((o) => [o.state, o.remaining_input_amount])).toEqual([['completed', '0']]);
    expect(after.fills.map((f) => [f.source, f.in_mint, f.in_amount, f.out_mint])).toEqual([
      ['dca', USDC, '20000000', JUP],
      ['dca', USDC, '20000000', JUP],
      ['dca', USDC, '20000000', JUP],
    ]);
    expectFilledAtQuotes(w, after.fills);
    expect(after.completed.n).toBe(1);
    expect(after.balances.get(USDC)).toBe((OPENING.get(USDC) ?? 0n) - 60_000_000n);
    expect(after.balances.get(JUP)).toBe(after.fills.reduce((sum, f) => sum + BigInt(f.out_amount), 0n));
    expect(w.quotes).toHaveLength(3);
    expectOnlyQuotes(w);
  }, 120_000);
});
