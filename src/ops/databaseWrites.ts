/**
 * The daemon's database writes, watched (store/writeHealth.ts): a full, read-only or failing disk is
 * logged once when writes start failing and once when they work again, and alerts like a feed outage
 * (component `database`).
 */
import type { Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import { watchWrites, type WriteHealth } from '../store/writeHealth.js';
import type { Logger } from './log.js';
import type { OutageMonitor } from './outage.js';

export function watchDatabaseWrites(db: Db, options: { file: string; clock: Clock; log: Logger; outages: Pick<OutageMonitor, 'down' | 'up'> }): WriteHealth {
  const { file, log, outages } = options;
  return watchWrites(db, {
    file,
    clock: options.clock,
    onChange(fault, previous) {
      if (fault !== null) {
        log.error({ err: fault.error, database: file }, `database writes fail: ${fault.error.message}; /readyz fails until a write succeeds`);
        outages.down('database', fault.error.message);
      } else {
        log.info({ database: file, failures: previous?.failures }, `database ${file} can be written again (${previous?.failures ?? 0} write(s) had failed)`);
        outages.up('database');
      }
    },
  });
}
