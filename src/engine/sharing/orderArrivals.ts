/**
 * When a Trigger order no intent of ours funded came to be: before this daemon started, or while it
 * runs. Adoption (mirror/orderAdoption.ts) records both kinds the same way; the difference is who
 * placed them. An order that was already there (placed by hand, by another tool, before this data
 * directory existed) is adopted, as it always was. One created while the daemon runs was placed by
 * someone trading this wallet right now: most likely another jupbot on another host, or with another
 * `lock_dir`, running the same strategies (walletSharing.ts decides what follows).
 *
 * No Trigger V2 field carries who placed an order, so the judgement rests on two facts the daemon
 * observes itself: the order is absent from the first read of its family's history after the start
 * (every active order, and the 100 most recently updated finished ones), and its `createdAt` is no
 * earlier than the start, less a minute for the two clocks' difference. An old order that resurfaces
 * later (a finished one updated again) is therefore still "pre-existing".
 */
import type { OrderFamily } from '../../store/triggerOrders.js';

export type Arrival = 'pre-existing' | 'while-running';

/** A foreign order created while the daemon runs, as adoption recorded it. */
export interface ArrivedOrder {
  readonly family: OrderFamily;
  readonly orderId: string;
  /** Per the Trigger API, UTC epoch ms; null when history does not say. */
  readonly createdAt: number | null;
  readonly depositSignature: string;
  /** What `order.adopted` recorded of it (type, state, mints, amount). */
  readonly described: Readonly<Record<string, unknown>>;
}

/** How far the Trigger API's clock may be behind ours. */
export const CLOCK_SKEW_MS = 60_000;

export class OrderArrivals {
  readonly #startedAt: number;
  readonly #onArrival: (order: ArrivedOrder) => void;
  readonly #firstRead = new Map<OrderFamily, ReadonlySet<string>>();

  constructor(options: { readonly startedAt: number; readonly onArrival: (order: ArrivedOrder) => void }) {
    this.#startedAt = options.startedAt;
    this.#onArrival = options.onArrival;
  }

  /** A successful read of `family`'s history: the first one is what was there at the start. */
  read(family: OrderFamily, ids: readonly string[]): void {
    if (!this.#firstRead.has(family)) this.#firstRead.set(family, new Set(ids));
  }

  /** Whether the order `id` of `family` (created at `createdAt`, ms or null) was there before the start. */
  judge(family: OrderFamily, id: string, createdAt: number | null): Arrival {
    const first = this.#firstRead.get(family);
    if (first === undefined || first.has(id)) return 'pre-existing';
    if (createdAt !== null && createdAt < this.#startedAt - CLOCK_SKEW_MS) return 'pre-existing';
    return 'while-running';
  }

  /** An order judged `while-running` was adopted: the one who placed it trades this wallet now. */
  arrived(order: ArrivedOrder): void {
    this.#onArrival(order);
  }
}
