/**
 * The fleet's roster as Redis holds it: every daemon in the sorted set whose hash is still there
 * (an expired hash is a daemon gone for a day: left out), and those whose hash cannot be read.
 */
import type { Redis } from 'ioredis';
import { decodeRosterEntry, rosterEntryKey, type RosterEntry, rosterKey } from './rosterEntry.js';

export interface RosterReading {
  readonly entries: readonly RosterEntry[];
  /** Hashes that are there but do not read as an entry (another version's, a hand edit), with why. */
  readonly unreadable: readonly { readonly id: string; readonly problem: string }[];
}

export async function readRoster(redis: Redis, fleet: string): Promise<RosterReading> {
  const ids = await redis.zrange(rosterKey(fleet), 0, -1);
  if (ids.length === 0) return { entries: [], unreadable: [] };
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.hgetall(rosterEntryKey(fleet, id));
  const answers = (await pipeline.exec()) ?? [];
  const entries: RosterEntry[] = [];
  const unreadable: { id: string; problem: string }[] = [];
  ids.forEach((id, i) => {
    const [error, fields] = answers[i] ?? [new Error('no answer'), null];
    if (error) throw error;
    const hash = fields as Record<string, string>;
    if (Object.keys(hash).length === 0) return;
    const decoded = decodeRosterEntry(hash);
    if ('entry' in decoded) entries.push(decoded.entry);
    else unreadable.push({ id, problem: decoded.problem });
  });
  return { entries, unreadable };
}
