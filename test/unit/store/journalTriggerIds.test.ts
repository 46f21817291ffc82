import { describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/store/audit.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { Journal } from '../../../src/store/journal.js';
import { freshStore } from './helpers.js';

const input = { id: 'tp/abc/take_profit[0]/gen-1', kind: 'place-vault-order', strategy: 'tp', rule: 'take_profit[0]', params: { inputAmount: '1000000000' } };

describe('journal: Trigger V2 ids', () => {
  it('records only the given ids, keeps the state, and writes the explaining action in the same transaction', () => {
    const { db, clock } = freshStore();
    const journal = new Journal(db, new AuditLog(db, clock), clock);
    journal.plan(input);
    const crafted = journal.recordTriggerIds(input.id, { depositRequestId: 'dep-1' }, 'deposit.crafted', { transaction: 'AQID' });
    expect(crafted).toMatchObject({ state: 'planned', depositRequestId: 'dep-1', cancelRequestId: null, orderId: null });
    const ordered = journal.recordTriggerIds(input.id, { orderId: 'order-1' }, 'order.id');
    expect(ordered).toMatchObject({ state: 'planned', depositRequestId: 'dep-1', orderId: 'order-1' });
    journal.recordTriggerIds(input.id, { cancelRequestId: 'cancel-1' }, 'cancel.requested');
    expect(journal.require(input.id)).toMatchObject({ depositRequestId: 'dep-1', cancelRequestId: 'cancel-1', orderId: 'order-1' });
    const rows = db.prepare("SELECT kind, intent_id, data FROM actions WHERE kind != 'intent.planned' ORDER BY id").all() as Array<{
      kind: string;
      intent_id: string;
      data: string;
    }>;
    expect(rows.map((r) => r.kind)).toEqual(['deposit.crafted', 'order.id', 'cancel.requested']);
    expect(JSON.parse(rows[0]?.data ?? '{}')).toEqual({
      depositRequestId: 'dep-1',
      transaction: 'AQID',
      sealed: [{ table: 'intents', key: input.id, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as string }],
    });
    expect(verifyAuditChain(db).ok).toBe(true);
  });

  it('refuses an unknown intent without writing anything', () => {
    const { db, clock } = freshStore();
    const journal = new Journal(db, new AuditLog(db, clock), clock);
    expect(() => journal.recordTriggerIds('nope', { orderId: 'x' }, 'order.id')).toThrow(/not in the journal/);
    expect((db.prepare('SELECT count(*) AS n FROM actions').get() as { n: number }).n).toBe(0);
  });
});
