/**
 * Keeps the `trigger_orders` mirror of our vault orders in step with what the orders feed reads, and
 * records their fills exactly once: a fill is keyed by its transaction signature (UNIQUE(signature,
 * idx), inserts ON CONFLICT DO NOTHING), so re-reading the same history after any number of polls or
 * restarts adds nothing. Each new fill writes a `fill` action (the journal does), and an order of ours
 * that history shows cancelled (an OCO's other leg, or a cancel made elsewhere) an `order.cancelled`.
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import type { OrderHistoryItem } from '../../jupiter/trigger.js';
import type { Logger } from '../../ops/log.js';
import { canonicalJson } from '../../store/canonicalJson.js';
import type { FillInput, Journal } from '../../store/journal.js';
import type { MirroredOrder, TriggerOrders } from '../../store/triggerOrders.js';
import type { Poller } from '../feeds/poller.js';
import type { OrderSnapshot } from '../feeds/orders.js';

export interface VaultSyncOptions {
  readonly orders: TriggerOrders;
  readonly journal: Journal;
  readonly clock: Clock;
  readonly log?: Logger | undefined;
}

/** One pass over a history read: returns how many fills were new. */
export function syncVaultOrders(items: readonly OrderHistoryItem[], options: VaultSyncOptions): number {
  const { orders, journal, clock } = options;
  const byId = new Map(items.map((item) => [item.id, item]));
  let added = 0;
  for (const mirrored of orders.live()) {
    const item = byId.get(mirrored.id);
    if (!item || mirrored.intentId === null) continue;
    orders.upsert(item, { intentId: mirrored.intentId, strategy: mirrored.strategy, inputDecimals: mirrored.inputDecimals, outputDecimals: mirrored.outputDecimals, depositSignature: mirrored.depositSignature }, clock.now());
    const fills = fillsOf(item, mirrored, clock.now());
    if (fills.length > 0) added += journal.recordFills(mirrored.intentId, fills);
    if (item.orderState === 'cancelled' || item.orderState === 'expired') {
      journal.note(mirrored.intentId, item.orderState === 'cancelled' ? 'order.cancelled' : 'order.expired', { orderId: item.id, rawState: item.rawState ?? null, via: 'history' });
    }
  }
  return added;
}

/**
 * The fills a history item shows. The input amount of a fill is the event's `amount` when it has one;
 * otherwise only a single fill can be attributed (the order's `inputUsed`). A partial fill without a
 * per-event amount is left unrecorded and logged rather than guessed.
 */
function fillsOf(item: OrderHistoryItem, order: MirroredOrder, now: number): FillInput[] {
  const events = (item.events ?? []).filter((e) => e.type === 'fill' && e.state !== 'failed' && typeof e.txSignature === 'string' && typeof e.outputAmount === 'string');
  const out: FillInput[] = [];
  for (const event of events) {
    const inAmount = event.amount ?? (events.length === 1 ? item.inputUsed : null);
    if (inAmount === null || inAmount === undefined || !/^\d+$/.test(inAmount) || !/^\d+$/.test(event.outputAmount as string)) continue;
    out.push({
      signature: event.txSignature as string,
      idx: 0,
      source: 'trigger',
      inMint: order.inputMint,
      inAmount,
      inDecimals: order.inputDecimals,
      outMint: event.outputMint ?? order.outputMint,
      outAmount: event.outputAmount as string,
      outDecimals: order.outputDecimals,
      raw: canonicalJson({ orderId: item.id, event }),
      at: event.timestamp ?? now,
      triggerOrderId: item.id,
    });
  }
  return out;
}

/** Runs {@link syncVaultOrders} on every read of the orders feed; returns the unsubscribe. */
export function startVaultOrderSync(options: VaultSyncOptions & { readonly feed: Poller<OrderSnapshot<OrderHistoryItem>> }): () => void {
  const listener = ({ value }: { value: OrderSnapshot<OrderHistoryItem> }): void => {
    try {
      syncVaultOrders([...value.active, ...value.recentPast], options);
    } catch (error) {
      options.log?.error({ err: error }, `vault order sync failed: ${errorMessage(error)}`);
    }
  };
  return options.feed.events.on('updated', listener);
}
