/**
 * The balances feed of a rehearsal: the ledger (ledger.ts), read on the same interval as live mode
 * reads the chain, so strategies see the rehearsal's balances through the same feed, freshness and
 * readiness as live.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../ops/log.js';
import type { Db } from '../store/db.js';
import type { Balances } from '../engine/feeds/balances.js';
import { createPoller, type Poller } from '../engine/feeds/poller.js';
import { ledgerReading } from './ledger.js';

export function createLedgerBalancesFeed(options: { db: Db; clock: Clock; intervalMs: number; log?: Logger | undefined }): Poller<Balances> {
  const { db, clock } = options;
  return createPoller<Balances>({
    name: 'balances',
    intervalMs: options.intervalMs,
    clock,
    log: options.log,
    poll: () => Promise.resolve({ readAt: clock.now(), ...ledgerReading(db) }),
  });
}
