import { describe, expect, it } from 'vitest';
import { meterActions } from '../../../src/ops/actionMetrics.js';
import { createMetrics } from '../../../src/ops/metrics.js';
import { AuditLog } from '../../../src/store/audit.js';
import { Journal } from '../../../src/store/journal.js';
import { freshStore } from '../store/helpers.js';

describe('meterActions', () => {
  it('counts intents by state, transitions, fills and failures from the audit log, seeded from the journal', async () => {
    const { db, clock } = freshStore();
    const audit = new AuditLog(db, clock);
    const journal = new Journal(db, audit, clock);
    journal.plan({ id: 'before', kind: 'swap', params: {} });
    const metrics = createMetrics({ defaultMetrics: false });
    const stop = meterActions({ audit, db, metrics });

    journal.plan({ id: 'a', kind: 'swap', params: {} });
    journal.recordSigned('a', { bytes: new Uint8Array([1]), signature: 's'.repeat(88), blockhash: 'h', lastValidBlockHeight: 9 });
    journal.markSent('a');
    journal.markConfirmed('a', {}, [
      { signature: 's'.repeat(88), idx: 0, source: 'swap', inMint: 'A', inAmount: 1n, inDecimals: 0, outMint: 'B', outAmount: 2n, outDecimals: 0, at: 1 },
    ]);
    journal.markFailed('before', { code: 'GUARD_REFUSED', message: 'no' });
    audit.append({ kind: 'error', data: { during: 'tick', message: 'x' } });
    stop();

    const text = await metrics.scrape();
    expect(text).toContain('jupbot_intents{state="confirmed"} 1');
    expect(text).toContain('jupbot_intents{state="failed"} 1');
    expect(text).toContain('jupbot_intents{state="planned"} 0');
    expect(text).toContain('jupbot_intent_transitions_total{state="sent"} 1');
    expect(text).toContain('jupbot_fills_total{kind="swap"} 1');
    expect(text).toContain('jupbot_errors_total{source="executor",code="GUARD_REFUSED"} 1');
    expect(text).toContain('jupbot_errors_total{source="engine",code="tick"} 1');
  });
});
