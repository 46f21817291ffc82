import { describe, expect, it } from 'vitest';
import { auditFeed } from '../../../src/ops/feedAudit.js';
import { AuditLog } from '../../../src/store/audit.js';
import { TypedEmitter } from '../../../src/typedEmitter.js';
import { freshStore } from '../store/helpers.js';

describe('auditFeed', () => {
  it('records one feed.failed and one feed.recovered per outage, however many polls fail', async () => {
    const { db, clock } = freshStore();
    const audit = new AuditLog(db, clock);
    const events = new TypedEmitter<{ failed: { code: string; message: string; consecutiveFailures: number }; updated: { at: number } }>();
    const detach = auditFeed({ name: 'prices', events }, audit, clock);
    events.emit('updated', { at: clock.now() });
    for (let n = 1; n <= 4; n++) {
      events.emit('failed', { code: 'JUPITER_RATE_LIMITED', message: '429', consecutiveFailures: n });
      await clock.advance(10_000);
    }
    events.emit('updated', { at: clock.now() });
    events.emit('updated', { at: clock.now() });
    detach();
    events.emit('failed', { code: 'X', message: 'after detach', consecutiveFailures: 1 });
    const rows = (db.prepare('SELECT kind, data FROM actions ORDER BY id').all() as { kind: string; data: string }[]).map((r) => [
      r.kind,
      JSON.parse(r.data) as unknown,
    ]);
    expect(rows).toEqual([
      ['feed.failed', { feed: 'prices', code: 'JUPITER_RATE_LIMITED', message: '429' }],
      ['feed.recovered', { feed: 'prices', failedPolls: 4, downMs: 40_000 }],
    ]);
  });
});
