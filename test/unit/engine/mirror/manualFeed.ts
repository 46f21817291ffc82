/** The order feeds, driven by hand: a test reads history itself and hands it to the syncs as one poll. */
import type { OrderSnapshot } from '../../../../src/engine/feeds/orders.js';
import type { FeedEvents, Poller } from '../../../../src/engine/feeds/poller.js';
import type { AuthedJupiterClient } from '../../../../src/jupiter/transport.js';
import { getAllDcaHistory, getAllOrderHistory } from '../../../../src/jupiter/trigger.js';
import { TypedEmitter } from '../../../../src/typedEmitter.js';

/** A feed the test drives by hand: `emit(items)` is one poll. */
export function manualFeed<T>(): { feed: Poller<OrderSnapshot<T>>; emit: (items: readonly T[], at: number) => void } {
  const events = new TypedEmitter<FeedEvents<OrderSnapshot<T>>>();
  return {
    feed: { events } as unknown as Poller<OrderSnapshot<T>>,
    emit: (items, at) => events.emit('updated', { feed: 'test', value: { active: items, recentPast: [] }, at, durationMs: 0 }),
  };
}

/** Both history reads, as the feeds would hand them over. */
export async function histories(
  authed: AuthedJupiterClient,
): Promise<{ price: Awaited<ReturnType<typeof getAllOrderHistory>>; dca: Awaited<ReturnType<typeof getAllDcaHistory>> }> {
  return { price: await getAllOrderHistory(authed), dca: await getAllDcaHistory(authed) };
}
