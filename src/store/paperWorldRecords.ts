/**
 * The paper world's own file, `<data_dir>/paper-world.sqlite`, apart from the journal: what the
 * simulated world needs to be rebuilt (its seed, its first instant, and every input that changed it,
 * in order) and the last instant it is known to have reached. The journal and this file are written
 * by the same process, each before the step that depends on it, so after a crash they disagree only
 * as a live journal and the chain can: reconciliation settles it the same way.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { WorldInput } from '../sim/worldInput.js';
import { openDatabase, type Db, type Statement } from './db.js';
import { parseOptionalRow, parseRow } from './parseRows.js';
import { StoreError } from './errors.js';

/** Raised when the file's layout changes in a way older worlds cannot be read back by. */
const FORMAT = 1;

export function paperWorldFile(dataDir: string): string {
  return join(dataDir, 'paper-world.sqlite');
}

export interface WorldHeader {
  readonly seed: string;
  /** The world's first instant, epoch ms. */
  readonly genesis: number;
  /** The latest instant the world is known to have reached. */
  readonly seenAt: number;
}

const headerRow = z.object({ format: z.number().int(), seed: z.string().min(1), genesis: z.number().int(), seen_at: z.number().int() });
const scalar = z.union([z.string(), z.number(), z.boolean()]);
const inputSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('request'),
    at: z.number().int(),
    method: z.string(),
    path: z.string(),
    query: z.string(),
    authorization: z.string().nullable(),
    body: z.string(),
  }),
  z.object({
    kind: z.literal('control'),
    at: z.number().int(),
    op: z.enum(['setPrice', 'setMark', 'fund', 'transfer', 'paperWallet', 'settleMarket', 'setScore', 'setTradingActive', 'forgetOrders']),
    args: z.array(scalar),
  }),
]);
const inputRow = z.object({ input: z.string() });

export class PaperWorldRecords {
  readonly #append: Statement | undefined;
  readonly #seen: Statement | undefined;

  private constructor(
    readonly db: Db,
    readonly: boolean,
  ) {
    if (!readonly)
      db.exec(`
      CREATE TABLE IF NOT EXISTS world (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        format INTEGER NOT NULL,
        seed TEXT NOT NULL,
        genesis INTEGER NOT NULL,
        seen_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS inputs (
        seq INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        input TEXT NOT NULL
      );`);
    this.#append = readonly ? undefined : db.prepare('INSERT INTO inputs (at, input) VALUES (?, ?)');
    this.#seen = readonly ? undefined : db.prepare('UPDATE world SET seen_at = max(seen_at, ?) WHERE id = 1');
  }

  /** Opens (creating) the file; every write is durable before it returns (synchronous FULL). `readonly`: the file must exist. */
  static open(file: string, options: { readonly readonly?: boolean } = {}): PaperWorldRecords {
    const readonly = options.readonly ?? false;
    return new PaperWorldRecords(openDatabase(file, { readonly }), readonly);
  }

  header(): WorldHeader | undefined {
    const row = parseOptionalRow(headerRow, this.db.prepare('SELECT format, seed, genesis, seen_at FROM world WHERE id = 1').get(), 'paper world header');
    if (row === undefined) return undefined;
    if (row.format !== FORMAT)
      throw new StoreError(
        'STORE_ROW_INVALID',
        `the paper world was saved in format ${row.format}; this jupbot reads format ${FORMAT}: run \`jupbot paper reset\``,
        {
          details: { query: 'paper world header' },
        },
      );
    return { seed: row.seed, genesis: row.genesis, seenAt: row.seen_at };
  }

  /** Starts the file of a new world. */
  begin(seed: string, genesis: number): void {
    this.db.prepare('INSERT INTO world (id, format, seed, genesis, seen_at) VALUES (1, ?, ?, ?, ?)').run(FORMAT, seed, genesis, genesis);
  }

  append(input: WorldInput): void {
    if (this.#append === undefined) throw new TypeError('the paper world file is open read-only');
    this.#append.run(input.at, JSON.stringify(input));
  }

  /** Records that the world has reached `at` (it never goes back). */
  seen(at: number): void {
    if (this.#seen === undefined) throw new TypeError('the paper world file is open read-only');
    this.#seen.run(Math.floor(at));
  }

  /** The latest instant the world reached: its last input or its last recorded sighting. */
  reachedAt(): number | undefined {
    const header = this.header();
    if (header === undefined) return undefined;
    const last = parseRow(z.object({ at: z.number().int().nullable() }), this.db.prepare('SELECT max(at) AS at FROM inputs').get(), 'paper world reached');
    return Math.max(header.seenAt, last.at ?? header.genesis);
  }

  /** Every input, oldest first, parsed. */
  *inputs(): Generator<WorldInput> {
    for (const row of this.db.prepare('SELECT input FROM inputs ORDER BY seq').iterate()) {
      const { input } = parseRow(inputRow, row, 'paper world input');
      let parsed: unknown;
      try {
        parsed = JSON.parse(input);
      } catch {
        parsed = undefined;
      }
      yield parseRow(inputSchema, parsed, 'paper world input');
    }
  }

  close(): void {
    this.db.close();
  }
}
