/**
 * A change the operator makes over the control socket is told to the webhooks, once, with the same
 * words as its log line; a request that changes nothing (a second identical halt, a status) is not.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createEngineControl } from '../../../src/control/engineControl.js';
import { createLogger } from '../../../src/ops/log.js';
import { notificationText, type Notification } from '../../../src/ops/notification.js';
import { AuditLog } from '../../../src/store/audit.js';
import { openStore } from '../../../src/store/migrate.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { tempDir } from '../store/helpers.js';

describe('the control changes as notifications', () => {
  it('notifies each change once and nothing for a request that changes nothing', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 9));
    const { db } = openStore(join(tempDir(), 'notify.sqlite'), { clock });
    const sent: Notification[] = [];
    const control = createEngineControl({
      db,
      audit: new AuditLog(db, clock),
      clock,
      log: createLogger({ destination: new MemoryStream() }),
      strategies: () => new Map(),
      rejectedFiles: () => [],
      filesSeen: () => 0,
      positions: () => undefined,
      notify: (n) => sent.push(n),
    });
    const halt = { command: 'halt', by: 'alice (uid 1000)', reason: 'market looks wrong', cancelOrders: true, closePositions: false } as const;
    control.answer(halt);
    control.answer(halt);
    control.answer({ command: 'status' });
    control.answer({ command: 'pause', by: 'alice (uid 1000)', reason: 'checking', strategy: 'dca-jup' });
    control.answer({ command: 'resume', by: 'bob (uid 1001)' });
    expect(sent).toEqual([
      { type: 'control', action: 'halt', detail: 'HALTED by alice (uid 1000): market looks wrong; cancelling every order' },
      { type: 'control', action: 'pause', detail: 'dca-jup: paused by alice (uid 1000): checking' },
      { type: 'control', action: 'resume', detail: 'resumed by bob (uid 1001): strategies decide again' },
    ]);
    expect(sent[0] && notificationText(sent[0])).toBe('jupbot: HALTED by alice (uid 1000): market looks wrong; cancelling every order');
    db.close();
  });
});
