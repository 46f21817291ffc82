/**
 * How one family of Trigger orders reads its history items: what the mirror sync (orderSync.ts,
 * dcaOrderSync.ts), adoption (orderAdoption.ts) and the judging of vanished orders all take, so each
 * family is described once (price orders in orderSync.ts, DCA in dcaOrderSync.ts).
 */
import type { AuthedJupiterClient } from '../../jupiter/transport.js';
import type { FillInput } from '../../store/journal.js';
import type { MirroredOrder, MirrorInput, OrderFamily, TriggerOrders } from '../../store/triggerOrders.js';

export interface OrderFamilyReader<T> {
  readonly family: OrderFamily;
  id(item: T): string;
  mirror(orders: TriggerOrders, item: T, input: MirrorInput, now: number): boolean;
  fills(item: T, order: MirroredOrder, now: number): FillInput[];
  /**
   * The deposit signature that funded `item`, or null while history does not show it: an OCO's
   * second leg has none of its own and takes its first leg's (`items` is the whole read).
   */
  deposit(item: T, items: readonly T[]): string | null;
  /** What `order.adopted` records about the item. */
  describe(item: T): Record<string, unknown>;
  /** When the order was created per the Trigger API (UTC epoch ms), or null when history does not say. */
  createdAt(item: T): number | null;
  /** Every page of the family's history, every state: the complete read that decides an order is gone. */
  readAll(authed: AuthedJupiterClient): Promise<T[]>;
}
