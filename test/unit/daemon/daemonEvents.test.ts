import { describe, expect, it } from 'vitest';
import { type DaemonEvents, forwardActions } from '../../../src/daemonEvents.js';
import { AuditLog } from '../../../src/store/audit.js';
import { Journal } from '../../../src/store/journal.js';
import { TypedEmitter } from '../../../src/typedEmitter.js';
import { freshStore } from '../store/helpers.js';

describe('daemon events from the audit log', () => {
  it('announces intent states, orders, fills, prediction sales and feed errors as they are recorded', () => {
    const { db, clock } = freshStore();
    const audit = new AuditLog(db, clock);
    const journal = new Journal(db, audit, clock);
    const events = new TypedEmitter<DaemonEvents>();
    const seen: unknown[] = [];
    for (const name of ['intent', 'order', 'fill', 'positionSold', 'feedError'] as const) events.on(name, (payload) => seen.push([name, payload]));
    const stop = forwardActions(audit, events);

    journal.plan({ id: 'i1', kind: 'sell-position', strategy: 'px', rule: 'r', params: {} });
    journal.markFailed('i1', { code: 'RISK_MIN_SELL_PRICE', message: 'too low' });
    journal.note('i1', 'order.placed', { orderId: 'o1' });
    journal.plan({ id: 'i2', kind: 'sell-position', strategy: 'px', rule: 'r2', params: {} });
    journal.recordFills('i2', [
      {
        signature: 'sig',
        idx: 0,
        source: 'prediction',
        inMint: 'prediction:M:yes',
        inAmount: 1n,
        inDecimals: 6,
        outMint: 'USDC',
        outAmount: 2n,
        outDecimals: 6,
        at: 1,
      },
    ]);
    audit.append({ kind: 'feed.failed', data: { feed: 'prices', code: 'JUPITER_RATE_LIMITED', message: '429' } });
    stop();
    audit.append({ kind: 'feed.failed', data: { feed: 'prices', code: 'X', message: 'after stop' } });

    expect(seen).toEqual([
      ['intent', { id: 'i1', strategy: 'px', state: 'planned', code: null }],
      ['intent', { id: 'i1', strategy: 'px', state: 'failed', code: 'RISK_MIN_SELL_PRICE' }],
      ['order', { orderId: 'o1', strategy: 'px', action: 'placed' }],
      ['intent', { id: 'i2', strategy: 'px', state: 'planned', code: null }],
      ['fill', { signature: 'sig', strategy: 'px', intentId: 'i2', source: 'prediction' }],
      ['positionSold', { signature: 'sig', strategy: 'px', intentId: 'i2' }],
      ['feedError', { feed: 'prices', code: 'JUPITER_RATE_LIMITED', message: '429' }],
    ]);
  });
});
