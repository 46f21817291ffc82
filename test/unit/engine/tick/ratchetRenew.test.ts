/**
 * End to end through decide(): the strategy decides on a snapshot built the way the engine builds
 * it (prices, balances, and the vault orders from the `trigger_orders` mirror refreshed from
 * history), each intent goes through its route into the journal and the executor drives it against
 * the simulator, whose keeper fills orders as the price moves on a ManualClock.
 */
import { describe, expect, it } from 'vitest';
import { intentRoutes, planOf } from '../../../../src/engine/executor/intentRoute.js';
import { vaultCancelPlan, vaultPlacePlan } from '../../../../src/engine/executor/vaultParams.js';
import { patchVaultOrderRoute } from '../../../../src/engine/executor/vaultPatchParams.js';
import { renewVaultOrderRoute } from '../../../../src/engine/executor/vaultRenewParams.js';
import { syncVaultOrders } from '../../../../src/engine/executor/vaultSync.js';
import { strategyProgress, strategyRows } from '../../../../src/engine/tick/strategyProgress.js';
import { getAllOrderHistory } from '../../../../src/jupiter/trigger.js';
import { decide } from '../../../../src/strategies/decide.js';
import { type Fixed, maxFixed, parseFixed } from '../../../../src/strategies/decimal.js';
import type { Decision } from '../../../../src/strategies/intents.js';
import type { LoadedStrategy } from '../../../../src/strategies/loadedStrategy.js';
import type { Snapshot, StrategyState, VaultOrderView } from '../../../../src/strategies/snapshot.js';
import { HEADER, load } from '../../strategies/helpers.js';
import { bootFull, depositAmounts, type FullVaultStack, simOrder } from '../executor/patchRenewSupport.js';
import { SOL, USDC, vaultWorld, type VaultWorld } from '../executor/vaultSupport.js';

const ROUTES = intentRoutes(
  { kind: 'place-vault-order', plan: vaultPlacePlan },
  { kind: 'cancel-vault-order', plan: vaultCancelPlan },
  patchVaultOrderRoute,
  renewVaultOrderRoute,
);

const TICK_MS = 10_000;

/** The bonk-trailing-stop.yaml shape, on SOL (the simulator's keeper trades it). */
const TRAILING = `${HEADER}name: sol-trailing-stop
kind: price-order
sell: SOL
receive: USDC
amount: "1"
trailing_stop:
  distance: "12%"
  mode: ratchet
  ratchet_step: "1%"
expires_after: 3d
renew_before: 2h
`;

const RENEWING = `${HEADER}name: sol-renewing-tp
kind: price-order
sell: SOL
receive: USDC
amount: "1"
take_profit:
  - at: "300"
expires_after: 1h
renew_before: 10m
`;

const fixed = (text: string | null): Fixed | null => (text === null ? null : (parseFixed(text) ?? null));

/** A strategy driven tick by tick; the StrategyState parts the engine keeps in memory are kept here. */
class Driver {
  peak: Fixed | undefined;
  armedAmount: bigint | undefined;
  reference: Fixed | undefined;
  readonly decisions: Decision[] = [];

  constructor(
    readonly w: VaultWorld,
    readonly s: FullVaultStack,
    readonly strategy: LoadedStrategy,
  ) {}

  /** The mirror refreshed from history (fills recorded once), as the orders feed does on every read. */
  async sync(): Promise<number> {
    return syncVaultOrders(await getAllOrderHistory(this.s.authed), { orders: this.s.orders, journal: this.s.journal, clock: this.w.clock });
  }

  views(): VaultOrderView[] {
    const rows = this.s.db
      .prepare(
        `SELECT t.id, i.rule, t.family, t.order_type AS orderType, t.state, t.expires_at AS expiresAt, t.trigger_price_usd AS trigger, t.trailing_bps AS trailingBps, t.input_amount AS inputAmount
         FROM trigger_orders t JOIN intents i ON i.id = t.intent_id WHERE t.strategy = ? ORDER BY t.created_at`,
      )
      .all(this.strategy.name) as Array<{ id: string; rule: string; family: 'price'; orderType: 'single'; state: string; expiresAt: number | null; trigger: string | null; trailingBps: number | null; inputAmount: string }>;
    return rows.map((r) => ({ id: r.id, rule: r.rule, family: r.family, orderType: r.orderType, state: r.state, expiresAt: r.expiresAt, triggerPriceUsd: fixed(r.trigger), trailingBps: r.trailingBps, inputAmount: BigInt(r.inputAmount) }));
  }

  snapshot(now: number): Snapshot {
    const price = fixed(String(this.w.sim.control.price(SOL))) ?? 0n;
    return {
      prices: new Map([
        [SOL, { usd: price, at: now }],
        [USDC, { usd: 10n ** 18n, at: now }],
      ]),
      balances: new Map([
        [SOL, this.w.sim.control.balance(this.w.wallet.address, SOL)],
        [USDC, this.w.sim.control.balance(this.w.wallet.address, USDC)],
      ]),
      vaultOrders: new Map([[this.strategy.name, this.views()]]),
      positions: [],
      markets: new Map(),
      scores: new Map(),
      tradingActive: null,
      priceImpactBps: new Map(),
    };
  }

  state(snapshot: Snapshot, now: number): StrategyState {
    const price = snapshot.prices.get(SOL)?.usd ?? 0n;
    this.peak = maxFixed(this.peak ?? price, price);
    if (this.armedAmount === undefined) {
      this.armedAmount = snapshot.balances.get(SOL) ?? 0n;
      this.reference = price;
    }
    const progress = strategyProgress(strategyRows(this.s.db, this.strategy.name), now, () => undefined);
    const filled = new Set(this.views().filter((v) => v.state === 'filled').map((v) => v.rule));
    return { generation: 0, filledRules: filled, handled: progress.handled, peakPriceUsd: this.peak, armedAmount: this.armedAmount, ...(this.reference === undefined ? {} : { referencePriceUsd: this.reference }) };
  }

  /** One tick: the clock moves, history is read, decide() runs, its intents are journaled and driven. */
  async tick(ms = TICK_MS): Promise<Decision> {
    await this.w.sim.control.advance(ms);
    await this.sync();
    const now = this.w.clock.now();
    const snapshot = this.snapshot(now);
    const decision = decide(this.strategy, this.state(snapshot, now), snapshot, now);
    this.decisions.push(decision);
    for (const intent of decision.intents) {
      const plan = planOf(ROUTES, intent);
      if (plan) await this.s.executor.execute(plan);
    }
    return decision;
  }

  kinds(): string[] {
    return this.decisions.flatMap((d) => d.intents.map((i) => i.kind));
  }
}

const count = (s: FullVaultStack, sql: string, ...args: unknown[]): number => (s.db.prepare(sql).get(...args) as { n: number }).n;

describe('vault orders end to end: a ratchet stop and a renewal, through decide()', () => {
  it('a trailing stop that ratchets and fills: PATCHes raise it, the keeper fills it, the fill is recorded once', async () => {
    const w = vaultWorld('e2e-ratchet');
    w.sim.control.setPrice(SOL, 150);
    const s = bootFull(w);
    const d = new Driver(w, s, await load(TRAILING, 'trailing.yaml'));

    await d.tick();
    expect(d.kinds()).toEqual(['place-vault-order']);
    const [placed] = d.views();
    // 12% under the peak ($150, give or take the simulator's walk).
    expect(placed?.rule).toBe('trailing_stop');
    expect(Number(placed?.triggerPriceUsd ?? 0n) / 1e18).toBeCloseTo(132, 0);
    const orderId = placed?.id ?? '';
    await d.tick();

    // The price rises: each step of at least 1% raises the stop by PATCH.
    for (const price of [160, 170]) {
      w.sim.control.setPrice(SOL, price);
      await d.tick();
      await d.tick();
    }
    expect(d.kinds().filter((k) => k === 'patch-vault-order')).toHaveLength(2);
    expect(count(s, "SELECT count(*) AS n FROM intents WHERE kind = 'patch-vault-order' AND state = 'confirmed'")).toBe(2);
    const raised = (s.db.prepare("SELECT params FROM intents WHERE kind = 'patch-vault-order' ORDER BY created_at, id").all() as Array<{ params: string }>).map(
      (r) => (JSON.parse(r.params) as { triggerPriceUsd: string }).triggerPriceUsd,
    );
    expect(Number(raised[0])).toBeCloseTo(140.8, 0);
    expect(Number(raised[1])).toBeCloseTo(149.6, 0);
    // The order and the mirror (what decide() sees next) carry the last raise.
    expect(simOrder(w, orderId)?.triggerPriceUsd).toBe(Number(raised[1]));
    expect(Number(d.views()[0]?.triggerPriceUsd ?? 0n) / 1e18).toBeCloseTo(Number(raised[1]), 9);
    // Noise under the step: no PATCH.
    w.sim.control.setPrice(SOL, 171);
    await d.tick();
    expect(d.kinds().filter((k) => k === 'patch-vault-order')).toHaveLength(2);

    // The price falls through the stop: the keeper fills it.
    w.sim.control.setPrice(SOL, 145);
    for (let i = 0; i < 4; i++) await d.tick();
    expect(simOrder(w, orderId)?.orderState).toBe('filled');
    expect(d.views()[0]?.state).toBe('filled');
    const placeId = s.orders.get(orderId)?.intentId ?? '';
    expect(s.journal.fillCount(placeId)).toBe(1);
    // Polls and decisions later: still one fill, nothing new decided.
    for (let i = 0; i < 3; i++) await d.tick();
    expect(s.journal.fillCount(placeId)).toBe(1);
    expect(count(s, "SELECT count(*) AS n FROM actions WHERE kind = 'fill'")).toBe(1);
    expect(d.kinds().filter((k) => k === 'place-vault-order')).toHaveLength(1);
    expect(depositAmounts(w)).toEqual([1_000_000_000n]);
  });

  it('a vault order renewed before expiry: cancelled and replaced, the replacement live, nothing double-deposited', async () => {
    const w = vaultWorld('e2e-renew');
    w.sim.control.setPrice(SOL, 150);
    const s = bootFull(w);
    const d = new Driver(w, s, await load(RENEWING, 'renewing.yaml'));

    await d.tick();
    const [first] = d.views();
    expect(first).toMatchObject({ rule: 'take_profit[0]', expiresAt: w.clock.now() + 3_600_000 });
    const oldId = first?.id ?? '';
    const oldExpiry = first?.expiresAt ?? 0;
    // Before the renew window: nothing to do.
    await d.tick(40 * 60_000);
    expect(d.kinds()).toEqual(['place-vault-order']);

    // Into the window (10 minutes before expiry): renewed once.
    await d.tick(11 * 60_000);
    expect(d.kinds()).toEqual(['place-vault-order', 'renew-vault-order']);
    expect(simOrder(w, oldId)?.orderState).toBe('cancelled');
    const live = d.views().filter((v) => v.state === 'open' || v.state === 'pending');
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ rule: 'take_profit[0]', inputAmount: 1_000_000_000n, expiresAt: w.clock.now() + 3_600_000 });
    expect(live[0]?.expiresAt).toBeGreaterThan(oldExpiry);
    const replacementId = live[0]?.id ?? '';

    // Later ticks: the replacement stays, nothing more is cancelled or deposited.
    for (let i = 0; i < 3; i++) await d.tick();
    expect(simOrder(w, replacementId)?.orderState).toBe('open');
    expect(d.kinds().filter((k) => k === 'renew-vault-order')).toHaveLength(1);
    expect(depositAmounts(w)).toEqual([1_000_000_000n, 1_000_000_000n]);
    expect(w.simOrders().filter((o) => o.orderState === 'open')).toHaveLength(1);
    expect(count(s, "SELECT count(*) AS n FROM intents WHERE kind = 'place-vault-order'")).toBe(2);
    expect(count(s, "SELECT count(*) AS n FROM intents WHERE kind = 'cancel-vault-order' AND state = 'confirmed'")).toBe(1);
    // One SOL out to the vault, back, and out again: the wallet holds 1 SOL less (fees aside).
    expect(w.sim.control.balance(w.wallet.address, SOL)).toBeGreaterThan(990_000_000n);
    expect(w.sim.control.balance(w.wallet.address, SOL)).toBeLessThan(1_000_000_000n);
  });
});
