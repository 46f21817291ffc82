import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import type { Clock } from '../clock.js';
import { createRandom } from '../random.js';
import { Chain } from './chain.js';
import { controlRouter, type SimControl } from './control.js';
import { type FaultTransfer, Faults } from './faults.js';
import { hostileAnswerer } from './hostileAnswer.js';
import { rfqMaker } from './rfq.js';
import { listenOn, nodeHandler } from './nodeServer.js';
import { Gateway, type GatewayOptions } from './gateway.js';
import { HttpError, Router, toJson, type RouteResult, type SimRequest, type SimResponse } from './http.js';
import { IdSource } from './ids.js';
import { InsufficientBalance, Ledger, SystemWallet } from './ledger.js';
import { Market } from './market.js';
import { MICRO, PredictionMarkets, pricesOf } from './prediction/markets.js';
import { PredictionRoutes } from './prediction/predictionRoutes.js';
import { PredictionTrading } from './prediction/predictionTrading.js';
import { derivedAddress, SOL_MINT, USDC_MINT } from './programIds.js';
import { LookupTables } from './lookupTables.js';
import { SolanaRpc } from './rpc.js';
import { SwapService } from './swapService.js';
import { syntheticTokens, TOKEN_CATALOG } from './tokenCatalog.js';
import { searchRoute } from './tokenSearch.js';
import { TriggerAuth } from './trigger/auth.js';
import { DcaService } from './trigger/dca.js';
import { PriceEngine } from './trigger/priceEngine.js';
import { historyItem } from './trigger/priceOrder.js';
import { pastDcaOrders, pastPriceOrders } from './trigger/pastOrders.js';
import { PriceOrderRoutes } from './trigger/priceRoutes.js';
import { TriggerVaults } from './trigger/vaults.js';
import { Clockwork, type SimWorld } from './world.js';
import { inputRequest, requestInput, writesWorld, type ControlOp, type WorldInput } from './worldInput.js';

export interface SimulatorOptions {
  /** The only source of time. A ManualClock in tests; the shared scaled clock in paper mode. */
  readonly clock: Clock;
  /** Same seed and same calls ⇒ byte-identical answers and ledger. */
  readonly seed?: string | number;
  readonly gateway?: GatewayOptions;
  /** Wallets funded at start (10 SOL, 1,000 USDC, two prediction positions). */
  readonly paperWallets?: readonly string[];
  /** World step in ms (default 1000). */
  readonly stepMs?: number;
  /**
   * Made-up verified tokens added to the real ones (`SYN001`…, mints derived from the seed), for load
   * tests that need hundreds of mints. They walk on their own random stream: the real tokens' prices
   * are the same with or without them. @default 0
   */
  readonly extraTokens?: number;
  /** `false`: prices hold still between `setPrice` calls (no random walk), for tests that script a price path. @default true */
  readonly priceWalk?: boolean;
  /** `false`: prediction markets without a game hold their price between `setMark` calls (a backtest's marks). @default true */
  readonly predictionWalk?: boolean;
  /**
   * Told of every input that changes the world (a writing request, a control action), synchronously,
   * before its answer leaves: what a paper world keeps so that it can be rebuilt by {@link Simulator.replay}.
   */
  readonly onInput?: (input: WorldInput) => void;
  /**
   * Platform fee in basis points for every pair, instead of Jupiter's schedule by pair (0, 2, 5, 10,
   * 50 bps): a backtest's cost assumption. @default Jupiter's schedule
   */
  readonly feeBps?: number | undefined;
  /** Multiplies every token's liquidity depth: a larger depth, a smaller price impact for the same trade. @default 1 */
  readonly liquidityScale?: number | undefined;
}

export interface Simulator {
  /** Serves one request in-process (node:http shapes), e.g. as a `createServer` listener. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** The same pipeline without sockets: what `handle` and the tests' in-process calls use. */
  dispatch(req: SimRequest): Promise<SimResponse>;
  /** Listens on `host:port` (port 0 = ephemeral). `catchUpEveryMs` adds a real-timer catch-up (paper mode). */
  listen(port?: number, host?: string, options?: { catchUpEveryMs?: number }): Promise<{ url: string; close(): Promise<void> }>;
  readonly control: SimControl;
  readonly seed: string;
  /** The world's first instant (epoch ms): a rebuilt world must start there too. */
  readonly genesis: number;
  /**
   * Applies a kept input again, at the clock's current time (the caller moves the clock to
   * `input.at` first), bypassing the gateway and the fault table as the original did not: it is not
   * reported to `onInput` again.
   */
  replay(input: WorldInput): void;
}

const RPC_PATHS = new Set(['/', '/rpc']);

/** Builds the simulated Jupiter + Solana world. See docs/simulator.md. */
export function createSimulator(options: SimulatorOptions): Simulator {
  const seed = String(options.seed ?? 'jupbot');
  const clock = options.clock;
  let offset = 0;
  const clockNow = (): number => clock.now() + offset;
  const clockwork = new Clockwork(clockNow, options.stepMs ?? 1000);
  const now = clockwork.now;
  const genesis = clockNow();
  const ledger = new Ledger(now);
  const market = new Market(
    createRandom(`${seed}:market`),
    now,
    TOKEN_CATALOG,
    { tokens: syntheticTokens(seed, options.extraTokens ?? 0), random: createRandom(`${seed}:market:synthetic`) },
    { feeBps: options.feeBps, liquidityScale: options.liquidityScale },
  );
  const world: SimWorld = {
    now,
    seed,
    ids: new IdSource(createRandom(`${seed}:ids`)),
    ledger,
    market,
    chain: new Chain(seed, genesis, now, ledger),
    random: createRandom(`${seed}:world`),
    lookupTables: new LookupTables(seed, () => chainSlot()),
    gasWallet: Keypair.fromSeed(createHash('sha256').update(`${seed}:gas-wallet`).digest()),
    feeOwner: derivedAddress(`${seed}:jupiter-fee-owner`),
    routing: { form: 'auto', venues: null },
    aggregatorIdl: 'published',
  };
  function chainSlot(): number {
    return world.chain.slot();
  }
  const gatewayIds = new IdSource(createRandom(`${seed}:gateway`));

  // Genesis: each mint's supply goes to the treasury; the market, Jupiter's gas wallet and the
  // prediction vault are stocked from it, so the supply of every mint is conserved from here on.
  for (const t of market.tokens) {
    const unit = 10n ** BigInt(t.decimals);
    ledger.genesis(SystemWallet.treasury, t.mint, BigInt(Math.round(t.totalSupply)) * unit);
    const depth = market.amountForUsd(t.mint, t.liquidityUsd);
    ledger.transfer(SystemWallet.treasury, SystemWallet.liquidity, t.mint, depth, 'genesis-liquidity', 'genesis');
  }
  ledger.transfer(SystemWallet.treasury, world.gasWallet.publicKey.toBase58(), SOL_MINT, 1_000n * 10n ** 9n, 'genesis-gas', 'genesis');
  ledger.transfer(SystemWallet.treasury, SystemWallet.predictionVault, USDC_MINT, 10_000_000n * 10n ** 6n, 'genesis-prediction', 'genesis');

  const router = new Router();
  router.add(
    'GET',
    '/ultra/v1/search',
    searchRoute(market, () => world.chain.height(), now),
  );
  router.add(
    'GET',
    '/tokens/v2/search',
    searchRoute(market, () => world.chain.height(), now),
  );
  const swap = new SwapService(world);
  swap.register(router);
  const auth = new TriggerAuth(world);
  auth.register(router);
  const vaults = new TriggerVaults(world, auth);
  vaults.register(router);
  const priceEngine = new PriceEngine(world);
  const priceRoutes = new PriceOrderRoutes(world, auth, vaults, priceEngine);
  priceRoutes.register(router);
  const dca = new DcaService(world, auth, vaults);
  dca.register(router);
  priceRoutes.registerSingle(router);
  const predictionMarkets = new PredictionMarkets(createRandom(`${seed}:prediction`), genesis, { walk: options.predictionWalk !== false });
  const trading = new PredictionTrading(world, predictionMarkets);
  new PredictionRoutes(world, predictionMarkets, trading).register(router);
  const rpc = new SolanaRpc(world);

  clockwork.add(() => {
    if (options.priceWalk !== false) market.step(clockwork.stepMs);
  });
  clockwork.add((t) => priceEngine.step(t));
  clockwork.add((t) => dca.step(t));
  clockwork.add((t, dt) => predictionMarkets.step(t, dt));
  clockwork.add((t) => trading.step(t));
  clockwork.add((t) => {
    if (t % 60_000 < clockwork.stepMs) swap.sweep(t);
  });

  const gateway = new Gateway(options.gateway ?? {}, now);
  const faults = new Faults(now);

  const paperWallet = (wallet: string): void => {
    ledger.transfer(SystemWallet.treasury, wallet, SOL_MINT, 10n * 10n ** 9n, 'paper-wallet', wallet);
    ledger.transfer(SystemWallet.treasury, wallet, USDC_MINT, 1_000n * 10n ** 6n, 'paper-wallet', wallet);
    const [live, crypto] = [predictionMarkets.events.find((e) => e.game !== null), predictionMarkets.events.find((e) => e.category === 'crypto')];
    if (live?.markets[0]) trading.seedPosition(wallet, live.markets[0].marketId, true, 20_000_000n);
    if (crypto?.markets[0]) trading.seedPosition(wallet, crypto.markets[0].marketId, false, 30_000_000n);
  };

  /** True while a kept input is applied again: it is not reported twice. */
  let replaying = false;
  const kept = (op: ControlOp, ...args: (string | number | boolean)[]): void => {
    if (!replaying) options.onInput?.({ kind: 'control', at: now(), op, args });
  };
  /** Applies one input at the instant it arrived, with world time held there while it applies. */
  const arrived = <T>(fn: () => T): T => {
    clockwork.catchUp();
    return clockwork.at(clockwork.now(), fn);
  };

  const control: SimControl = {
    async advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`advance expects ms >= 0, got ${ms}`);
      const manual = clock as Clock & { advance?: (ms: number) => Promise<void> };
      if (typeof manual.advance === 'function') await manual.advance(ms);
      else offset += ms;
      clockwork.catchUp();
    },
    setPrice(mint, usd) {
      arrived(() => {
        market.setPrice(mint, usd);
        kept('setPrice', mint, usd);
      });
    },
    setMark(marketId, side, usd) {
      arrived(() => {
        const m = predictionMarkets.market(marketId);
        if (!m) throw new HttpError(404, { error: `unknown market ${marketId}` });
        if (predictionMarkets.setMark(m, side, usd)) kept('setMark', marketId, side, usd);
      });
    },
    price: (mint) => market.price(mint),
    mark(marketId, side) {
      clockwork.catchUp();
      const m = predictionMarkets.market(marketId);
      if (!m) throw new HttpError(404, { error: `unknown market ${marketId}` });
      const sell = pricesOf(m)[side === 'yes' ? 'sellYes' : 'sellNo'];
      return sell === null ? null : sell / MICRO;
    },
    fund(wallet, amount, mint = SOL_MINT) {
      arrived(() => {
        ledger.transfer(SystemWallet.treasury, wallet, mint, amount, 'fund', wallet);
        kept('fund', wallet, amount.toString(), mint);
      });
    },
    balance: (wallet, mint = SOL_MINT) => ledger.balance(wallet, mint),
    transfer(from, to, amount, mint = SOL_MINT) {
      arrived(() => {
        ledger.transfer(from, to, mint, amount, 'transfer', 'elsewhere');
        kept('transfer', from, to, amount.toString(), mint);
      });
    },
    paperWallet: (wallet) =>
      arrived(() => {
        paperWallet(wallet);
        kept('paperWallet', wallet);
      }),
    injectFault: (spec) => faults.inject(spec),
    scenario: (steps) => faults.scenario(steps),
    clearFaults: (id) => faults.clear(id),
    settleMarket(marketId, result) {
      arrived(() => {
        const m = predictionMarkets.market(marketId);
        if (!m) throw new HttpError(404, { error: `unknown market ${marketId}` });
        predictionMarkets.settle(m, result, now());
        kept('settleMarket', marketId, result);
      });
    },
    setScore(eventId, home, away) {
      arrived(() => {
        predictionMarkets.setScore(eventId, home, away, now());
        kept('setScore', eventId, home, away);
      });
    },
    setTradingActive(active) {
      arrived(() => {
        trading.tradingPausedByControl = !active;
        kept('setTradingActive', active);
      });
    },
    forgetOrders(ids) {
      return arrived(() => {
        const all = [...priceEngine.orders.map((o) => o.id), ...dca.orders.map((o) => o.id)];
        const forgotten = (ids ?? all).filter((id) => priceEngine.forget(id) || dca.forget(id));
        kept('forgetOrders', ...forgotten);
        return forgotten;
      });
    },
    pastOrders(wallet, count, opts = {}) {
      const family = opts.family ?? 'price';
      const inputMint = opts.inputMint ?? SOL_MINT;
      const outputMint = opts.outputMint ?? USDC_MINT;
      if (!market.spec(inputMint) || !market.spec(outputMint) || inputMint === outputMint)
        throw new Error('past orders need two different mints the market lists');
      return arrived(() => {
        const vault = (vaults.vaultOf(wallet) ?? vaults.create(wallet)).vaultPubkey;
        const spec = { wallet, vault, family, count, inputMint, outputMint };
        if (family === 'price') for (const order of pastPriceOrders(world, spec, now())) priceEngine.add(order);
        else for (const order of pastDcaOrders(world, spec, now())) dca.add(order);
        kept('pastOrders', wallet, count, family, inputMint, outputMint);
        return family === 'price' ? priceEngine.orders.filter((o) => o.wallet === wallet).length : dca.orders.filter((o) => o.wallet === wallet).length;
      });
    },
    setFeedPrice: (mint, usd) => market.setFeedPrice(mint, usd),
    setRouting(routing) {
      if (routing.form !== undefined) world.routing.form = routing.form;
      if (routing.venues !== undefined) world.routing.venues = routing.venues === null ? null : [...routing.venues];
    },
    setAggregatorIdl(kind) {
      world.aggregatorIdl = kind;
    },
    scopeKey: (key, products) => gateway.scope(key, products),
    blockProducts: (products) => gateway.block(products),
    triggerToken: (wallet) => auth.issueToken(wallet),
    dumpLedger: (opts) => ledger.dump(opts),
    dumpOrders: () => ({
      price: priceEngine.orders.map(historyItem),
      dca: dca.orders.map((o) => ({
        id: o.id,
        wallet: o.wallet,
        state: o.state,
        roundsFilled: o.roundsFilled,
        inputAmountRemaining: o.inputAmountRemaining.toString(),
      })),
      prediction: trading.orders.map((o) => trading.orderWire(o)),
    }),
    checkInvariants() {
      const dump = ledger.dump({ entries: false });
      const supplyMismatches = market.tokens.filter((t) => ledger.supply(t.mint) !== ledger.genesisSupply(t.mint)).map((t) => t.mint);
      const negativeBalances: string[] = [];
      for (const [wallet, row] of Object.entries(dump.balances))
        for (const [mint, v] of Object.entries(row)) if (BigInt(v) < 0n) negativeBalances.push(`${wallet}:${mint}`);
      return { supplyMismatches, negativeBalances };
    },
    state: () => ({ now: now(), blockHeight: world.chain.height(), slot: world.chain.slot(), seed }),
  };
  for (const wallet of options.paperWallets ?? []) paperWallet(wallet);
  const control_ = controlRouter(control);

  const respond = (result: RouteResult, extra: Record<string, string>): SimResponse => ({
    status: result.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extra, ...(result.headers ?? {}) },
    body: toJson(result.body),
  });

  const run = (r: Router, req: SimRequest, apiKey: string | undefined): RouteResult => {
    const match = r.match(req.method, req.path);
    if (match === undefined) return { status: 404, body: { code: 404, message: 'Not Found' } };
    if (match === 'method') return { status: 405, body: { code: 405, message: 'Method Not Allowed' } };
    try {
      return match.handler({ ...req, params: match.params, apiKey });
    } catch (error) {
      if (error instanceof HttpError) return { status: error.status, body: error.body };
      return { status: 500, body: { error: error instanceof Error ? error.message : 'internal error' } };
    }
  };

  /** A `transfer` fault's move; a wallet that no longer holds the amount moves nothing. */
  const transferElsewhere = (t: FaultTransfer): void => {
    try {
      control.transfer(t.from, t.to, BigInt(t.amount), t.mint ?? SOL_MINT);
    } catch (error) {
      if (!(error instanceof InsufficientBalance)) throw error;
    }
  };

  const hostileAnswer = hostileAnswerer(world, [world.gasWallet, rfqMaker(seed), trading.signers.payer, ...trading.signers.protocol]);

  async function dispatch(req: SimRequest): Promise<SimResponse> {
    clockwork.catchUp();
    const requestId = { 'x-api-gateway-request-id': gatewayIds.hex(16) };
    if (req.path.startsWith('/__sim/')) {
      if (req.method === 'POST' && req.path === '/__sim/advance') {
        let ms = Number.NaN;
        try {
          ms = Number((JSON.parse(req.rawBody || '{}') as { ms?: unknown }).ms);
        } catch {
          // Falls through to the 400 below.
        }
        if (!(ms >= 0)) return respond({ status: 400, body: { error: 'expected { ms >= 0 }' } }, requestId);
        await control.advance(ms);
        return respond({ status: 200, body: control.state() }, requestId);
      }
      return respond(run(control_, req, undefined), requestId);
    }
    // The RPC bypasses the gateway but not the fault table: an RPC outage is a fault on `/rpc`.
    const rpcCall = req.method === 'POST' && RPC_PATHS.has(req.path);
    const fault = faults.take(req);
    if (fault?.kind === 'delay') {
      await clock.sleep(fault.delayMs ?? 1000);
      clockwork.catchUp();
    }
    if (fault?.kind === 'status') {
      return respond({ status: fault.status ?? 503, body: fault.body ?? { code: fault.status ?? 503, message: 'Service Unavailable' } }, requestId);
    }
    if (fault?.kind === 'reset' && fault.phase !== 'after') return { status: 0, headers: {}, body: '', reset: true };
    if (fault?.kind === 'transfer' && fault.transfer) transferElsewhere(fault.transfer);
    const gate = rpcCall ? { apiKey: undefined, headers: {} } : gateway.check(req);
    let result: RouteResult;
    let rateHeaders: Record<string, string> = {};
    if ('reject' in gate) {
      result = gate.reject;
    } else {
      rateHeaders = gate.headers;
      const apiKey = gate.apiKey;
      result = arrived(() => {
        const answer = rpcCall ? rpc.handle(req) : run(router, req, apiKey);
        // Kept before the answer leaves: whoever saw the answer can count on the world having kept it.
        if (options.onInput && writesWorld(req, rpcCall)) options.onInput(requestInput(req, now()));
        return answer;
      });
    }
    // Rate-limit headers only on success and 429, as Jupiter's gateway sends them.
    const withRate = result.status < 300 || result.status === 429 ? { ...requestId, ...rateHeaders } : requestId;
    const response = respond(result, withRate);
    if (fault?.kind === 'reset') return { ...response, reset: true };
    if (fault?.kind === 'malformed') response.body = response.body.slice(0, Math.max(1, Math.floor(response.body.length / 2))) + '\u0000{';
    if (fault?.kind === 'hostile' && fault.variant !== undefined) return respond(hostileAnswer(result, fault.variant), withRate);
    return response;
  }

  const handle = nodeHandler(dispatch);

  const replayControl = (op: ControlOp, args: readonly (string | number | boolean)[]): void => {
    const [a, b, c] = args;
    const str = (v: unknown): string => String(v);
    if (op === 'setPrice') control.setPrice(str(a), Number(b));
    else if (op === 'setMark') control.setMark(str(a), b === 'no' ? 'no' : 'yes', Number(c));
    else if (op === 'fund') control.fund(str(a), BigInt(str(b)), str(c));
    else if (op === 'transfer') control.transfer(str(a), str(b), BigInt(str(c)), str(args[3]));
    else if (op === 'paperWallet') control.paperWallet(str(a));
    else if (op === 'settleMarket') control.settleMarket(str(a), b === 'no' ? 'no' : 'yes');
    else if (op === 'setScore') control.setScore(str(a), Number(b), Number(c));
    else if (op === 'forgetOrders') control.forgetOrders(args.map(str));
    else if (op === 'pastOrders')
      control.pastOrders(str(a), Number(b), { family: c === 'dca' ? 'dca' : 'price', inputMint: str(args[3]), outputMint: str(args[4]) });
    else control.setTradingActive(a === true);
  };

  return {
    handle,
    dispatch,
    control,
    seed,
    genesis,
    replay(input) {
      replaying = true;
      try {
        if (input.kind === 'control') replayControl(input.op, input.args);
        else
          arrived(() => {
            const req = inputRequest(input);
            if (req.method === 'POST' && RPC_PATHS.has(req.path)) rpc.handle(req);
            else run(router, req, undefined);
          });
      } finally {
        replaying = false;
      }
    },
    listen(port = 0, host = '127.0.0.1', listenOptions = {}) {
      return listenOn(handle, { port, host, catchUpEveryMs: listenOptions.catchUpEveryMs, catchUp: () => clockwork.catchUp() });
    },
  };
}
