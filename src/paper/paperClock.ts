import { existsSync } from 'node:fs';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { ScaledClock } from '../scaledClock.js';
import { lastActionAt } from '../store/actionQueries.js';
import { openDatabase } from '../store/db.js';
import { PaperWorldRecords, paperWorldFile } from '../store/paperWorldRecords.js';
import { databaseFile } from '../store/paths.js';

/** The latest instant a kept paper world, or the paper database beside it, has reached. */
export function paperReachedAt(dataDir: string): number | undefined {
  const worldFile = paperWorldFile(dataDir);
  if (!existsSync(worldFile)) return undefined;
  const records = PaperWorldRecords.open(worldFile, { readonly: true });
  let reached: number | undefined;
  try {
    reached = records.reachedAt();
  } finally {
    records.close();
  }
  const journal = databaseFile(dataDir, 'paper');
  if (reached === undefined || !existsSync(journal)) return reached;
  const db = openDatabase(journal, { readonly: true });
  try {
    return Math.max(reached, lastActionAt(db) ?? reached);
  } finally {
    db.close();
  }
}

/**
 * Paper mode's clock: `sim.speed` times the base, resuming no earlier than a kept world had reached.
 * At speed 1 a world stopped for an hour finds an hour gone (as the real world would); a world that
 * ran ahead of real time at a higher speed resumes where it stopped. Time never goes back for it.
 */
export function paperClock(base: Clock, config: Config): Clock {
  const reached = paperReachedAt(config.data_dir);
  const startAt = Math.max(base.now(), reached ?? Number.NEGATIVE_INFINITY);
  if (config.sim.speed === 1 && startAt === base.now()) return base;
  return new ScaledClock(base, config.sim.speed, startAt);
}
