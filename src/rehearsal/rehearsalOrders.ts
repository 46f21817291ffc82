/**
 * The keeper of a rehearsal: Jupiter's keeper fills live vault orders whether or not the daemon runs;
 * a rehearsal's orders exist only in its database, so this plays that part. On every update of the
 * prices feed (the same USD prices Trigger V2 watches) it looks at each live rehearsal order: price
 * orders expire, trail and fire (rehearsalPriceFills.ts), DCA orders fill their due rounds
 * (rehearsalDcaFills.ts), each fill at a quote asked WITHOUT a taker and recorded in the ledger.
 *
 * Nothing runs while the daemon is down: a rehearsal cannot know the prices it did not see. A price
 * order that would have fired meanwhile fires at the first update after a restart, at the prices
 * then; a DCA round that came due meanwhile is filled then, one round per update until caught up.
 *
 * Passes never overlap: an update that arrives while a pass is quoting is kept (the latest only) and
 * judged once that pass is over. Orders are judged one after the other.
 */
import type { Clock } from '../clock.js';
import { errorMessage } from '../errors.js';
import type { JupiterClient } from '../jupiter/transport.js';
import type { Logger } from '../ops/log.js';
import type { Db } from '../store/db.js';
import type { Journal } from '../store/journal.js';
import type { Poller } from '../engine/feeds/poller.js';
import type { PriceMap } from '../engine/feeds/prices.js';
import { usdFixed } from '../engine/tick/buildSnapshot.js';
import { stepDcaOrder } from './rehearsalDcaFills.js';
import type { AuditLog } from '../store/audit.js';
import type { MatcherDeps, PriceOf } from './rehearsalOrderFill.js';
import { liveOrders } from './rehearsalOrderStore.js';
import { stepPriceOrder } from './rehearsalPriceFills.js';

export interface RehearsalOrdersOptions {
  readonly db: Db;
  readonly journal: Journal;
  readonly audit: AuditLog;
  readonly client: JupiterClient;
  readonly clock: Clock;
  readonly log?: Logger | undefined;
  readonly prices: Poller<PriceMap>;
}

export interface RehearsalOrders {
  /** Resolves once the passes asked for so far are done (tests). */
  idle(): Promise<void>;
  /** No new pass; the quote in hand is abandoned; resolves once the pass in hand has ended. */
  stop(): Promise<void>;
}

export function startRehearsalOrders(options: RehearsalOrdersOptions): RehearsalOrders {
  const { db, journal, audit, client, clock, log } = options;
  const deps: MatcherDeps = { db, journal, audit, client, clock, log };
  const abort = new AbortController();
  let latest: PriceMap | null = null;
  let queue: Promise<void> = Promise.resolve();

  async function pass(prices: PriceMap): Promise<void> {
    const priceOf: PriceOf = (mint) => usdFixed(prices.get(mint)?.usdPrice ?? null);
    for (const order of liveOrders(db)) {
      if (abort.signal.aborted) return;
      try {
        if (order.family === 'dca') await stepDcaOrder(deps, order, priceOf, abort.signal);
        else await stepPriceOrder(deps, order, priceOf, abort.signal);
      } catch (error) {
        // One order's trouble must not keep the others from being judged.
        log?.error({ orderId: order.id, err: error }, `REHEARSAL order ${order.id} not judged: ${errorMessage(error)}; the next prices try again`);
      }
    }
  }

  const off = options.prices.events.on('updated', ({ value }) => {
    const queued = latest !== null;
    latest = value;
    if (queued) return;
    queue = queue
      .then(async () => {
        const prices = latest;
        latest = null;
        if (prices !== null && !abort.signal.aborted) await pass(prices);
      })
      .catch((error: unknown) => log?.error({ err: error }, `REHEARSAL orders not judged: ${errorMessage(error)}; the next prices try again`));
  });

  return {
    idle: () => queue,
    async stop() {
      off();
      abort.abort(new Error('rehearsal orders stopping'));
      await queue;
    },
  };
}
