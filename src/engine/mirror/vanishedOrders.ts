/**
 * Orders of ours that the Trigger API no longer knows — it lost them (a service restart with a fresh
 * state, a wiped account) — are marked `gone` rather than left `open` in the mirror forever.
 *
 * One read that does not list an order proves nothing: a page the API did not return, a read that
 * began before the order was created, a page shifted by an order that moved between `active` and
 * `past` while it was read. So the verdict takes two kinds of evidence:
 *
 * 1. the order is missing from {@link GONE_AFTER_MISSES} consecutive successful reads of its family's
 *    feed (every `active` page and the newest `past` page; a read that lists it starts the count
 *    again). The count is kept in memory: a restart starts it again, which only delays a verdict;
 * 2. then a complete read of the family's history, every page of every state, does not list it
 *    either. An order that merely left the newest `past` page (more orders finished within one poll
 *    than the page holds) is found there and synced from it instead.
 *
 * Only then is it `gone` (a final state: no cancel or PATCH is tried on it, and the rule that placed
 * it sees it ended), with one `order.gone` action on its placing intent, in the same transaction,
 * holding the evidence and what the vault still holds of the order's input mint (vaultFunds.ts): the
 * operator is told whether its deposit may be stranded there. Adopted orders are not judged: the
 * daemon never acts on them.
 */
import type { Clock } from '../../clock.js';
import type { AuthedJupiterClient } from '../../jupiter/transport.js';
import type { Logger } from '../../ops/log.js';
import type { Journal } from '../../store/journal.js';
import { FINAL_ORDER_STATES, type OrderFamily, type TriggerOrders } from '../../store/triggerOrders.js';
import { type VaultBalanceRpc, vaultFunds, vaultFundsData } from './vaultFunds.js';

/** Consecutive feed reads an order must be missing from before the complete read that decides. */
export const GONE_AFTER_MISSES = 3;

/** The history pager stops at 100 pages of 100: a read this long may not be complete, so it proves nothing. */
const COMPLETE_READ_CAP = 10_000;

const FINAL = new Set<string>(FINAL_ORDER_STATES);

export interface VanishOptions {
  readonly orders: TriggerOrders;
  readonly journal: Journal;
  readonly clock: Clock;
  readonly log?: Logger | undefined;
  readonly authed: AuthedJupiterClient;
  readonly rpc: VaultBalanceRpc;
}

/** How one family's whole history is read (every page, every state). */
export interface CompleteHistory<T> {
  readonly family: OrderFamily;
  id(item: T): string;
  readAll(authed: AuthedJupiterClient): Promise<T[]>;
}

interface Miss {
  /** Consecutive feed reads without the order. */
  readonly count: number;
  /** When the first of them was taken in. */
  readonly since: number;
}

/** What a complete read decided: items it found (the caller syncs them) and the ids marked gone. */
export interface Verdicts<T> {
  readonly found: readonly T[];
  readonly gone: readonly string[];
}

export class VanishedOrders<T> {
  readonly #misses = new Map<string, Miss>();
  readonly #history: CompleteHistory<T>;
  readonly #options: VanishOptions;
  #warnedCap = false;

  constructor(history: CompleteHistory<T>, options: VanishOptions) {
    this.#history = history;
    this.#options = options;
  }

  /** After one successful feed read (synced first): counts the misses; true when an order is due a complete read. */
  observe(items: readonly T[]): boolean {
    const { orders, clock } = this.#options;
    const present = new Set(items.map((item) => this.#history.id(item)));
    const live = orders.live().filter((order) => order.family === this.#history.family);
    const liveIds = new Set(live.map((order) => order.id));
    for (const id of this.#misses.keys()) if (!liveIds.has(id)) this.#misses.delete(id);
    const now = clock.now();
    for (const order of live) {
      if (present.has(order.id)) {
        this.#misses.delete(order.id);
        continue;
      }
      const miss = this.#misses.get(order.id);
      this.#misses.set(order.id, { count: (miss?.count ?? 0) + 1, since: miss?.since ?? now });
    }
    return this.#due().length > 0;
  }

  /** The complete read and its verdicts. Throws when the read fails: the counts stay, the next feed read tries again. */
  async settle(): Promise<Verdicts<T>> {
    const due = this.#due();
    if (due.length === 0) return { found: [], gone: [] };
    const { authed, log } = this.#options;
    const all = await this.#history.readAll(authed);
    if (all.length >= COMPLETE_READ_CAP) {
      if (!this.#warnedCap)
        log?.warn(
          { family: this.#history.family, orders: all.length },
          `${this.#history.family} order history is ${all.length} orders long, past what one complete read covers: orders missing from it are not marked gone`,
        );
      this.#warnedCap = true;
      return { found: [], gone: [] };
    }
    const byId = new Map(all.map((item) => [this.#history.id(item), item]));
    const found: T[] = [];
    const gone: string[] = [];
    for (const [orderId, miss] of due) {
      const item = byId.get(orderId);
      this.#misses.delete(orderId);
      if (item !== undefined) found.push(item);
      else if (await this.#markGone(orderId, miss, all.length)) gone.push(orderId);
    }
    return { found, gone };
  }

  #due(): [string, Miss][] {
    return [...this.#misses].filter(([, miss]) => miss.count >= GONE_AFTER_MISSES);
  }

  async #markGone(orderId: string, miss: Miss, completeRead: number): Promise<boolean> {
    const { orders, journal, clock, authed, rpc, log } = this.#options;
    const order = orders.get(orderId);
    if (!order || order.intentId === null || FINAL.has(order.state)) return false;
    const funds = await vaultFunds(authed, rpc, order.inputMint);
    const holding = orders.holding(orderId);
    const intentId = order.intentId;
    return orders.transaction(() => {
      // A cancel may have confirmed while the vault was read: its final state stands.
      const now = orders.get(orderId);
      if (!now || FINAL.has(now.state)) return false;
      orders.setState(orderId, 'gone', clock.now());
      journal.note(intentId, 'order.gone', {
        orderId,
        family: order.family,
        lastState: now.state,
        lastRawState: holding?.rawState ?? null,
        lastSeenAt: holding?.lastSyncedAt ?? null,
        missedReads: miss.count,
        missingSince: miss.since,
        completeRead: { orders: completeRead, listed: false },
        inputMint: order.inputMint,
        inputDecimals: order.inputDecimals,
        deposited: holding?.inputAmount ?? null,
        remaining: holding?.remaining ?? holding?.inputAmount ?? null,
        vaultFunds: vaultFundsData(funds),
      });
      log?.debug({ orderId, intentId }, `order ${orderId} marked gone`);
      return true;
    });
  }
}
