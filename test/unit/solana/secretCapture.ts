/**
 * Collects everything a test run lets out — log lines, error messages and stacks, database rows —
 * and greps it for secrets: the wallet key in base58 and JSON-array form, and every JWT issued.
 */
import { inspect } from 'node:util';
import bs58 from 'bs58';
import { expect } from 'vitest';
import type { Db } from '../../../src/store/db.js';
import { keypair } from './txFactory.js';

export const SECRET_KEYPAIR = keypair('guard-wallet');
export const SECRET_BASE58 = bs58.encode(SECRET_KEYPAIR.secretKey);
export const SECRET_JSON = JSON.stringify(Array.from(SECRET_KEYPAIR.secretKey));

export class SecretCapture {
  readonly #texts: string[] = [];
  readonly #tokens = new Set<string>();

  /** Any text the code under test produced (a log stream's content, an answer). */
  text(value: string): void {
    this.#texts.push(value);
  }

  /** An error as every consumer could render it: message, stack, String(), inspect, JSON of its fields. */
  error(error: unknown): void {
    if (error instanceof Error) this.#texts.push(error.message, error.stack ?? '', String(error));
    this.#texts.push(inspect(error, { depth: 8 }), JSON.stringify(error, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '');
  }

  /** Every row of every table. */
  database(db: Db): void {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all()) this.#texts.push(JSON.stringify(row));
    }
  }

  token(value: string): void {
    this.#tokens.add(value);
  }

  /** How much was captured (so a test can show the grep had something to look at). */
  get size(): number {
    return this.#texts.reduce((n, t) => n + t.length, 0);
  }

  assertClean(): void {
    const all = this.#texts.join('\n');
    const secrets = [SECRET_BASE58, SECRET_JSON, JSON.stringify(Array.from(SECRET_KEYPAIR.secretKey), null, 2), ...this.#tokens];
    for (const secret of secrets) expect(all.includes(secret), `a secret (${secret.length} chars) leaked`).toBe(false);
    // The seed half alone, in any spacing, is as bad as the whole key.
    expect(all).not.toMatch(new RegExp(Array.from(SECRET_KEYPAIR.secretKey.slice(0, 12)).join('\\s*,\\s*')));
  }
}
