import { describe, expect, it } from 'vitest';
import { startDcaOrderSync } from '../../../../src/engine/mirror/dcaOrderSync.js';
import { getAllDcaHistory, type DcaHistoryItem } from '../../../../src/jupiter/trigger.js';
import { dcaCancelIntent, dcaVaultIntent } from '../../../support/intentPlans.js';
import { actions } from '../../../support/journalRows.js';
import { USDC } from '../../../support/mints.js';
import { type StackKind, testStack } from '../../../support/testStack.js';
import { manualFeed } from './manualFeed.js';

const DCA: StackKind[] = ['place-vault-order', 'cancel-vault-order', 'place-dca-vault-order'];

describe('a DCA order the Trigger API no longer knows', () => {
  it('is marked gone after 3 reads without it and a complete read, with what the vault holds; its cancel then fails VAULT_ORDER_GONE without a call', async () => {
    const s = testStack({ kinds: DCA, seed: 'dca-gone' });
    const row = await s.executor.execute(dcaVaultIntent());
    const orderId = row.orderId ?? '';
    await s.sim.control.advance(1_000);
    const manual = manualFeed<DcaHistoryItem>();
    const stop = startDcaOrderSync({ feed: manual.feed, ...s.sync, authed: s.authed, rpc: s.rpc });
    const read = async (): Promise<void> => {
      manual.emit(await getAllDcaHistory(s.authed, { state: 'active' }), s.clock.now());
      await stop.idle();
    };
    await read();
    expect(s.orders.get(orderId)?.state).toBe('active');

    expect(s.sim.control.forgetOrders([orderId])).toEqual([orderId]);
    await read();
    await read();
    expect(s.orders.get(orderId)?.state).toBe('active');
    expect(actions(s.db, 'order.gone')).toEqual([]);
    await read();
    expect(s.orders.get(orderId)?.state).toBe('gone');
    const [gone, ...more] = actions(s.db, 'order.gone');
    expect(more).toEqual([]);
    expect(gone?.intent_id).toBe(row.id);
    const data = JSON.parse(gone?.data ?? '{}') as {
      missedReads: number;
      family: string;
      vaultFunds: { kind: string; vault: string; mint: string; amount: string };
    };
    expect(data).toMatchObject({ missedReads: 3, family: 'dca', inputMint: USDC, vaultFunds: { kind: 'held', mint: USDC } });
    expect(data.vaultFunds.amount).toBe(s.sim.control.balance(data.vaultFunds.vault, USDC).toString());
    expect(BigInt(data.vaultFunds.amount)).toBeGreaterThan(0n);

    s.routes.length = 0;
    const cancel = await s.executor.execute(dcaCancelIntent(orderId));
    expect(cancel).toMatchObject({ state: 'failed', errorCode: 'VAULT_ORDER_GONE' });
    expect(s.routes).toEqual([]);
    stop();
  });
});
