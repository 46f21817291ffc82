import { describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/store/audit.js';
import { insertFill } from '../../../src/store/fills.js';
import { listOrderEvents } from '../../../src/store/orderRecords.js';
import { freshStore } from './helpers.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const DAY = 86_400_000;

describe('order events', () => {
  it("lists a DCA order's life oldest first, and in the order it happened within one instant", () => {
    const { db, clock } = freshStore();
    const t0 = clock.now();
    const audit = new AuditLog(db, clock);
    // The events alone: the mirrored order row they hang off is not what is tested.
    db.pragma('foreign_keys = OFF');
    const round = (n: number, at: number): void => {
      insertFill(
        db,
        {
          signature: `round-${n}`,
          idx: 0,
          source: 'dca',
          inMint: USDC,
          inAmount: 10_000_000n,
          inDecimals: 6,
          outMint: SOL,
          outAmount: BigInt(n) * 1_000_000n,
          outDecimals: 9,
          at,
          triggerOrderId: 'dca-1',
        },
        at,
      );
    };
    // Recorded as a sync pass finds them: the completion first, then the fills it read with it; the
    // first round ran in the instant the order was placed, the last in the instant it completed.
    clock.setWallTime(t0 + 2 * DAY);
    audit.append({ kind: 'order.completed', data: { orderId: 'dca-1', via: 'history' } });
    round(3, t0 + 2 * DAY);
    round(2, t0 + DAY);
    round(1, t0);
    clock.setWallTime(t0);
    audit.append({ kind: 'order.placed', data: { orderId: 'dca-1' } });

    expect(listOrderEvents(db).map((e) => [e.at - t0, e.event, e.detail])).toEqual([
      [0, 'placed', null],
      [0, 'filled', '1000000'],
      [DAY, 'filled', '2000000'],
      [2 * DAY, 'filled', '3000000'],
      [2 * DAY, 'completed', 'history'],
    ]);
  });
});
