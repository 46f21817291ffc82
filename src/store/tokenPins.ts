import type { Db, Statement } from './db.js';
import { z } from 'zod';
import { parseOptionalRow, parseRows } from './parseRows.js';

/** A symbol pinned to a mint for one strategy (table token_pins). */
export interface TokenPinRow {
  readonly strategy: string;
  readonly symbol: string;
  readonly mint: string;
  readonly decimals: number;
  readonly pinnedAt: number;
}

/**
 * The pins that keep a strategy trading the mint its symbol first resolved to: a token that later
 * takes the same symbol, or a search answer that changes, cannot redirect a strategy's money.
 * Pinning is insert-only; removing a pin is a deliberate operator action (SQL), not something the
 * daemon does on its own.
 */
const PinRow = z.object({
  strategy: z.string(),
  symbol: z.string(),
  mint: z.string(),
  decimals: z.number().int().min(0).max(255),
  pinned_at: z.number().int(),
});

export class TokenPins {
  readonly #get: Statement;
  readonly #insert: Statement;
  readonly #list: Statement;

  constructor(db: Db) {
    this.#get = db.prepare('SELECT mint, decimals FROM token_pins WHERE strategy = ? AND symbol = ?');
    this.#insert = db.prepare(
      'INSERT INTO token_pins (strategy, symbol, mint, decimals, pinned_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (strategy, symbol) DO NOTHING',
    );
    this.#list = db.prepare('SELECT strategy, symbol, mint, decimals, pinned_at FROM token_pins WHERE strategy = ? ORDER BY symbol');
  }

  get(strategy: string, symbol: string): { mint: string; decimals: number } | undefined {
    const row = parseOptionalRow(PinRow.pick({ mint: true, decimals: true }), this.#get.get(strategy, symbol), 'token pin');
    return row ? { mint: row.mint, decimals: row.decimals } : undefined;
  }

  /** Pins unless already pinned; returns true when a row was written. */
  pin(pin: { strategy: string; symbol: string; mint: string; decimals: number }, at: number): boolean {
    return this.#insert.run(pin.strategy, pin.symbol, pin.mint, pin.decimals, at).changes > 0;
  }

  list(strategy: string): TokenPinRow[] {
    return parseRows(PinRow, this.#list.all(strategy), 'token pins').map((r) => ({
      strategy: r.strategy,
      symbol: r.symbol,
      mint: r.mint,
      decimals: r.decimals,
      pinnedAt: r.pinned_at,
    }));
  }
}
