/**
 * Keeps the `trigger_orders` mirror in step with what the orders feeds read, and records fills exactly
 * once: a fill is keyed by its transaction signature (UNIQUE(signature, idx), inserts ON CONFLICT DO
 * NOTHING), so re-reading the same history after any number of polls or restarts adds nothing. Each
 * new fill writes a `fill` action; an order of ours that history shows ending without our cancel
 * (an OCO's other leg, a cancel made elsewhere, an expiry, a DCA run completed) gets one action too,
 * written only when its mirrored state leaves the live set.
 *
 * Every mirrored order history shows is refreshed — finished ones too, so a fill that landed just
 * before a cancel or a completion is still recorded. Orders the mirror does not know are adoption's
 * business (orderAdoption.ts), which follows each sync; what it adopts is synced at once, so an
 * adopted order's fills are recorded by the same read. This file is the price-order family and the
 * feed plumbing; dcaOrderSync.ts is the DCA family.
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import { getAllOrderHistory, type OrderHistoryItem } from '../../jupiter/trigger.js';
import { type AuthedJupiterClient, Priority } from '../../jupiter/transport.js';
import { depositSignatureOf, siblingsOf } from '../../jupiter/triggerDeposits.js';
import type { Logger } from '../../ops/log.js';
import type { AuditLog } from '../../store/audit.js';
import { canonicalJson } from '../../store/canonicalJson.js';
import type { FillInput, Journal } from '../../store/journal.js';
import { FINAL_ORDER_STATES, type MirroredOrder, type TriggerOrders } from '../../store/triggerOrders.js';
import type { Poller } from '../feeds/poller.js';
import type { OrderSnapshot } from '../feeds/orders.js';
import type { OrderArrivals } from '../sharing/orderArrivals.js';
import { adoptOrders } from './orderAdoption.js';
import type { OrderFamilyReader } from './orderFamilyReader.js';
import { priceOrderColumns } from './orderColumns.js';
import { VanishedOrders } from './vanishedOrders.js';
import type { VaultBalanceRpc } from './vaultFunds.js';

export interface VaultSyncOptions {
  readonly orders: TriggerOrders;
  readonly journal: Journal;
  readonly clock: Clock;
  readonly log?: Logger | undefined;
  /** With `decimalsOf`, enables adoption of orders we did not place and the recording of their fills. */
  readonly audit?: AuditLog | undefined;
  readonly decimalsOf?: ((mint: string) => number | Promise<number>) | undefined;
  /**
   * With `rpc`, enables the judging of orders the API no longer lists (vanishedOrders.ts): the
   * complete history read and the vault's balance need them.
   */
  readonly authed?: AuthedJupiterClient | undefined;
  readonly rpc?: VaultBalanceRpc | undefined;
  /** With adoption: which foreign orders were created while the daemon runs (engine/sharing/orderArrivals.ts). */
  readonly arrivals?: OrderArrivals | undefined;
}

const FINAL = new Set<string>(FINAL_ORDER_STATES);
/** The action an order of ours gets when history shows it ending on its own. */
const ENDINGS: Record<string, string> = { cancelled: 'order.cancelled', expired: 'order.expired', completed: 'order.completed' };

/** One pass over a history read for one family: returns how many fills were new. */
export function syncMirrored<T>(items: readonly T[], reader: OrderFamilyReader<T>, options: VaultSyncOptions): number {
  const { orders, journal, clock, audit } = options;
  let added = 0;
  for (const item of items) {
    // An ended order this process already took in as history shows it now, fills included, has
    // nothing new: a long run's history is mostly these.
    const raw = canonicalJson(item);
    if (orders.alreadySynced(reader.id(item), raw)) continue;
    const before = orders.get(reader.id(item));
    // Unknown to the mirror: adoption decides. Adopted fills need the audit log to be recorded.
    if (!before || before.family !== reader.family || (before.intentId === null && !audit)) continue;
    const now = clock.now();
    let ended = false;
    added += orders.transaction(() => {
      reader.mirror(
        orders,
        item,
        {
          intentId: before.intentId,
          strategy: before.strategy,
          inputDecimals: before.inputDecimals,
          outputDecimals: before.outputDecimals,
          depositSignature: before.depositSignature,
        },
        now,
      );
      const fills = reader.fills(item, before, now);
      if (before.intentId === null) return audit ? orders.recordOrderFills(before, fills, audit, now) : 0;
      const n = fills.length > 0 ? journal.recordFills(before.intentId, fills) : 0;
      const after = orders.get(before.id)?.state ?? before.state;
      const ending = ENDINGS[after];
      if (ending && !FINAL.has(before.state))
        journal.note(before.intentId, ending, { orderId: before.id, family: reader.family, rawState: after, via: 'history' });
      ended = FINAL.has(after);
      return n;
    });
    // Only once committed: a pass that failed half-way must read the order again.
    if (ended) orders.syncedEnded(before.id, raw);
  }
  return added;
}

/** The price-order family. */
export const priceOrders: OrderFamilyReader<OrderHistoryItem> = {
  family: 'price',
  id: (item) => item.id,
  mirror: (orders, item, input, now) => orders.upsert(priceOrderColumns(item), input, now),
  fills: priceFillsOf,
  deposit(item, items) {
    const own = depositSignatureOf(item);
    if (own !== null || item.orderType !== 'oco') return own;
    const main = items.find((other) => depositSignatureOf(other) !== null && siblingsOf(other, items).some((leg) => leg.id === item.id));
    return main ? depositSignatureOf(main) : null;
  },
  describe: (item) => ({
    orderType: item.orderType,
    state: item.orderState,
    inputMint: item.inputMint,
    outputMint: item.outputMint,
    inputAmount: item.initialInputAmount ?? null,
    expiresAt: item.expiresAt ?? null,
  }),
  createdAt: (item) => (typeof item.createdAt === 'number' ? item.createdAt : null),
  readAll: (authed) => getAllOrderHistory(authed, {}, { priority: Priority.PollState }),
};

/** One pass over a price-order history read: returns how many fills were new. */
export function syncVaultOrders(items: readonly OrderHistoryItem[], options: VaultSyncOptions): number {
  return syncMirrored(items, priceOrders, options);
}

/**
 * The fills a history item shows. The input amount of a fill is the event's `amount` when it has one;
 * otherwise only a single fill can be attributed (the order's `inputUsed`). A partial fill without a
 * per-event amount is left unrecorded rather than guessed.
 */
function priceFillsOf(item: OrderHistoryItem, order: MirroredOrder, now: number): FillInput[] {
  const events = (item.events ?? []).filter(
    (e) => e.type === 'fill' && e.state !== 'failed' && typeof e.txSignature === 'string' && typeof e.outputAmount === 'string',
  );
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

/** The unsubscribe of a sync; `idle()` resolves once the adoption work queued so far is done (tests, shutdown). */
export type OrderSync = (() => void) & { readonly idle: () => Promise<void> };

/**
 * On every read of `feed`: the sync at once (our orders never wait for adoption), then — when enabled —
 * adoption of the unknown orders, one read at a time, and a sync of what was just adopted so its
 * fills are recorded by the same read; and — with `authed` and `rpc` — the count of our live orders
 * the read did not list, and, once one is due, the complete read that marks it gone or finds it.
 */
export function followOrders<T extends { readonly inputMint: string; readonly outputMint: string }>(
  feed: Poller<OrderSnapshot<T>>,
  reader: OrderFamilyReader<T>,
  options: VaultSyncOptions,
): OrderSync {
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;
  const fail = (error: unknown): void =>
    options.log?.error({ err: error, family: reader.family }, `${reader.family} order sync failed: ${errorMessage(error)}; the next orders poll tries again`);
  const { authed, rpc } = options;
  const vanished =
    authed && rpc
      ? new VanishedOrders(reader, { orders: options.orders, journal: options.journal, clock: options.clock, log: options.log, authed, rpc })
      : undefined;
  const listener = ({ value }: { value: OrderSnapshot<T> }): void => {
    const items = [...value.active, ...value.recentPast];
    options.arrivals?.read(
      reader.family,
      items.map((item) => reader.id(item)),
    );
    let due = false;
    try {
      syncMirrored(items, reader, options);
      due = vanished?.observe(items) ?? false;
    } catch (error) {
      fail(error);
    }
    const { audit, decimalsOf } = options;
    if ((!audit || !decimalsOf) && !due) return;
    queue = queue
      .then(async () => {
        if (stopped) return;
        if (audit && decimalsOf) {
          const adopted = await adoptOrders(items, reader, {
            orders: options.orders,
            audit,
            clock: options.clock,
            decimalsOf,
            log: options.log,
            arrivals: options.arrivals,
          });
          if (!stopped && adopted.length > 0) syncMirrored(adopted, reader, options);
        }
        if (!due || !vanished || stopped) return;
        const { found } = await vanished.settle();
        if (!stopped && found.length > 0) syncMirrored(found, reader, options);
      })
      .catch(fail);
  };
  const off = feed.events.on('updated', listener);
  return Object.assign(
    () => {
      stopped = true;
      off();
    },
    { idle: () => queue },
  );
}

/** Follows the price-orders feed (see {@link followOrders}); returns the unsubscribe. */
export function startVaultOrderSync(options: VaultSyncOptions & { readonly feed: Poller<OrderSnapshot<OrderHistoryItem>> }): OrderSync {
  return followOrders(options.feed, priceOrders, options);
}
