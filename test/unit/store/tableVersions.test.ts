import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { openStore } from '../../../src/store/migrate.js';
import { journalVersion, readSinceJournalChange } from '../../../src/store/tableVersions.js';

describe('reads reused until the journal changes', () => {
  it('recomputes after any write to intents or trigger_orders on this connection, and only then', () => {
    const { db } = openStore(':memory:', { clock: new ManualClock() });
    let reads = 0;
    const read = (): number => readSinceJournalChange(db, 'count', () => ++reads);
    expect([read(), read()]).toEqual([1, 1]);
    // Another table: the value is reused.
    db.prepare(
      "INSERT INTO token_pins (strategy, symbol, mint, decimals, pinned_at) VALUES ('s', 'SOL', 'So11111111111111111111111111111111111111112', 9, 0)",
    ).run();
    expect(read()).toBe(1);
    const before = journalVersion(db);
    db.prepare(
      "INSERT INTO trigger_orders (id, family, order_type, state, input_mint, input_decimals, output_mint, output_decimals, input_amount, raw, created_at, updated_at, first_seen_at, last_synced_at, adopted) VALUES ('o1', 'price', 'single', 'open', 'a', 6, 'b', 6, '1', '{}', 0, 0, 0, 0, 0)",
    ).run();
    expect(journalVersion(db)).toBe(before + 1);
    expect([read(), read()]).toEqual([2, 2]);
    db.prepare("UPDATE trigger_orders SET state = 'filled' WHERE id = 'o1'").run();
    expect(read()).toBe(3);
    db.prepare("DELETE FROM trigger_orders WHERE id = 'o1'").run();
    expect(read()).toBe(4);
    // Keys are apart: a new key is computed once, the old one still reused.
    expect(readSinceJournalChange(db, 'other', () => 'x')).toBe('x');
    expect(read()).toBe(4);
    db.close();
  });
});
