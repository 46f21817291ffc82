/**
 * Prepared statements kept per connection: queries run for every strategy on every tick would
 * otherwise be compiled again each time (about half a tick's CPU with 1,000 strategies,
 * bench/daemon.ts). A closed connection's statements go with it (WeakMap).
 */
import type { Db, Statement } from './db.js';

const cache = new WeakMap<Db, Map<string, Statement>>();

export function statement(db: Db, sql: string): Statement {
  let byText = cache.get(db);
  if (!byText) cache.set(db, (byText = new Map<string, Statement>()));
  let prepared = byText.get(sql);
  if (!prepared) byText.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}
