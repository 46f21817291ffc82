import type { SimWorld } from '../world.js';
import { keeperSwap } from './keeperSwap.js';
import { contextOf, type PriceOrder } from './priceOrder.js';

/**
 * Moves price orders with time: deposits confirm, triggers fire when the watched USD price crosses,
 * fills execute one step later (so `executing` is observable), partial fills, OCO sibling
 * cancellation, OTOCO children, trailing watermarks and expiry.
 */
export class PriceEngine {
  readonly orders: PriceOrder[] = [];
  readonly #byId = new Map<string, PriceOrder>();

  constructor(private readonly world: SimWorld) {}

  add(order: PriceOrder): void {
    this.orders.push(order);
    this.#byId.set(order.id, order);
  }

  get(id: string): PriceOrder | undefined {
    return this.#byId.get(id);
  }

  /** Drops an order as if the service had lost it (its funds stay in the vault); returns whether it was known. */
  forget(id: string): boolean {
    const order = this.#byId.get(id);
    if (!order) return false;
    this.#byId.delete(id);
    this.orders.splice(this.orders.indexOf(order), 1);
    return true;
  }

  /** The legs sharing funds with `order` (itself included). */
  group(order: PriceOrder): PriceOrder[] {
    return this.orders.filter((o) => o.groupId === order.groupId && o.funds === order.funds);
  }

  step(t: number): void {
    // Index loop: OTOCO fills append children that should wait for the next step.
    const count = this.orders.length;
    for (let i = 0; i < count; i++) this.#advance(this.orders[i] as PriceOrder, t);
  }

  /** The trigger price a trailing order has now, from its watermark. */
  static trailingTrigger(order: PriceOrder): number {
    const bps = (order.trailingBps ?? 0) / 10_000;
    return order.triggerCondition === 'below' ? (order.highWatermark ?? 0) * (1 - bps) : (order.lowWatermark ?? 0) * (1 + bps);
  }

  #advance(order: PriceOrder, t: number): void {
    switch (order.rawState) {
      case 'depositing':
        order.rawState = 'open';
        order.updatedAt = t;
        return;
      case 'partial_fill_success':
        order.rawState = 'open';
        order.updatedAt = t;
        return;
      case 'open':
        if (t >= order.expiresAt) {
          order.rawState = 'expired';
          order.updatedAt = t;
          order.events.push({ type: 'expired', timestamp: t, txSignature: '', state: 'success' });
          return;
        }
        if (this.#triggered(order)) {
          order.rawState = 'executing';
          order.triggeredAt ??= t;
          order.updatedAt = t;
        }
        return;
      case 'executing':
        this.#fill(order, t);
        return;
      default:
        return;
    }
  }

  #triggered(order: PriceOrder): boolean {
    const price = this.world.market.price(order.triggerMint);
    if (order.trailingBps !== null) {
      if (order.triggerCondition === 'below') order.highWatermark = Math.max(order.highWatermark ?? price, price);
      else order.lowWatermark = Math.min(order.lowWatermark ?? price, price);
      order.triggerPriceUsd = PriceEngine.trailingTrigger(order);
    }
    return order.triggerCondition === 'above' ? price >= order.triggerPriceUsd : price <= order.triggerPriceUsd;
  }

  #fill(order: PriceOrder, t: number): void {
    const otocoParent = order.children !== null;
    // An OTOCO parent's output stays in the vault: it is what its children will sell.
    const receiver = otocoParent ? order.vault : order.wallet;
    const fill = keeperSwap(this.world, order.vault, receiver, order.inputMint, order.outputMint, order.funds.remaining, order.slippageBps);
    order.updatedAt = t;
    if (!fill) {
      order.rawState = 'open';
      return;
    }
    order.funds.remaining -= fill.inputUsed;
    order.inputUsed += fill.inputUsed;
    order.outputAmount += fill.outputAmount;
    order.events.push({
      type: 'fill',
      timestamp: t,
      txSignature: fill.signature,
      state: 'success',
      outputMint: order.outputMint,
      outputAmount: fill.outputAmount.toString(),
      orderContext: order.context,
    });
    if (fill.partial && order.funds.remaining > 0n) {
      order.rawState = 'partial_fill_success';
      return;
    }
    order.rawState = 'fill_success';
    for (const sibling of this.group(order)) {
      if (sibling === order || sibling.rawState === 'fill_success') continue;
      sibling.rawState = 'oco_cancelled';
      sibling.updatedAt = t;
      sibling.events.push({ type: 'cancelled', timestamp: t, txSignature: '', state: 'success' });
    }
    if (order.children) this.#spawnChildren(order, order.children, t);
  }

  #spawnChildren(parent: PriceOrder, spec: NonNullable<PriceOrder['children']>, t: number): void {
    const funds = { remaining: parent.outputAmount };
    const groupId = `${parent.id}:children`;
    for (const leg of ['tp', 'sl'] as const) {
      const base = { inputMint: parent.outputMint, triggerMint: parent.triggerMint, triggerCondition: leg === 'tp' ? ('above' as const) : ('below' as const) };
      this.add({
        id: this.world.ids.uuid(),
        groupId,
        orderType: 'otoco',
        parentId: parent.id,
        wallet: parent.wallet,
        vault: parent.vault,
        outputMint: parent.inputMint,
        ...base,
        triggerPriceUsd: leg === 'tp' ? spec.tpPriceUsd : spec.slPriceUsd,
        slippageBps: leg === 'tp' ? spec.tpSlippageBps : spec.slSlippageBps,
        trailingBps: null,
        highWatermark: null,
        lowWatermark: null,
        initialInputAmount: parent.outputAmount,
        funds,
        expiresAt: parent.expiresAt,
        createdAt: t,
        updatedAt: t,
        triggeredAt: null,
        outputAmount: 0n,
        inputUsed: 0n,
        rawState: 'open',
        context: contextOf(base),
        events: [],
        children: null,
        requestKey: '',
        depositSignature: parent.depositSignature,
      });
    }
  }
}
