/**
 * The DCA family of the order sync (orderSync.ts has the shared pass): our DCA orders and adopted ones
 * mirrored in `trigger_orders` (family `dca`, order type `time_based` / `price_conditional`), and each
 * executed round recorded exactly once as a fill (source `dca`, natural key (txSignature, 0): every
 * round is its own keeper transaction) with a `fill` action. A round that was skipped (price out of
 * bounds: `rescheduled`) or failed carries no transaction and is not a fill.
 */
import { type DcaHistoryItem, getAllDcaHistory } from '../../jupiter/trigger.js';
import { Priority } from '../../jupiter/transport.js';
import { canonicalJson } from '../../store/canonicalJson.js';
import type { FillInput } from '../../store/journal.js';
import { dcaDepositSignatureOf } from '../../jupiter/triggerDeposits.js';
import type { MirroredOrder } from '../../store/triggerOrders.js';
import { dcaOrderColumns, isoMs } from './orderColumns.js';
import type { Poller } from '../feeds/poller.js';
import type { OrderSnapshot } from '../feeds/orders.js';
import type { OrderFamilyReader } from './orderFamilyReader.js';
import { followOrders, type OrderSync, syncMirrored, type VaultSyncOptions } from './orderSync.js';

const DIGITS = /^\d+$/;

/** The DCA family. */
export const dcaOrders: OrderFamilyReader<DcaHistoryItem> = {
  family: 'dca',
  id: (item) => item.id,
  mirror: (orders, item, input, now) => orders.upsert(dcaOrderColumns(item), input, now),
  fills: dcaFillsOf,
  deposit: (item) => dcaDepositSignatureOf(item),
  describe: (item) => ({
    orderType: item.orderType,
    state: item.state,
    inputMint: item.inputMint,
    outputMint: item.outputMint,
    inputAmount: item.inputAmountInitial ?? null,
    rounds: item.numberOfRounds ?? null,
    intervalSeconds: item.intervalSeconds ?? null,
  }),
  createdAt: (item) => isoMs(item.createdAt),
  readAll: (authed) => getAllDcaHistory(authed, {}, { priority: Priority.PollState }),
};

/** The executed rounds of a DCA item: successful fill events with a transaction and both amounts. */
function dcaFillsOf(item: DcaHistoryItem, order: MirroredOrder, now: number): FillInput[] {
  const out: FillInput[] = [];
  for (const event of item.events ?? []) {
    if (event.type !== 'fill' || event.state !== 'success') continue;
    const { txSignature, inputAmount, outputAmount } = event;
    if (typeof txSignature !== 'string' || txSignature === '' || typeof inputAmount !== 'string' || typeof outputAmount !== 'string') continue;
    if (!DIGITS.test(inputAmount) || !DIGITS.test(outputAmount)) continue;
    out.push({
      signature: txSignature,
      idx: 0,
      source: 'dca',
      inMint: order.inputMint,
      inAmount: inputAmount,
      inDecimals: order.inputDecimals,
      outMint: order.outputMint,
      outAmount: outputAmount,
      outDecimals: order.outputDecimals,
      raw: canonicalJson({ orderId: item.id, event }),
      at: isoMs(event.timestamp) ?? now,
      triggerOrderId: item.id,
    });
  }
  return out;
}

/** One pass over a DCA history read: returns how many fills were new. */
export function syncDcaOrders(items: readonly DcaHistoryItem[], options: VaultSyncOptions): number {
  return syncMirrored(items, dcaOrders, options);
}

/**
 * Follows the `dca` orders feed (feedSet.ts): the sync on every read, then adoption of DCA orders we
 * did not place (when `audit` and `decimalsOf` are given). Returns the unsubscribe.
 */
export function startDcaOrderSync(options: VaultSyncOptions & { readonly feed: Poller<OrderSnapshot<DcaHistoryItem>> }): OrderSync {
  return followOrders(options.feed, dcaOrders, options);
}
