import { HttpError, ok, parseJsonBody, Router, type RouteRequest } from './http.js';
import type { LedgerDump } from './ledger.js';
import type { FaultSpec, FaultTransfer, ScenarioStep } from './faults.js';
import { AGGREGATOR_IDL_KINDS, type AggregatorIdlKind } from './aggregatorIdl.js';
import { HOSTILE_VARIANTS } from './hostile.js';
import { ROUTE_FORMS, type RouteForm } from './jupiterRoutes.js';
import { venueByLabel } from './swapVenues.js';
import { isObject, isPubkey, parseAmount } from './validate.js';
import { PRODUCTS, type Product } from './gateway.js';

const isProducts = (value: unknown): value is Product[] => Array.isArray(value) && value.every((p) => (PRODUCTS as readonly unknown[]).includes(p));

/** What tests and the `/__sim/` routes can do to the simulated world. */
export interface SimControl {
  /** Moves simulated time forward (the ManualClock itself when the simulator was given one). */
  advance(ms: number): Promise<void>;
  setPrice(mint: string, usd: number): void;
  /** Makes the price feed (token search's `usdPrice`) report `usd` for a mint while quotes trade at the real price; null ends it. A test knob, like faults. */
  setFeedPrice(mint: string, usd: number | null): void;
  /** Sets what one contract of `side` sells for in an open market (a backtest's recorded mark). */
  setMark(marketId: string, side: 'yes' | 'no', usd: number): void;
  /** What one contract of `side` sells for now; null when the market is not open. */
  mark(marketId: string, side: 'yes' | 'no'): number | null;
  price(mint: string): number;
  /** Moves `amount` base units of `mint` (default SOL) from the treasury to `wallet`. */
  fund(wallet: string, amount: bigint, mint?: string): void;
  balance(wallet: string, mint?: string): bigint;
  /**
   * Moves `amount` base units of `mint` (default SOL) from one wallet to another, as a transaction
   * signed elsewhere would: the owner spending from another device, a stranger paying in. The
   * ledger changes (and with it the slot); nothing is listed in any history. Throws when `from`
   * does not hold the amount.
   */
  transfer(from: string, to: string, amount: bigint, mint?: string): void;
  /** Funds a paper wallet (10 SOL, 1,000 USDC) and gives it two prediction positions. */
  paperWallet(wallet: string): void;
  injectFault(spec: FaultSpec): number;
  scenario(steps: readonly ScenarioStep[]): number[];
  clearFaults(id?: number): void;
  settleMarket(marketId: string, result: 'yes' | 'no'): void;
  /** Sets a live game's score; play goes on from it. */
  setScore(eventId: string, home: number, away: number): void;
  setTradingActive(active: boolean): void;
  /**
   * The Trigger service loses orders: the named price and DCA orders (every one when none is named)
   * are dropped from its state, as after a restart that lost them. Their funds stay in the vaults.
   * Returns the ids dropped.
   */
  forgetOrders(ids?: readonly string[]): string[];
  /**
   * A wallet's past: `count` Trigger orders of `family` (default price) selling `inputMint` (default
   * SOL) for `outputMint` (default USDC), created and cancelled over the 30 days before the last hour
   * (src/sim/trigger/pastOrders.ts). History lists them; they hold nothing. Registers the wallet's
   * vault if it has none (a wallet with a past has one). Returns how many orders it now has.
   */
  pastOrders(wallet: string, count: number, options?: { family?: 'price' | 'dca'; inputMint?: string; outputMint?: string }): number;
  /**
   * How /order routes from now on: the instruction form (`auto`: what Swap V2 builds) and venue
   * labels to route through instead of each pair's own (the order's `excludeDexes` still applies).
   */
  setRouting(routing: { form?: RouteForm | 'auto'; venues?: readonly string[] | null }): void;
  /** What the aggregator's on-chain IDL account holds from now on. */
  setAggregatorIdl(kind: AggregatorIdlKind): void;
  /**
   * Scopes an API key to `products` from now on, as Jupiter's portal does (null: every product again):
   * calls to the others get the gateway's 403 `{code, message}`. Other keys are unaffected.
   */
  scopeKey(key: string, products: readonly Product[] | null): void;
  /** Refuses `products` to every caller from now on, as a region where they are blocked (empty: none). */
  blockProducts(products: readonly Product[]): void;
  /** A valid Trigger JWT for `wallet`, for tests that are not about login. */
  triggerToken(wallet: string): string;
  dumpLedger(options?: { entries?: boolean }): LedgerDump;
  dumpOrders(): Record<string, unknown>;
  /** Mints whose current supply differs from genesis, and balances below zero (both must be empty). */
  checkInvariants(): { supplyMismatches: string[]; negativeBalances: string[] };
  state(): { now: number; blockHeight: number; slot: number; seed: string };
}

const bad = (error: string): HttpError => new HttpError(400, { error });

function isFaultTransfer(value: unknown): value is FaultTransfer {
  if (!isObject(value)) return false;
  return (
    isPubkey(value['from']) &&
    isPubkey(value['to']) &&
    parseAmount(value['amount']) !== undefined &&
    (value['mint'] === undefined || typeof value['mint'] === 'string')
  );
}

function body(req: RouteRequest): Record<string, unknown> {
  const parsed = parseJsonBody(req, (error) => ({ error }));
  if (parsed === undefined) return {};
  if (!isObject(parsed)) throw bad('expected a JSON object');
  return parsed;
}

/** The `/__sim/` HTTP surface over {@link SimControl}; it bypasses the gateway and fault table. */
export function controlRouter(control: SimControl): Router {
  const r = new Router();
  r.add('GET', '/__sim/state', () => ok(control.state()));
  r.add('GET', '/__sim/ledger', (req) => ok(control.dumpLedger({ entries: req.query.get('entries') !== 'false' })));
  r.add('GET', '/__sim/orders', () => ok(control.dumpOrders()));
  r.add('GET', '/__sim/invariants', () => ok(control.checkInvariants()));
  r.add('POST', '/__sim/price', (req) => {
    const b = body(req);
    if (typeof b['mint'] !== 'string' || typeof b['usd'] !== 'number') throw bad('expected { mint, usd }');
    try {
      control.setPrice(b['mint'], b['usd']);
    } catch (error) {
      throw bad(error instanceof Error ? error.message : 'invalid price');
    }
    return ok({ mint: b['mint'], usd: b['usd'] });
  });
  r.add('POST', '/__sim/fund', (req) => {
    const b = body(req);
    const amount = parseAmount(b['amount']);
    if (!isPubkey(b['wallet']) || amount === undefined) throw bad('expected { wallet, amount (base units, string), mint? }');
    const mint = typeof b['mint'] === 'string' ? b['mint'] : undefined;
    control.fund(b['wallet'], amount, mint);
    return ok({ wallet: b['wallet'], balance: control.balance(b['wallet'], mint).toString() });
  });
  r.add('POST', '/__sim/transfer', (req) => {
    const b = body(req);
    const amount = parseAmount(b['amount']);
    if (!isPubkey(b['from']) || !isPubkey(b['to']) || amount === undefined) throw bad('expected { from, to, amount (base units, string), mint? }');
    const mint = typeof b['mint'] === 'string' ? b['mint'] : undefined;
    try {
      control.transfer(b['from'], b['to'], amount, mint);
    } catch (error) {
      throw bad(error instanceof Error ? error.message : 'transfer refused');
    }
    return ok({ from: b['from'], to: b['to'], balance: control.balance(b['from'], mint).toString() });
  });
  r.add('POST', '/__sim/wallets', (req) => {
    const b = body(req);
    if (!isPubkey(b['wallet'])) throw bad('expected { wallet }');
    control.paperWallet(b['wallet']);
    return ok({ wallet: b['wallet'] });
  });
  r.add('POST', '/__sim/faults', (req) => {
    const b = body(req);
    if (typeof b['path'] !== 'string' || !['status', 'delay', 'malformed', 'reset', 'hostile', 'transfer'].includes(String(b['kind'])))
      throw bad('expected { path, kind: status|delay|malformed|reset|hostile|transfer, ... }');
    if (b['kind'] === 'hostile' && !(HOSTILE_VARIANTS as readonly unknown[]).includes(b['variant']))
      throw bad(`expected { variant: ${HOSTILE_VARIANTS.join('|')} }`);
    if (b['kind'] === 'transfer' && !isFaultTransfer(b['transfer'])) throw bad('expected { transfer: { from, to, amount (base units, string), mint? } }');
    const methods = b['rpcMethod'];
    if (methods !== undefined && typeof methods !== 'string' && !(Array.isArray(methods) && methods.every((m) => typeof m === 'string')))
      throw bad('expected { rpcMethod: method | [method, ...] }');
    return ok({ id: control.injectFault(b as unknown as FaultSpec) });
  });
  r.add('POST', '/__sim/scenario', (req) => {
    const b = body(req);
    if (!Array.isArray(b['steps'])) throw bad('expected { steps: [...] }');
    return ok({ ids: control.scenario(b['steps'] as ScenarioStep[]) });
  });
  r.add('DELETE', '/__sim/faults', () => {
    control.clearFaults();
    return ok({ cleared: true });
  });
  r.add('DELETE', '/__sim/faults/:id', (req) => {
    control.clearFaults(Number(req.params['id']));
    return ok({ cleared: true });
  });
  r.add('POST', '/__sim/markets/:marketId/settle', (req) => {
    const b = body(req);
    if (b['result'] !== 'yes' && b['result'] !== 'no') throw bad('expected { result: yes|no }');
    control.settleMarket(req.params['marketId'] as string, b['result']);
    return ok({ marketId: req.params['marketId'], result: b['result'] });
  });
  r.add('POST', '/__sim/events/:eventId/score', (req) => {
    const b = body(req);
    if (typeof b['home'] !== 'number' || typeof b['away'] !== 'number') throw bad('expected { home, away }');
    try {
      control.setScore(req.params['eventId'] as string, b['home'], b['away']);
    } catch (error) {
      throw bad(error instanceof Error ? error.message : 'invalid score');
    }
    return ok({ eventId: req.params['eventId'], home: b['home'], away: b['away'] });
  });
  r.add('POST', '/__sim/trigger/forget', (req) => {
    const b = body(req);
    const ids = b['orderIds'];
    if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => typeof id === 'string')))
      throw bad('expected { orderIds?: string[] } (none: every order)');
    return ok({ forgotten: control.forgetOrders(ids) });
  });
  r.add('POST', '/__sim/trigger/past-orders', (req) => {
    const b = body(req);
    const count = b['count'];
    const family: unknown = b['family'] ?? 'price';
    const mints = [b['inputMint'], b['outputMint']];
    if (
      !isPubkey(b['wallet']) ||
      typeof count !== 'number' ||
      !Number.isInteger(count) ||
      count < 1 ||
      count > 100_000 ||
      (family !== 'price' && family !== 'dca') ||
      mints.some((m) => m !== undefined && !isPubkey(m))
    )
      throw bad('expected { wallet, count (1–100000), family?: price|dca, inputMint?, outputMint? }');
    try {
      const options = {
        family: family === 'dca' ? ('dca' as const) : ('price' as const),
        ...(b['inputMint'] === undefined ? {} : { inputMint: b['inputMint'] as string }),
        ...(b['outputMint'] === undefined ? {} : { outputMint: b['outputMint'] as string }),
      };
      return ok({ wallet: b['wallet'], family, orders: control.pastOrders(b['wallet'], count, options) });
    } catch (error) {
      throw bad(error instanceof Error ? error.message : 'past orders refused');
    }
  });
  r.add('POST', '/__sim/feed-price', (req) => {
    const b = body(req);
    if (typeof b['mint'] !== 'string' || !(b['usd'] === null || typeof b['usd'] === 'number')) throw bad('expected { mint, usd: number | null }');
    try {
      control.setFeedPrice(b['mint'], b['usd']);
    } catch (error) {
      throw bad(error instanceof Error ? error.message : 'invalid feed price');
    }
    return ok({ mint: b['mint'], usd: b['usd'] });
  });
  r.add('POST', '/__sim/routing', (req) => {
    const b = body(req);
    const form = b['form'] ?? 'auto';
    if (form !== 'auto' && !(ROUTE_FORMS as readonly unknown[]).includes(form)) throw bad(`expected { form: auto|${ROUTE_FORMS.join('|')} }`);
    const venues = b['venues'] ?? null;
    if (venues !== null && !(Array.isArray(venues) && venues.every((v) => typeof v === 'string' && venueByLabel(v) !== undefined)))
      throw bad('expected { venues: [label, ...] } naming venues of the simulator (docs/simulator.md), or null');
    control.setRouting({ form: form as RouteForm | 'auto', venues: venues as string[] | null });
    return ok({ form, venues });
  });
  r.add('POST', '/__sim/gateway/scopes', (req) => {
    const b = body(req);
    const products = b['products'];
    if (typeof b['key'] !== 'string' || b['key'] === '' || !(products === null || isProducts(products)))
      throw bad(`expected { key, products: [${PRODUCTS.join('|')}, ...] | null }`);
    control.scopeKey(b['key'], products);
    return ok({ key: b['key'], products });
  });
  r.add('POST', '/__sim/gateway/blocked', (req) => {
    const b = body(req);
    const products = b['products'];
    if (!isProducts(products)) throw bad(`expected { products: [${PRODUCTS.join('|')}, ...] } (empty: none blocked)`);
    control.blockProducts(products);
    return ok({ products });
  });
  r.add('POST', '/__sim/aggregator-idl', (req) => {
    const b = body(req);
    if (!(AGGREGATOR_IDL_KINDS as readonly unknown[]).includes(b['kind'])) throw bad(`expected { kind: ${AGGREGATOR_IDL_KINDS.join('|')} }`);
    control.setAggregatorIdl(b['kind'] as AggregatorIdlKind);
    return ok({ kind: b['kind'] });
  });
  r.add('POST', '/__sim/trading', (req) => {
    const b = body(req);
    if (typeof b['active'] !== 'boolean') throw bad('expected { active: boolean }');
    control.setTradingActive(b['active']);
    return ok({ active: b['active'] });
  });
  return r;
}
