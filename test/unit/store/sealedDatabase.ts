/** A database written as the daemon writes it (every row sealed), and tampered copies of it. */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import { AuditLog } from '../../../src/store/audit.js';
import { openDatabase, type Db } from '../../../src/store/db.js';
import { Journal } from '../../../src/store/journal.js';
import { TriggerOrders } from '../../../src/store/triggerOrders.js';
import { freshStore, tempDir, track } from './helpers.js';

export const SIG = (n: number): string => `${n}`.padStart(2, '0').repeat(44).slice(0, 88);

/** A database as the daemon leaves it: two swaps with their fills, and one mirrored vault order. */
export function tradedDatabase(): string {
  const { db, file, clock } = freshStore();
  const log = new AuditLog(db, clock);
  const journal = new Journal(db, log, clock);
  const orders = new TriggerOrders(db, log);
  const swap = (
    id: string,
    n: number,
    fill: { inMint: string; inAmount: string; inDecimals: number; outMint: string; outAmount: string; outDecimals: number },
  ): void => {
    journal.plan({ id, strategy: 'sol-tp', kind: 'swap', params: { n }, reason: `rule ${n} fired` });
    journal.markSent(id);
    clock.setWallTime(clock.now() + 60_000);
    journal.markConfirmed(id, {}, [{ signature: SIG(n), idx: 0, source: 'swap', ...fill, at: clock.now() }]);
  };
  swap('buy', 1, { inMint: USDC_MINT, inAmount: '150000000', inDecimals: 6, outMint: SOL_MINT, outAmount: '1000000000', outDecimals: 9 });
  swap('sell', 2, { inMint: SOL_MINT, inAmount: '1000000000', inDecimals: 9, outMint: USDC_MINT, outAmount: '158206188', outDecimals: 6 });
  journal.plan({ id: 'place', strategy: 'sol-tp', kind: 'place-vault-order', params: {} });
  orders.upsert(
    {
      id: 'order-1',
      family: 'price',
      orderType: 'single',
      state: 'open',
      rawState: 'open',
      inputMint: SOL_MINT,
      outputMint: USDC_MINT,
      inputAmount: '500000000',
      remaining: '500000000',
      inputUsed: null,
      outputAmount: null,
      triggerMint: SOL_MINT,
      condition: 'above',
      triggerPriceUsd: '180',
      slippageBps: 50,
      trailingBps: null,
      expiresAt: null,
      depositSignature: null,
      raw: '{"id":"order-1"}',
      createdAt: clock.now(),
      updatedAt: clock.now(),
    },
    { intentId: 'place', strategy: 'sol-tp', inputDecimals: 9, outputDecimals: 6, depositSignature: null },
    clock.now(),
  );
  orders.setState('order-1', 'cancelled', clock.now());
  db.close();
  return file;
}

/** A copy of `file` changed as a tamperer would, with the guard triggers dropped first. */
export function tampered(file: string, change: (db: Db) => void): string {
  const copy = join(tempDir(), 'tampered.sqlite');
  copyFileSync(file, copy);
  const db = track(openDatabase(copy));
  for (const trigger of ['intents_no_delete', 'intents_state_transition', 'intents_identity_immutable']) db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
  db.pragma('foreign_keys = OFF');
  change(db);
  db.close();
  return copy;
}
