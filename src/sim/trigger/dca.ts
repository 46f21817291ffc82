import { ok, parseJsonBody, type RouteRequest, type RouteResult, type Router } from '../http.js';
import { isFiniteNumber, isObject, isPubkey, parseAmount } from '../validate.js';
import type { SimWorld } from '../world.js';
import type { TriggerAuth } from './auth.js';
import { keeperSwap } from './keeperSwap.js';
import { listQuery } from './priceRoutes.js';
import { forbiddenUser, triggerError, validationFailed } from './triggerErrors.js';
import type { TriggerVaults } from './vaults.js';

const MAX_ACTIVE = 10;
/** Each round must be worth 10 USD, with the documented ±0.20 tolerance. */
const MIN_ROUND_USD = 9.8;
const MAX_BEGIN_DAYS = 30;
/** DCA rounds take no slippage parameter: the keeper takes what the route gives. */
const KEEPER_SLIPPAGE_BPS = 10_000;

export type DcaState = 'depositing' | 'deposit_failed' | 'active' | 'executing' | 'withdrawing' | 'completed' | 'cancelled';
const DISPLAY: Record<DcaState, string> = {
  depositing: 'pending',
  deposit_failed: 'failed',
  active: 'active',
  executing: 'executing',
  withdrawing: 'pending_withdraw',
  completed: 'completed',
  cancelled: 'cancelled',
};
const ACTIVE: readonly DcaState[] = ['depositing', 'active', 'executing', 'withdrawing'];

export interface DcaEvent {
  type: 'deposit' | 'fill' | 'withdrawal' | 'cancelled';
  timestamp: string;
  txSignature: string;
  roundNumber?: number;
  inputAmount?: string;
  outputAmount?: string;
  state: 'success' | 'failed' | 'rescheduled' | 'pending';
  attemptCount?: number;
}

export interface DcaOrder {
  readonly id: string;
  readonly requestId: string;
  readonly wallet: string;
  readonly vault: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inputAmountInitial: bigint;
  inputAmountRemaining: bigint;
  readonly amountPerRound: bigint;
  outputAmountTotal: bigint;
  inputAmountUsed: bigint;
  readonly orderType: 'time_based' | 'price_conditional';
  readonly minPriceUsd: number | null;
  readonly maxPriceUsd: number | null;
  readonly triggerMint: string | null;
  readonly numberOfRounds: number;
  readonly intervalSeconds: number;
  readonly beginFillAt: number;
  nextFillAt: number;
  lastFillAt: number | null;
  roundsFilled: number;
  state: DcaState;
  readonly createdAt: number;
  updatedAt: number;
  readonly events: DcaEvent[];
  skips: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Trigger V2 DCA orders: rounds every `intervalSeconds`, price-conditional skips, the cancel flow. */
export class DcaService {
  readonly #orders: DcaOrder[] = [];

  constructor(
    private readonly world: SimWorld,
    private readonly auth: TriggerAuth,
    private readonly vaults: TriggerVaults,
  ) {}

  get orders(): readonly DcaOrder[] {
    return this.#orders;
  }

  /** Lists an order made elsewhere (a wallet's past: src/sim/trigger/pastOrders.ts). */
  add(order: DcaOrder): void {
    this.#orders.push(order);
  }

  /** Drops an order as if the service had lost it (its funds stay in the vault); returns whether it was known. */
  forget(id: string): boolean {
    const index = this.#orders.findIndex((o) => o.id === id);
    if (index < 0) return false;
    this.#orders.splice(index, 1);
    return true;
  }

  register(router: Router): void {
    router.add('POST', '/trigger/v2/orders/dca', (req) => this.create(req));
    router.add('POST', '/trigger/v2/orders/dca/cancel/:id', (req) => this.cancel(req));
    router.add('POST', '/trigger/v2/orders/dca/confirm-cancel/:id', (req) => this.confirmCancel(req));
    router.add('GET', '/trigger/v2/orders/history/dca', (req) => this.history(req));
    router.add('GET', '/trigger/v2/orders/history/dca/:id', (req) => ok(item(this.#owned(req))));
  }

  step(t: number): void {
    for (const order of this.#orders) {
      if (order.state === 'depositing') {
        // The deposit confirmed; a round already due fills in the same step.
        order.state = 'active';
        order.updatedAt = t;
      }
      if (order.state !== 'active' || t < order.nextFillAt) continue;
      const round = order.roundsFilled + 1;
      if (order.orderType === 'price_conditional' && order.triggerMint) {
        const price = this.world.market.price(order.triggerMint);
        if ((order.minPriceUsd !== null && price < order.minPriceUsd) || (order.maxPriceUsd !== null && price > order.maxPriceUsd)) {
          order.skips++;
          order.events.push({ type: 'fill', timestamp: iso(t), txSignature: '', roundNumber: round, state: 'rescheduled', attemptCount: order.skips });
          order.nextFillAt += order.intervalSeconds * 1000;
          order.updatedAt = t;
          continue;
        }
      }
      const amount = round >= order.numberOfRounds ? order.inputAmountRemaining : order.amountPerRound;
      const fill = keeperSwap(this.world, order.vault, order.wallet, order.inputMint, order.outputMint, amount, KEEPER_SLIPPAGE_BPS);
      order.updatedAt = t;
      if (!fill) {
        order.events.push({ type: 'fill', timestamp: iso(t), txSignature: '', roundNumber: round, state: 'failed', attemptCount: 1 });
        order.nextFillAt += order.intervalSeconds * 1000;
        continue;
      }
      order.inputAmountRemaining -= fill.inputUsed;
      order.inputAmountUsed += fill.inputUsed;
      order.outputAmountTotal += fill.outputAmount;
      order.roundsFilled = round;
      order.lastFillAt = t;
      order.skips = 0;
      order.events.push({
        type: 'fill',
        timestamp: iso(t),
        txSignature: fill.signature,
        roundNumber: round,
        inputAmount: fill.inputUsed.toString(),
        outputAmount: fill.outputAmount.toString(),
        state: 'success',
        attemptCount: 1,
      });
      if (round >= order.numberOfRounds) order.state = 'completed';
      else order.nextFillAt += order.intervalSeconds * 1000;
    }
  }

  create(req: RouteRequest): RouteResult {
    const wallet = this.auth.wallet(req);
    const body = parseJsonBody(req, (error) => ({ error }));
    if (!isObject(body)) throw validationFailed({ body: 'Invalid input: expected object' });
    const details: Record<string, string> = {};
    for (const field of ['depositRequestId', 'depositSignedTx'] as const)
      if (typeof body[field] !== 'string') details[field] = 'Invalid input: expected string';
    for (const field of ['userPubkey', 'inputMint', 'outputMint'] as const) if (!isPubkey(body[field])) details[field] = 'Invalid public key';
    const inputAmount = typeof body['inputAmount'] === 'string' ? parseAmount(body['inputAmount']) : undefined;
    if (inputAmount === undefined || inputAmount === 0n) details['inputAmount'] = 'Invalid input: expected a positive integer string';
    const orderCount = body['orderCount'];
    if (!isFiniteNumber(orderCount) || !Number.isInteger(orderCount) || orderCount < 2) details['orderCount'] = 'Must be an integer >= 2';
    const interval = body['intervalSeconds'];
    if (!isFiniteNumber(interval) || !Number.isInteger(interval) || interval < 60 || interval > 31_536_000)
      details['intervalSeconds'] = 'Must be an integer between 60 and 31536000';
    const orderType = body['orderType'] ?? 'time_based';
    if (orderType !== 'time_based' && orderType !== 'price_conditional')
      details['orderType'] = 'Invalid option: expected one of "time_based"|"price_conditional"';
    for (const field of ['minPriceUsd', 'maxPriceUsd'] as const)
      if (body[field] !== undefined && !isFiniteNumber(body[field])) details[field] = 'Invalid input: expected number';
    if (body['triggerMint'] !== undefined && !isPubkey(body['triggerMint'])) details['triggerMint'] = 'Invalid public key';
    if (body['beginFillAt'] !== undefined && (typeof body['beginFillAt'] !== 'string' || Number.isNaN(Date.parse(body['beginFillAt']))))
      details['beginFillAt'] = 'Invalid ISO-8601 date';
    if (Object.keys(details).length > 0) throw validationFailed(details);
    if (body['userPubkey'] !== wallet) throw forbiddenUser();
    const inputMint = body['inputMint'] as string;
    const outputMint = body['outputMint'] as string;
    const inSpec = this.world.market.spec(inputMint);
    const outSpec = this.world.market.spec(outputMint);
    if (!inSpec || !outSpec || inputMint === outputMint) throw triggerError(400, 'Mint pair is not supported');
    const min = body['minPriceUsd'] as number | undefined;
    const max = body['maxPriceUsd'] as number | undefined;
    const triggerMint = body['triggerMint'] as string | undefined;
    if (orderType === 'time_based' && (min !== undefined || max !== undefined))
      throw triggerError(400, 'Time-based orders cannot set minPriceUsd or maxPriceUsd');
    if (orderType === 'price_conditional') {
      if (min === undefined && max === undefined) throw triggerError(400, 'Price-conditional orders need minPriceUsd or maxPriceUsd');
      const nonStable = [inSpec, outSpec].find((s) => !s.tags.includes('stablecoin'));
      if (!triggerMint || triggerMint !== nonStable?.mint) throw triggerError(400, 'Trigger mint is not supported');
    }
    const active = this.#orders.filter((o) => o.wallet === wallet && ACTIVE.includes(o.state)).length;
    if (active >= MAX_ACTIVE) throw triggerError(400, `Maximum of ${MAX_ACTIVE} active DCA orders allowed per user`);
    const perRound = (inputAmount as bigint) / BigInt(orderCount as number);
    const perRoundUsd = this.world.market.usdValue(inputMint, perRound);
    if (perRoundUsd < MIN_ROUND_USD) throw triggerError(400, `Each order must be at least 10 USD (current value: ${perRoundUsd.toFixed(2)} USD)`);
    const now = this.world.now();
    let begin = now;
    if (typeof body['beginFillAt'] === 'string') {
      begin = Date.parse(body['beginFillAt']);
      if (begin <= now) throw triggerError(400, 'Begin fill time must be in the future');
      if (begin > now + MAX_BEGIN_DAYS * 86_400_000) throw triggerError(400, `Begin fill time cannot be more than ${MAX_BEGIN_DAYS} days in the future`);
    }
    const deposit = this.vaults.landDeposit(wallet, body['depositRequestId'] as string, body['depositSignedTx'] as string, {
      orderType: 'dca',
      inputMint,
      inputAmount: inputAmount as bigint,
      outputMint,
    });
    const order: DcaOrder = {
      id: this.world.ids.uuid(),
      requestId: deposit.requestId,
      wallet,
      vault: deposit.vault,
      inputMint,
      outputMint,
      inputAmountInitial: inputAmount as bigint,
      inputAmountRemaining: inputAmount as bigint,
      amountPerRound: perRound,
      outputAmountTotal: 0n,
      inputAmountUsed: 0n,
      orderType: orderType as DcaOrder['orderType'],
      minPriceUsd: min ?? null,
      maxPriceUsd: max ?? null,
      triggerMint: triggerMint ?? null,
      numberOfRounds: orderCount as number,
      intervalSeconds: interval as number,
      beginFillAt: begin,
      nextFillAt: begin,
      lastFillAt: null,
      roundsFilled: 0,
      state: 'depositing',
      createdAt: now,
      updatedAt: now,
      events: [
        { type: 'deposit', timestamp: iso(now), txSignature: deposit.signature as string, inputAmount: (inputAmount as bigint).toString(), state: 'success' },
      ],
      skips: 0,
    };
    deposit.usedBy = order.id;
    this.#orders.push(order);
    return ok({ id: order.id, txSignature: deposit.signature });
  }

  #owned(req: RouteRequest): DcaOrder {
    const wallet = this.auth.wallet(req);
    const order = this.#orders.find((o) => o.id === req.params['id']);
    if (!order || order.wallet !== wallet) throw triggerError(404, 'DCA order not found or you do not own it');
    return order;
  }

  cancel(req: RouteRequest): RouteResult {
    const order = this.#owned(req);
    if (order.state !== 'active' && order.state !== 'executing' && order.state !== 'withdrawing')
      throw triggerError(400, `Cannot cancel DCA order in '${order.state}' state`);
    order.state = 'withdrawing';
    order.updatedAt = this.world.now();
    const withdrawal = this.vaults.craftWithdrawal(order.id, order.wallet, order.inputMint, order.inputAmountRemaining);
    return ok({
      id: order.id,
      roundsRemaining: order.numberOfRounds - order.roundsFilled,
      refundAmount: order.inputAmountRemaining.toString(),
      transaction: withdrawal.transaction,
      requestId: withdrawal.requestId,
    });
  }

  confirmCancel(req: RouteRequest): RouteResult {
    const order = this.#owned(req);
    const body = parseJsonBody(req, (error) => ({ error }));
    if (!isObject(body) || typeof body['signedTransaction'] !== 'string' || typeof body['cancelRequestId'] !== 'string') {
      throw validationFailed({ signedTransaction: 'Required string', cancelRequestId: 'Required string' });
    }
    if (order.state !== 'withdrawing' && order.state !== 'cancelled') throw triggerError(400, 'DCA order not in cancellation state');
    const landed = this.vaults.confirmWithdrawal(order.id, body['cancelRequestId'], body['signedTransaction'], (signature) => {
      const t = this.world.now();
      order.state = 'cancelled';
      order.updatedAt = t;
      order.events.push({
        type: 'withdrawal',
        timestamp: iso(t),
        txSignature: signature,
        inputAmount: order.inputAmountRemaining.toString(),
        state: 'success',
      });
      order.events.push({ type: 'cancelled', timestamp: iso(t), txSignature: signature, state: 'success' });
    });
    return ok({ id: order.id, txSignature: landed.signature });
  }

  history(req: RouteRequest): RouteResult {
    const wallet = this.auth.wallet(req);
    const { list, limit, offset } = listQuery(req, ['updated_at', 'created_at', 'next_fill_at']);
    const state = req.query.get('state');
    const mint = req.query.get('mint');
    const key = list.sort === 'created_at' ? 'createdAt' : list.sort === 'next_fill_at' ? 'nextFillAt' : 'updatedAt';
    const rows = this.#orders
      .filter((o) => o.wallet === wallet)
      .filter((o) => state === null || (state === 'active') === ACTIVE.includes(o.state))
      .filter((o) => mint === null || o.inputMint === mint || o.outputMint === mint)
      .map((o, index) => ({ o, index }))
      .sort((a, b) => (list.dir === 'asc' ? 1 : -1) * (a.o[key] - b.o[key] || a.index - b.index));
    return ok({ orders: rows.slice(offset, offset + limit).map((r) => item(r.o)), pagination: { total: rows.length, limit, offset } });
  }
}

/** The `DcaHistoryItem` wire shape: ISO timestamps, unlike price orders. */
function item(o: DcaOrder): Record<string, unknown> {
  return {
    id: o.id,
    requestId: o.requestId,
    userPubkey: o.wallet,
    vaultPubkey: o.vault,
    inputMint: o.inputMint,
    outputMint: o.outputMint,
    inputAmountInitial: o.inputAmountInitial.toString(),
    inputAmountRemaining: o.inputAmountRemaining.toString(),
    amountPerRound: o.amountPerRound.toString(),
    outputAmountTotal: o.outputAmountTotal.toString(),
    inputAmountUsed: o.inputAmountUsed.toString(),
    orderType: o.orderType,
    minPriceUsd: o.minPriceUsd,
    maxPriceUsd: o.maxPriceUsd,
    triggerMint: o.triggerMint,
    retryWindowSeconds: Math.min(7200, Math.max(30, Math.floor(o.intervalSeconds / 2))),
    jlEnabled: false,
    jlYieldUsd: null,
    numberOfRounds: o.numberOfRounds,
    intervalSeconds: o.intervalSeconds,
    beginFillAt: iso(o.beginFillAt),
    nextFillAt: iso(o.nextFillAt),
    lastFillAt: o.lastFillAt === null ? null : iso(o.lastFillAt),
    roundsFilled: o.roundsFilled,
    fillPercent: o.inputAmountInitial === 0n ? 0 : Number((o.inputAmountUsed * 1_000_000n) / o.inputAmountInitial) / 1_000_000,
    state: o.state,
    displayState: DISPLAY[o.state],
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
    events: o.events.map((e) => ({ ...e })),
  };
}
