/**
 * Adoption: Trigger V2 orders (price and DCA) that history shows for our wallet but `trigger_orders`
 * does not know — placed in the Jupiter UI, by another tool, or before a database was restored. Each
 * is recorded once with `adopted = 1`, no intent and no strategy, and ONE `order.adopted` action (the
 * insert and the action commit together, so neither a later poll nor a restart adopts it again). The
 * daemon never acts on an adopted order (the cancel handler refuses it); the sync keeps its mirror
 * fresh and records its fills, once, with no intent.
 *
 * Ours versus foreign is decided by the deposit signature, not by age. The write-ahead rule journals a
 * deposit's signature (`intents.signature`) before the create call that lands it, so an order our
 * deposit funded — even one whose create answer was lost, still awaiting the next reconcile pass — has
 * its signature in the journal by the time history can show it. Such an order is left to its intent's
 * handler, which mirrors it with `order.placed`. An order whose deposit signature history does not show
 * yet (still depositing; an OCO leg whose first leg is not listed) waits for a later read rather than
 * being judged on a guess.
 *
 * With `arrivals` (engine/sharing/orderArrivals.ts), `order.adopted` also says whether the order was
 * there before the daemon started (`arrival: pre-existing`) or was created while it runs
 * (`while-running`); the latter is handed on once adopted: someone else trades this wallet now.
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../ops/log.js';
import type { AuditLog } from '../../store/audit.js';
import type { TriggerOrders } from '../../store/triggerOrders.js';
import type { OrderArrivals } from '../sharing/orderArrivals.js';
import type { OrderFamilyReader } from './orderFamilyReader.js';

export interface AdoptionOptions {
  readonly orders: TriggerOrders;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly decimalsOf: (mint: string) => number | Promise<number>;
  readonly log?: Logger | undefined;
  /** Tells orders that were there before the start from those created while the daemon runs. */
  readonly arrivals?: OrderArrivals | undefined;
}

const ARRIVAL_WORDS = { 'pre-existing': 'placed before this daemon started', 'while-running': 'created while this daemon runs' } as const;

interface Mints {
  readonly inputMint: string;
  readonly outputMint: string;
}

/** Adopts the foreign orders of one history read; returns the items adopted now. */
export async function adoptOrders<T extends Mints>(items: readonly T[], reader: OrderFamilyReader<T>, options: AdoptionOptions): Promise<T[]> {
  const { orders, audit, clock } = options;
  const adopted: T[] = [];
  for (const item of items) {
    const id = reader.id(item);
    if (orders.has(id)) continue;
    const deposit = reader.deposit(item, items);
    // Not judged yet: without its deposit signature an order cannot be told from ours.
    if (deposit === null) continue;
    // Funded by one of our intents: its handler mirrors it (order.placed), however late.
    if (orders.intentBySignature(deposit) !== undefined) continue;
    let decimals: [number, number];
    try {
      decimals = [await options.decimalsOf(item.inputMint), await options.decimalsOf(item.outputMint)];
    } catch (error) {
      options.log?.warn(
        { orderId: id, family: reader.family },
        `order ${id} not adopted yet, decimals unknown: ${errorMessage(error)}; the next orders poll tries again`,
      );
      continue;
    }
    const now = clock.now();
    const createdAt = reader.createdAt(item);
    const arrival = options.arrivals?.judge(reader.family, id, createdAt);
    const isNew = orders.transaction(() => {
      const created = reader.mirror(
        orders,
        item,
        { intentId: null, strategy: null, adopted: true, inputDecimals: decimals[0], outputDecimals: decimals[1], depositSignature: deposit },
        now,
      );
      if (created)
        audit.append({
          kind: 'order.adopted',
          signature: deposit,
          data: { orderId: id, family: reader.family, depositSignature: deposit, ...reader.describe(item), ...(arrival ? { arrival, createdAt } : {}) },
        });
      return created;
    });
    if (isNew) {
      adopted.push(item);
      options.log?.info(
        { orderId: id, family: reader.family, arrival },
        `adopted ${reader.family} order ${id}: history shows it, no intent of ours funded it${arrival ? ` (${ARRIVAL_WORDS[arrival]})` : ''}`,
      );
      if (arrival === 'while-running')
        options.arrivals?.arrived({ family: reader.family, orderId: id, createdAt, depositSignature: deposit, described: reader.describe(item) });
    }
  }
  return adopted;
}
