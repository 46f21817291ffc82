import { accessSync, constants as fsConstants } from 'node:fs';
import { errorMessage } from '../errors.js';
import type { Db } from '../store/db.js';
import type { WriteHealth } from '../store/writeHealth.js';
import type { ReadinessCheck } from './opsServer.js';

/**
 * `/readyz`'s `database` check: the connection is open, the daemon's last write did not fail for
 * the storage's sake (full, read-only, I/O error: store/writeHealth.ts), and the file is writable.
 * Nothing here writes, takes a lock or waits for one: a probe that waited on another process's
 * write lock would freeze the event loop (and every Jupiter call) for the busy timeout.
 */
export function databaseReadiness(db: Db, file: string, writes: WriteHealth): ReadinessCheck {
  return {
    name: 'database',
    probe() {
      if (!db.open) return { ok: false, detail: `database ${file} is closed` };
      const fault = writes.fault();
      if (fault !== null) {
        const since = new Date(fault.since).toISOString();
        return {
          ok: false,
          detail: `database ${fault.error.message}; ${fault.failures} write(s) failed since ${since}; ready again once a write succeeds`,
        };
      }
      try {
        accessSync(file, fsConstants.W_OK);
      } catch (error) {
        return { ok: false, detail: `database file ${file} is not writable: ${errorMessage(error)}` };
      }
      return { ok: true };
    },
  };
}
