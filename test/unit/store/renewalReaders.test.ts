/**
 * The store's readers of journal kinds take a renewal (`renew-vault-order`) for what it is: a
 * withdrawal of ours at work on its order (so the engine does not withdraw the order a second time),
 * and, confirmed, the `renewed` event of `jupbot audit orders`.
 */
import { describe, expect, it } from 'vitest';
import { listOrderEvents } from '../../../src/store/orderRecords.js';
import { strandedOrdersWithFunds } from '../../../src/store/vaultOrderRecords.js';
import { freshStore } from './helpers.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const PLACE = 'tp-sol/cdcdcdcdcdcd/take_profit[0]/g0';
const RENEW = 'tp-sol/cdcdcdcdcdcd/take_profit[0]/renew:ord-1@1767830400000';

function world(): ReturnType<typeof freshStore>['db'] {
  const { db } = freshStore();
  const intent = (id: string, kind: string, params: object, state: string): void => {
    db.prepare(
      `INSERT INTO intents (id, strategy, rule, kind, params, state, created_at, updated_at) VALUES (?, 'tp-sol', 'take_profit[0]', ?, ?, ?, 1, 5)`,
    ).run(id, kind, JSON.stringify(params), state);
  };
  intent(PLACE, 'place-vault-order', { inputMint: SOL, inputAmount: '1000000000' }, 'confirmed');
  db.prepare('UPDATE intents SET order_id = ? WHERE id = ?').run('ord-1', PLACE);
  // The old order, being withdrawn by the renewal (Trigger's `pending_withdraw`).
  db.prepare(
    `INSERT INTO trigger_orders (id, intent_id, strategy, family, order_type, state, input_mint, input_decimals, output_mint, output_decimals,
       input_amount, raw, created_at, updated_at, first_seen_at, last_synced_at)
     VALUES ('ord-1', ?, 'tp-sol', 'price', 'single', 'pending_withdraw', ?, 9, ?, 6, '1000000000', '{}', 1, 1, 1, 1)`,
  ).run(PLACE, SOL, USDC);
  intent(RENEW, 'renew-vault-order', { orderId: 'ord-1', family: 'price', then: { params: {}, reason: 'renew' } }, 'planned');
  return db;
}

describe('a renewal, as the store reads it', () => {
  it('is a withdrawal at work: its order is not stranded while it lives, and is once it failed', () => {
    const db = world();
    expect(strandedOrdersWithFunds(db)).toEqual([]);
    db.prepare("UPDATE intents SET state = 'failed' WHERE id = ?").run(RENEW);
    expect(strandedOrdersWithFunds(db).map((o) => o.id)).toEqual(['ord-1']);
  });

  it('confirmed, is the `renewed` event of its order, naming the replacement', () => {
    const db = world();
    expect(listOrderEvents(db).filter((e) => e.event === 'renewed')).toEqual([]);
    db.prepare("UPDATE intents SET state = 'signed', signed_tx = x'00', signature = 'sig' WHERE id = ?").run(RENEW);
    db.prepare("UPDATE intents SET state = 'confirmed' WHERE id = ?").run(RENEW);
    expect(listOrderEvents(db).filter((e) => e.event === 'renewed')).toMatchObject([{ order_id: 'ord-1', detail: `${RENEW}#place` }]);
  });
});
