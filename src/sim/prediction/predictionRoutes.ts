import { Rejection, decodeTransaction, hasValidSignature, type DecodedTx } from '../chain.js';
import { HttpError, ok, parseJsonBody, type RouteRequest, type RouteResult, type Router } from '../http.js';
import { USDC_MINT } from '../programIds.js';
import { isObject, isPubkey, parseAmount } from '../validate.js';
import type { SimWorld } from '../world.js';
import type { PEvent, PMarket, PredictionMarkets } from './markets.js';
import { JUPUSD_MINT, type PredictionTrading } from './predictionTrading.js';
import { eventWire, gameScore, marketWire, orderbookWire, predictionError } from './wire.js';

const CATEGORIES = ['all', 'crypto', 'sports', 'politics', 'esports', 'culture', 'economics', 'tech'];

/** Index pagination (`start`, `end` exclusive) as Prediction uses it. */
function page<T>(
  req: RouteRequest,
  rows: readonly T[],
  defaultSize = 20,
): { data: T[]; pagination: { start: number; end: number; total: number; hasNext: boolean } } {
  const start = intParam(req, 'start') ?? 0;
  const end = Math.min(rows.length, intParam(req, 'end') ?? start + defaultSize);
  const data = rows.slice(start, Math.max(start, end));
  return { data, pagination: { start, end: start + data.length, total: rows.length, hasNext: start + data.length < rows.length } };
}

function intParam(req: RouteRequest, name: string): number | undefined {
  const raw = req.query.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw predictionError(400, `Invalid ${name}: expected a non-negative integer`, 'invalid_type');
  return n;
}

function boolParam(req: RouteRequest, name: string): boolean {
  const raw = req.query.get(name);
  if (raw === null || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw predictionError(400, `Invalid ${name}: expected true or false`, 'invalid_type');
}

/** Prediction V1 routes: read side and the transaction builders plus /execute. */
export class PredictionRoutes {
  constructor(
    private readonly world: SimWorld,
    private readonly markets: PredictionMarkets,
    private readonly trading: PredictionTrading,
  ) {}

  register(r: Router): void {
    const P = '/prediction/v1';
    const pubkeyOf = (m: PMarket): string => this.trading.marketPubkey(m);
    r.add('GET', `${P}/events`, (req) => {
      const category = req.query.get('category') ?? 'all';
      if (!CATEGORIES.includes(category)) throw predictionError(400, 'Invalid category', 'invalid_type');
      const provider = req.query.get('provider') ?? 'polymarket';
      if (!['polymarket', 'kalshi', 'bisonfi'].includes(provider)) throw predictionError(400, 'Invalid provider', 'invalid_type');
      const filter = req.query.get('filter');
      if (filter !== null && !['new', 'live', 'trending', 'upcoming'].includes(filter)) throw predictionError(400, 'Invalid filter', 'invalid_type');
      const now = this.world.now();
      let rows = this.markets.events.filter((e) => provider === 'polymarket' && (category === 'all' || e.category === category));
      const sub = req.query.get('subcategory');
      if (sub) rows = rows.filter((e) => e.subcategory === sub);
      if (filter === 'live') rows = rows.filter((e) => e.game !== null && now >= e.game.startsAt && e.game.finishedAt === null);
      if (filter === 'upcoming') rows = rows.filter((e) => e.beginAt > now);
      const sortBy = req.query.get('sortBy');
      if (sortBy === 'beginAt' || sortBy === 'volume') {
        const dir = req.query.get('sortDirection') === 'asc' ? 1 : -1;
        const key = (e: PEvent): number => (sortBy === 'beginAt' ? e.beginAt : e.markets.reduce((s, m) => s + m.volume, 0));
        rows = [...rows].sort((a, b) => dir * (key(a) - key(b)));
      }
      const withMarkets = boolParam(req, 'includeMarkets');
      const { data, pagination } = page(req, rows);
      return ok({ data: data.map((e) => eventWire(e, now, withMarkets, pubkeyOf)), pagination });
    });
    r.add('GET', `${P}/events/search`, (req) => {
      const query = req.query.get('query');
      if (!query || query.length > 200) throw predictionError(400, 'query must be 1-200 characters', 'invalid_type');
      const limit = intParam(req, 'limit') ?? 20;
      if (limit < 1 || limit > 20) throw predictionError(400, 'limit must be 1-20', 'invalid_type');
      const q = query.toLowerCase();
      const rows = this.markets.events
        .filter((e) => e.title.toLowerCase().includes(q) || e.markets.some((m) => m.title.toLowerCase().includes(q)))
        .slice(0, limit);
      return ok({ data: rows.map((e) => eventWire(e, this.world.now(), true, pubkeyOf)) });
    });
    r.add('GET', `${P}/events/scores`, (req) => {
      const ids = (req.query.get('eventIds') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (ids.length === 0) throw predictionError(400, 'eventIds is required', 'invalid_type');
      if (ids.length > 100) throw predictionError(400, 'At most 100 eventIds', 'invalid_type');
      const data = ids
        .map((id) => this.markets.event(id))
        .filter((e): e is PEvent => e !== undefined)
        .map((e) => gameScore(e, this.world.now()))
        .filter((s) => s !== null);
      return ok({ data });
    });
    r.add('GET', `${P}/events/:eventId`, (req) => ok(eventWire(this.#event(req), this.world.now(), boolParam(req, 'includeMarkets'), pubkeyOf)));
    r.add('GET', `${P}/events/:eventId/score`, (req) => ok(gameScore(this.#event(req), this.world.now())));
    r.add('GET', `${P}/events/:eventId/markets`, (req) => {
      const { data, pagination } = page(req, this.#event(req).markets);
      return ok({ data: data.map((m) => marketWire(m, pubkeyOf(m))), pagination });
    });
    r.add('GET', `${P}/events/:eventId/markets/:marketId`, (req) => {
      const m = this.#event(req).markets.find((x) => x.marketId === req.params['marketId']);
      if (!m) throw predictionError(404, 'Market not found', 'not_found');
      return ok(marketWire(m, pubkeyOf(m)));
    });
    r.add('GET', `${P}/markets/:marketId`, (req) => {
      const m = this.#market(req.params['marketId'] as string);
      return ok(marketWire(m, pubkeyOf(m)));
    });
    r.add('GET', `${P}/orderbook/:marketId`, (req) => ok(orderbookWire(this.#market(req.params['marketId'] as string), this.world.now())));
    r.add('GET', `${P}/trading-status`, () => ok({ trading_active: this.trading.tradingActive() }));
    r.add('GET', `${P}/positions`, (req) => {
      const owner = req.query.get('ownerPubkey');
      const marketId = req.query.get('marketId');
      const marketPubkey = req.query.get('marketPubkey');
      const isYes = req.query.get('isYes');
      if (isYes !== null && isYes !== 'true' && isYes !== 'false') throw predictionError(400, 'isYes must be "true" or "false"', 'invalid_type');
      const rows = this.trading.positions.filter(
        (p) =>
          p.contractsMicro > 0n &&
          !p.claimed &&
          (owner === null || p.wallet === owner) &&
          (marketId === null || p.marketId === marketId) &&
          (marketPubkey === null || this.trading.marketPubkey(p.marketId) === marketPubkey) &&
          (isYes === null || p.isYes === (isYes === 'true')),
      );
      const { data, pagination } = page(req, rows);
      return ok({ data: data.map((p) => this.trading.positionWire(p)), pagination });
    });
    r.add('GET', `${P}/positions/:positionPubkey`, (req) => ok(this.trading.positionWire(this.#position(req.params['positionPubkey'] as string))));
    r.add('DELETE', `${P}/positions/:positionPubkey`, (req) => {
      const owner = this.#owner(req);
      const position = this.#position(req.params['positionPubkey'] as string, owner);
      return ok(this.trading.buildSell(owner, position, position.contractsMicro - position.reservedMicro));
    });
    r.add('DELETE', `${P}/positions`, (req) => {
      const body = this.#body(req);
      const owner = body['ownerPubkey'];
      if (!isPubkey(owner)) throw predictionError(400, 'ownerPubkey is required', 'invalid_type', 'invalid_request_error');
      const slippage = body['minSellPriceSlippageBps'];
      if (typeof slippage !== 'number' || slippage < 0 || slippage > 10_000) throw predictionError(400, 'minSellPriceSlippageBps is required', 'invalid_type');
      const data: unknown[] = [];
      for (const p of this.trading.positions) {
        if (p.wallet !== owner || p.claimed || p.contractsMicro - p.reservedMicro <= 0n) continue;
        const m = this.markets.market(p.marketId) as PMarket;
        if (m.status === 'open' && this.trading.tradingActive()) data.push(this.trading.buildSell(owner, p, p.contractsMicro - p.reservedMicro, slippage));
        else if (m.result !== null && (m.result === 'yes') === p.isYes) data.push(this.trading.buildClaim(owner, p));
      }
      return ok({ data });
    });
    r.add('POST', `${P}/positions/:positionPubkey/claim`, (req) => {
      const owner = this.#owner(req);
      return ok(this.trading.buildClaim(owner, this.#position(req.params['positionPubkey'] as string, owner)));
    });
    r.add('POST', `${P}/orders`, (req) => this.#createOrder(req));
    r.add('GET', `${P}/orders`, (req) => {
      const owner = req.query.get('ownerPubkey');
      const { data, pagination } = page(
        req,
        this.trading.orders.filter((o) => owner === null || o.wallet === owner),
      );
      return ok({ data: data.map((o) => this.trading.orderWire(o)), pagination });
    });
    r.add('GET', `${P}/orders/status/:orderPubkey`, (req) => {
      const order = this.trading.orders.find((o) => o.pubkey === req.params['orderPubkey']);
      if (!order) throw predictionError(404, 'no order history found', 'order_history_not_found');
      const history = this.trading.history
        .filter((h) => h.order === order)
        .map((h) => ({
          eventType: h.eventType,
          status: h.eventType === 'order_created' ? 'created' : h.eventType === 'order_filled' ? 'filled' : 'failed',
          rawStatus: h.eventType,
          timestamp: Math.floor(h.timestamp / 1000),
          signature: h.signature,
          externalOrderId: order.externalOrderId,
          orderId: order.orderId,
        }));
      const latest = history[history.length - 1];
      return ok({
        orderPubkey: order.pubkey,
        status: latest?.status ?? 'created',
        latestEventType: latest?.eventType ?? null,
        latestSignature: latest?.signature ?? null,
        externalOrderId: order.externalOrderId,
        orderId: order.orderId,
        history,
      });
    });
    r.add('GET', `${P}/orders/:orderPubkey`, (req) => {
      const order = this.trading.orders.find((o) => o.pubkey === req.params['orderPubkey']);
      if (!order) throw predictionError(404, 'Order not found', 'not_found');
      // The order account closes once the keeper is done with it.
      if (order.status !== 'pending') throw predictionError(400, 'Order account is closed', 'order_closed');
      return ok(this.trading.orderWire(order));
    });
    r.add('GET', `${P}/history`, (req) => {
      const owner = req.query.get('ownerPubkey');
      const position = req.query.get('positionPubkey');
      const id = intParam(req, 'id');
      const rows = this.trading.history.filter(
        (h) => (owner === null || h.position.wallet === owner) && (position === null || h.position.pubkey === position) && (id === undefined || h.id === id),
      );
      const { data, pagination } = page(req, [...rows].reverse());
      return ok({ data: data.map((h) => this.trading.historyWire(h)), pagination });
    });
    r.add('POST', `${P}/execute`, (req) => this.#execute(req));
  }

  #body(req: RouteRequest): Record<string, unknown> {
    const body = parseJsonBody(req, (message) => ({ type: 'invalid_request_error', message, code: 'invalid_type', request_id: 'sim' }));
    if (!isObject(body)) throw predictionError(400, 'Expected a JSON object body', 'invalid_type');
    return body;
  }

  #owner(req: RouteRequest): string {
    const owner = this.#body(req)['ownerPubkey'];
    if (!isPubkey(owner)) throw predictionError(400, 'ownerPubkey is required', 'invalid_type');
    return owner;
  }

  #event(req: RouteRequest): PEvent {
    const e = this.markets.event(req.params['eventId'] as string);
    if (!e) throw predictionError(404, 'Event not found', 'not_found');
    return e;
  }

  #market(id: string): PMarket {
    const m = this.markets.market(id);
    if (!m) throw predictionError(404, 'Market not found', 'not_found');
    return m;
  }

  #position(pubkey: string, owner?: string): ReturnType<PredictionTrading['positionFor']> {
    const p = this.trading.positions.find((x) => x.pubkey === pubkey);
    if (!p) throw predictionError(404, 'Position not found', 'not_found');
    if (owner !== undefined && p.wallet !== owner) throw predictionError(403, 'Position does not belong to ownerPubkey', 'forbidden', 'permission_error');
    return p;
  }

  #createOrder(req: RouteRequest): RouteResult {
    const body = this.#body(req);
    const owner = body['ownerPubkey'];
    if (!isPubkey(owner)) throw predictionError(400, 'ownerPubkey is required', 'invalid_type');
    if (typeof body['isBuy'] !== 'boolean') throw predictionError(400, 'isBuy is required', 'invalid_type');
    if (typeof body['isYes'] !== 'boolean') throw predictionError(400, 'isYes is required', 'invalid_type');
    if (body['isBuy']) {
      if (typeof body['marketId'] !== 'string' || body['marketId'] === '') throw predictionError(400, 'marketId is required for buys', 'invalid_type');
      const depositMint = body['depositMint'] ?? USDC_MINT;
      if (depositMint !== USDC_MINT && depositMint !== JUPUSD_MINT) throw predictionError(400, 'depositMint must be USDC or JupUSD', 'invalid_type');
      const raw = body['depositAmount'];
      const deposit = typeof raw === 'number' || typeof raw === 'string' ? parseAmount(raw) : undefined;
      if (deposit === undefined) throw predictionError(400, 'depositAmount is required', 'invalid_type');
      return ok(this.trading.buildBuy(owner, this.#market(body['marketId']), body['isYes'], deposit, depositMint));
    }
    const positionPubkey = body['positionPubkey'];
    if (typeof positionPubkey !== 'string' || positionPubkey.length < 32) throw predictionError(400, 'positionPubkey is required for sells', 'invalid_type');
    const forms = (['contracts', 'contractsMicro', 'contractsDecimal'] as const).filter((k) => body[k] !== undefined);
    if (forms.length !== 1) throw predictionError(400, 'Exactly one of contracts, contractsMicro, contractsDecimal is required', 'invalid_type');
    const form = forms[0] as 'contracts' | 'contractsMicro' | 'contractsDecimal';
    const value = String(body[form]);
    let micro: bigint | undefined;
    if (form === 'contractsMicro') micro = parseAmount(value);
    else if (/^\d+(\.\d{1,6})?$/.test(value)) {
      const [whole, frac = ''] = value.split('.') as [string, string?];
      micro = BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0'));
    }
    if (micro === undefined || micro === 0n) throw predictionError(400, `Invalid ${form}`, 'invalid_type');
    const position = this.#position(positionPubkey, owner);
    if (position.isYes !== body['isYes']) throw predictionError(400, 'isYes does not match the position', 'invalid_type');
    return ok(this.trading.buildSell(owner, position, micro));
  }

  #execute(req: RouteRequest): RouteResult {
    const body = this.#body(req);
    const requestId = typeof body['requestId'] === 'string' ? { requestId: body['requestId'] } : {};
    if (typeof body['signedTransaction'] !== 'string') throw predictionError(400, 'signedTransaction is required', 'invalid_type');
    let decoded: DecodedTx;
    try {
      decoded = decodeTransaction(body['signedTransaction']);
    } catch {
      throw predictionError(400, 'signedTransaction is not a valid transaction', 'invalid_type');
    }
    // Jupiter's payer and co-signer signed when the transaction was built: the owner's signature is the one to check.
    const message = decoded.tx.message;
    const owners = message.staticAccountKeys
      .slice(0, message.header.numRequiredSignatures)
      .map((k) => k.toBase58())
      .filter((k) => this.trading.isOwnerSlot(k));
    if (owners.length === 0 || !owners.every((owner) => hasValidSignature(decoded, owner)))
      return ok({ status: 'Failed', signature: null, error: 'Transaction signature verification failed', ...requestId });
    try {
      const landed = this.world.chain.land(decoded);
      return ok({ status: landed.err ? 'Failed' : 'Success', signature: landed.signature, error: landed.err ? landed.err.message : null, ...requestId });
    } catch (error) {
      if (error instanceof Rejection) {
        if (error.reason === 'unknown') throw predictionError(400, 'Transaction was not built by this API', 'execute_failed');
        return ok({ status: 'Failed', signature: null, error: error.message, ...requestId });
      }
      if (error instanceof HttpError) throw error;
      throw error;
    }
  }
}
