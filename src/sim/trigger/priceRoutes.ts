import { createHash } from 'node:crypto';
import { ok, parseJsonBody, type RouteRequest, type RouteResult, type Router } from '../http.js';
import { isFiniteNumber, isObject, isPubkey, parseAmount } from '../validate.js';
import type { SimWorld } from '../world.js';
import type { TriggerAuth } from './auth.js';
import { PriceEngine } from './priceEngine.js';
import { ACTIVE_STATES, contextOf, historyItem, orderStateOf, type ChildSpec, type PriceOrder } from './priceOrder.js';
import { slippageDetails, slippageOr } from './slippageFields.js';
import { forbiddenUser, triggerError, validationFailed } from './triggerErrors.js';
import type { TriggerVaults } from './vaults.js';

/** Right after creation the order is not yet cancellable: the real service answers 400 "retry shortly". */
export const CANCEL_NOT_READY_MS = 5_000;

/** Trigger V2 price orders: create, update, two-step cancel, history. */
export class PriceOrderRoutes {
  constructor(
    private readonly world: SimWorld,
    private readonly auth: TriggerAuth,
    private readonly vaults: TriggerVaults,
    private readonly engine: PriceEngine,
  ) {}

  register(router: Router): void {
    router.add('POST', '/trigger/v2/orders/price', (req) => this.create(req));
    router.add('PATCH', '/trigger/v2/orders/price/:orderId', (req) => this.patch(req));
    router.add('POST', '/trigger/v2/orders/price/cancel/:orderId', (req) => this.cancel(req));
    router.add('POST', '/trigger/v2/orders/price/confirm-cancel/:orderId', (req) => this.confirmCancel(req));
    router.add('GET', '/trigger/v2/orders/history', (req) => this.history(req));
  }

  /** `GET /orders/history/{id}` (seen live, not in the OpenAPI file); registered after the DCA paths. */
  registerSingle(router: Router): void {
    router.add('GET', '/trigger/v2/orders/history/:id', (req) => {
      const wallet = this.auth.wallet(req);
      const order = this.engine.get(req.params['id'] as string);
      if (!order || order.wallet !== wallet) throw triggerError(404, 'Order not found');
      return ok(historyItem(order));
    });
  }

  create(req: RouteRequest): RouteResult {
    const wallet = this.auth.wallet(req);
    const body = parseJsonBody(req, (error) => ({ error }));
    if (!isObject(body)) throw validationFailed({ body: 'Invalid input: expected object' });
    const details: Record<string, string> = {};
    const orderType = body['orderType'];
    if (orderType !== 'single' && orderType !== 'oco' && orderType !== 'otoco') details['orderType'] = 'Invalid option: expected one of "single"|"oco"|"otoco"';
    for (const field of ['depositRequestId', 'depositSignedTx'] as const)
      if (typeof body[field] !== 'string') details[field] = 'Invalid input: expected string';
    for (const field of ['userPubkey', 'inputMint', 'outputMint', 'triggerMint'] as const) if (!isPubkey(body[field])) details[field] = 'Invalid public key';
    const inputAmount = typeof body['inputAmount'] === 'string' ? parseAmount(body['inputAmount']) : undefined;
    if (inputAmount === undefined || inputAmount === 0n) details['inputAmount'] = 'Invalid input: expected a positive integer string';
    if (!isFiniteNumber(body['expiresAt'])) details['expiresAt'] = 'Invalid input: expected number';
    for (const field of ['triggerPriceUsd', 'tpPriceUsd', 'slPriceUsd', 'trailingBps'] as const) {
      if (body[field] !== undefined && !isFiniteNumber(body[field])) details[field] = 'Invalid input: expected number';
    }
    Object.assign(details, slippageDetails(body, orderType));
    const trailingBps = body['trailingBps'];
    if (isFiniteNumber(trailingBps) && (trailingBps < 50 || trailingBps > 9_000)) details['trailingBps'] = 'Must be between 50 and 9000';
    const condition = body['triggerCondition'];
    if (condition !== undefined && condition !== 'above' && condition !== 'below')
      details['triggerCondition'] = 'Invalid option: expected one of "above"|"below"';
    if (Object.keys(details).length > 0) throw validationFailed(details);
    if (body['userPubkey'] !== wallet) throw forbiddenUser();
    const inputMint = body['inputMint'] as string;
    const outputMint = body['outputMint'] as string;
    const triggerMint = body['triggerMint'] as string;
    if (inputMint === outputMint) throw triggerError(400, 'inputMint and outputMint must differ');
    const requestKey = createHash('sha256').update(req.rawBody).digest('hex');
    const deposit = this.vaults.deposit(body['depositRequestId'] as string);
    if (deposit?.usedBy !== undefined && deposit.wallet === wallet) {
      const existing = this.engine.get(deposit.usedBy);
      if (existing && existing.requestKey === requestKey) {
        return ok({ id: existing.id, txSignature: existing.depositSignature, depositConfirmed: true, message: 'Order already exists for this deposit' });
      }
    }
    const now = this.world.now();
    if ((body['expiresAt'] as number) <= now) throw triggerError(400, 'expiresAt must be in the future');
    if (!this.world.market.spec(triggerMint) || (triggerMint !== inputMint && triggerMint !== outputMint))
      throw triggerError(400, 'Trigger mint is not supported');
    const tp = body['tpPriceUsd'] as number | undefined;
    const sl = body['slPriceUsd'] as number | undefined;
    let trigger = body['triggerPriceUsd'] as number | undefined;
    const trailing = trailingBps as number | undefined;
    if (orderType === 'single') {
      if (condition === undefined) throw validationFailed({ triggerCondition: 'Required for single orders' });
      if ((trigger === undefined) === (trailing === undefined)) throw triggerError(400, 'exactly one of triggerPriceUsd or trailingBps must be set');
      if (trailing !== undefined) {
        if (condition === 'below' && triggerMint !== inputMint) throw triggerError(400, 'Trailing stop below must watch the input mint');
        if (condition === 'above' && triggerMint !== outputMint) throw triggerError(400, 'Trailing stop above must watch the output mint');
      }
    } else {
      if (tp === undefined || sl === undefined)
        throw validationFailed({ ...(tp === undefined ? { tpPriceUsd: 'Required' } : {}), ...(sl === undefined ? { slPriceUsd: 'Required' } : {}) });
      if (!(tp > sl)) throw triggerError(400, 'tpPriceUsd must be greater than slPriceUsd');
      if (trailing !== undefined) throw triggerError(400, 'trailingBps is only supported for single orders');
      if (orderType === 'otoco' && (condition === undefined || trigger === undefined))
        throw triggerError(400, 'otoco orders need triggerCondition and triggerPriceUsd');
    }
    if ((trigger !== undefined && trigger <= 0) || (tp !== undefined && tp <= 0) || (sl !== undefined && sl <= 0))
      throw triggerError(400, 'Prices must be positive');
    const landed = this.vaults.landDeposit(wallet, body['depositRequestId'] as string, body['depositSignedTx'] as string, {
      orderType: 'price',
      orderSubType: orderType as string,
      inputMint,
      inputAmount: inputAmount as bigint,
      outputMint,
    });
    const price = this.world.market.price(triggerMint);
    const id = this.world.ids.uuid();
    const funds = { remaining: inputAmount as bigint };
    const common = {
      groupId: id,
      orderType: orderType as PriceOrder['orderType'],
      parentId: null,
      wallet,
      vault: landed.vault,
      inputMint,
      outputMint,
      triggerMint,
      initialInputAmount: inputAmount as bigint,
      funds,
      expiresAt: body['expiresAt'] as number,
      createdAt: now,
      updatedAt: now,
      triggeredAt: null,
      outputAmount: 0n,
      inputUsed: 0n,
      rawState: 'depositing' as const,
      requestKey,
      depositSignature: landed.signature as string,
      highWatermark: null,
      lowWatermark: null,
      trailingBps: null,
      children: null,
    };
    const depositEvent = {
      type: 'deposit' as const,
      timestamp: now,
      txSignature: landed.signature as string,
      state: 'success' as const,
      mint: inputMint,
      amount: (inputAmount as bigint).toString(),
    };
    if (orderType === 'oco') {
      for (const leg of ['tp', 'sl'] as const) {
        const triggerCondition = leg === 'tp' ? ('above' as const) : ('below' as const);
        const context = contextOf({ inputMint, triggerMint, triggerCondition });
        this.engine.add({
          ...common,
          id: leg === 'tp' ? id : this.world.ids.uuid(),
          triggerCondition,
          triggerPriceUsd: leg === 'tp' ? (tp as number) : (sl as number),
          slippageBps: slippageOr(body[leg === 'tp' ? 'tpSlippageBps' : 'slSlippageBps'], context),
          context,
          events: leg === 'tp' ? [depositEvent] : [],
        });
      }
    } else {
      const triggerCondition = condition as 'above' | 'below';
      const context = contextOf({ inputMint, triggerMint, triggerCondition });
      if (trailing !== undefined) trigger = triggerCondition === 'below' ? price * (1 - trailing / 10_000) : price * (1 + trailing / 10_000);
      const children: ChildSpec | null =
        orderType === 'otoco'
          ? {
              tpPriceUsd: tp as number,
              slPriceUsd: sl as number,
              tpSlippageBps: slippageOr(body['tpSlippageBps'], 'take_profit'),
              slSlippageBps: slippageOr(body['slSlippageBps'], 'stop_loss'),
            }
          : null;
      this.engine.add({
        ...common,
        id,
        triggerCondition,
        triggerPriceUsd: trigger as number,
        slippageBps: slippageOr(body['slippageBps'], context),
        context,
        events: [depositEvent],
        trailingBps: trailing ?? null,
        highWatermark: trailing !== undefined && triggerCondition === 'below' ? price : null,
        lowWatermark: trailing !== undefined && triggerCondition === 'above' ? price : null,
        children,
      });
    }
    landed.usedBy = id;
    return ok({ id, txSignature: landed.signature, depositConfirmed: true });
  }

  #owned(req: RouteRequest, paramName = 'orderId'): PriceOrder {
    const wallet = this.auth.wallet(req);
    const order = this.engine.get(req.params[paramName] as string);
    if (!order) throw triggerError(404, 'Order not found');
    if (order.wallet !== wallet) throw triggerError(403, 'Forbidden: order does not belong to authenticated user');
    return order;
  }

  patch(req: RouteRequest): RouteResult {
    const order = this.#owned(req);
    const body = parseJsonBody(req, (error) => ({ error }));
    if (!isObject(body)) throw validationFailed({ body: 'Invalid input: expected object' });
    if (body['orderType'] !== order.orderType) throw validationFailed({ orderType: `Invalid option: order is ${order.orderType}` });
    for (const field of ['triggerPriceUsd', 'trailingBps', 'tpPriceUsd', 'slPriceUsd'] as const) {
      if (body[field] !== undefined && !isFiniteNumber(body[field])) throw validationFailed({ [field]: 'Invalid input: expected number' });
    }
    const slippage = slippageDetails(body, order.orderType);
    if (Object.keys(slippage).length > 0) throw validationFailed(slippage);
    if (order.rawState !== 'open') throw triggerError(400, `Only open orders can be updated (order is ${orderStateOf(order.rawState)})`);
    const legs = this.engine.group(order).filter((o) => o.rawState === 'open');
    const n = (k: string): number | undefined => body[k] as number | undefined;
    if (n('triggerPriceUsd') !== undefined) {
      if (order.trailingBps !== null) throw triggerError(400, 'Cannot set trigger price on trailing stop loss order');
      order.triggerPriceUsd = n('triggerPriceUsd') as number;
    }
    const trailing = n('trailingBps');
    if (trailing !== undefined) {
      if (order.trailingBps === null) throw triggerError(400, 'Cannot convert to trailing stop loss order');
      if (trailing < 50 || trailing > 9_000) throw validationFailed({ trailingBps: 'Must be between 50 and 9000' });
      const next = PriceEngine.trailingTrigger({ ...order, trailingBps: trailing });
      const price = this.world.market.price(order.triggerMint);
      if (order.triggerCondition === 'below' ? price <= next : price >= next) throw triggerError(400, 'Trailing order would immediately trigger');
      order.trailingBps = trailing;
      order.triggerPriceUsd = next;
    }
    // As at creation: `slippageBps` is a single order's or an OTOCO parent's own, never an OCO leg's.
    if (n('slippageBps') !== undefined && (order.orderType === 'single' || order.children !== null)) order.slippageBps = n('slippageBps') as number;
    const tp = n('tpPriceUsd');
    const sl = n('slPriceUsd');
    if (tp !== undefined || sl !== undefined) {
      if (order.orderType === 'single') throw triggerError(400, 'tpPriceUsd and slPriceUsd apply to oco and otoco orders only');
      if (order.children) {
        const next = { ...order.children, ...(tp === undefined ? {} : { tpPriceUsd: tp }), ...(sl === undefined ? {} : { slPriceUsd: sl }) };
        if (!(next.tpPriceUsd > next.slPriceUsd)) throw triggerError(400, 'tpPriceUsd must be greater than slPriceUsd');
        order.children = next;
      } else {
        const tpLeg = legs.find((l) => l.triggerCondition === 'above');
        const slLeg = legs.find((l) => l.triggerCondition === 'below');
        if (!((tp ?? tpLeg?.triggerPriceUsd ?? Infinity) > (sl ?? slLeg?.triggerPriceUsd ?? -Infinity)))
          throw triggerError(400, 'tpPriceUsd must be greater than slPriceUsd');
        if (tpLeg && tp !== undefined) tpLeg.triggerPriceUsd = tp;
        if (slLeg && sl !== undefined) slLeg.triggerPriceUsd = sl;
      }
    }
    // The legs of an OCO (or of an OTOCO once its parent filled); an OTOCO parent's own slippage is
    // its buy's, so its tp/sl slippage goes to the children it will create.
    const ownLegs = order.orderType !== 'single' && order.children === null;
    for (const leg of legs) {
      if (ownLegs && leg.triggerCondition === 'above' && n('tpSlippageBps') !== undefined) leg.slippageBps = n('tpSlippageBps') as number;
      if (ownLegs && leg.triggerCondition === 'below' && n('slSlippageBps') !== undefined) leg.slippageBps = n('slSlippageBps') as number;
      leg.updatedAt = this.world.now();
    }
    if (order.children) {
      if (n('tpSlippageBps') !== undefined) order.children.tpSlippageBps = n('tpSlippageBps') as number;
      if (n('slSlippageBps') !== undefined) order.children.slSlippageBps = n('slSlippageBps') as number;
    }
    order.updatedAt = this.world.now();
    return ok({ id: order.id });
  }

  cancel(req: RouteRequest): RouteResult {
    const order = this.#owned(req);
    const now = this.world.now();
    const legs = this.engine.group(order);
    const cancellable = order.rawState === 'open' || order.rawState === 'expired' || order.rawState === 'ready_to_cancel';
    if (order.rawState === 'depositing' || (cancellable && now - order.createdAt < CANCEL_NOT_READY_MS)) {
      throw triggerError(400, 'Order is not yet marked ready to cancel, retry shortly');
    }
    if (!cancellable) throw triggerError(400, `Order cannot be cancelled in state ${order.rawState}`);
    if (order.funds.remaining === 0n) throw triggerError(400, 'Order has no funds left to withdraw');
    for (const leg of legs) {
      if (leg.rawState === 'open' || leg.rawState === 'expired') {
        leg.rawState = 'ready_to_cancel';
        leg.updatedAt = now;
      }
    }
    const withdrawal = this.vaults.craftWithdrawal(order.id, order.wallet, order.inputMint, order.funds.remaining);
    return ok({ id: order.id, transaction: withdrawal.transaction, requestId: withdrawal.requestId });
  }

  confirmCancel(req: RouteRequest): RouteResult {
    const order = this.#owned(req);
    const body = parseJsonBody(req, (error) => ({ error }));
    if (!isObject(body) || typeof body['signedTransaction'] !== 'string' || typeof body['cancelRequestId'] !== 'string') {
      throw validationFailed({ signedTransaction: 'Required string', cancelRequestId: 'Required string' });
    }
    if (order.rawState !== 'ready_to_cancel' && order.rawState !== 'cancelled') throw triggerError(400, 'Order is not in cancellation state');
    const landed = this.vaults.confirmWithdrawal(order.id, body['cancelRequestId'], body['signedTransaction'], (signature) => {
      const t = this.world.now();
      const amount = order.funds.remaining;
      for (const leg of this.engine.group(order)) {
        if (leg.rawState !== 'ready_to_cancel') continue;
        leg.rawState = 'cancelled';
        leg.updatedAt = t;
        if (leg === order)
          leg.events.push({ type: 'withdrawal', timestamp: t, txSignature: signature, state: 'success', mint: order.inputMint, amount: amount.toString() });
        leg.events.push({ type: 'cancelled', timestamp: t, txSignature: signature, state: 'success' });
      }
      order.funds.remaining = 0n;
    });
    return ok({ id: order.id, txSignature: landed.signature });
  }

  history(req: RouteRequest): RouteResult {
    const wallet = this.auth.wallet(req);
    const { list, limit, offset } = listQuery(req, ['updated_at', 'created_at', 'expires_at']);
    const state = req.query.get('state');
    const mint = req.query.get('mint');
    const key = list.sort === 'created_at' ? 'createdAt' : list.sort === 'expires_at' ? 'expiresAt' : 'updatedAt';
    const rows = this.engine.orders
      .filter((o) => o.wallet === wallet)
      .filter((o) => state === null || (state === 'active') === ACTIVE_STATES.includes(orderStateOf(o.rawState)))
      .filter((o) => mint === null || o.inputMint === mint || o.outputMint === mint)
      .map((o, index) => ({ o, index }))
      .sort((a, b) => (list.dir === 'asc' ? 1 : -1) * (a.o[key] - b.o[key] || a.index - b.index));
    return ok({ orders: rows.slice(offset, offset + limit).map((r) => historyItem(r.o)), pagination: { total: rows.length, limit, offset } });
  }
}

/** Shared query checks for the history routes (`state`, `limit` 1–100, `offset`, `sort`, `dir`). */
export function listQuery(req: RouteRequest, sorts: readonly string[]): { list: { sort: string; dir: string }; limit: number; offset: number } {
  const q = req.query;
  const details: Record<string, string> = {};
  const state = q.get('state');
  if (state !== null && state !== 'active' && state !== 'past') details['state'] = 'Invalid option: expected one of "active"|"past"';
  const limit = q.has('limit') ? Number(q.get('limit')) : 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) details['limit'] = 'Must be an integer between 1 and 100';
  const offset = q.has('offset') ? Number(q.get('offset')) : 0;
  if (!Number.isInteger(offset) || offset < 0) details['offset'] = 'Must be a non-negative integer';
  const sort = q.get('sort') ?? 'updated_at';
  if (!sorts.includes(sort)) details['sort'] = `Invalid option: expected one of ${sorts.map((s) => `"${s}"`).join('|')}`;
  const dir = q.get('dir') ?? 'desc';
  if (dir !== 'asc' && dir !== 'desc') details['dir'] = 'Invalid option: expected one of "asc"|"desc"';
  if (Object.keys(details).length > 0) throw validationFailed(details);
  return { list: { sort, dir }, limit, offset };
}
