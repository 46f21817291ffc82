import { describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/store/audit.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { Journal } from '../../../src/store/journal.js';
import { freshStore } from './helpers.js';

function setup(): { journal: Journal; audit: AuditLog; db: ReturnType<typeof freshStore>['db']; clock: ReturnType<typeof freshStore>['clock'] } {
  const { db, clock } = freshStore();
  const audit = new AuditLog(db, clock);
  return { journal: new Journal(db, audit, clock), audit, db, clock };
}

const input = {
  id: 'dca/abc/run/2026-01-01',
  kind: 'swap',
  strategy: 'dca',
  rule: 'run',
  params: { amount: 25_000_000n, inputMint: 'USDC' },
  evidence: { price: '187.25' },
  reason: 'scheduled',
};
const signed = { bytes: new Uint8Array([1, 2, 3]), signature: '5'.repeat(88), blockhash: 'H'.repeat(43), lastValidBlockHeight: 1234, requestId: 'req-1' };
const kinds = (db: ReturnType<typeof freshStore>['db']): string[] =>
  (db.prepare('SELECT kind FROM actions ORDER BY id').all() as { kind: string }[]).map((r) => r.kind);

describe('journal', () => {
  it('plans idempotently by id: one row, one intent.planned action carrying the evidence', () => {
    const { journal, db } = setup();
    const a = journal.plan(input);
    const b = journal.plan({ ...input, params: { different: true } });
    expect(a.created).toBe(true);
    expect(b.created).toBe(false);
    expect(b.row).toEqual(a.row);
    expect(a.row).toMatchObject({ state: 'planned', attempts: 0, params: { amount: '25000000', inputMint: 'USDC' }, signedTx: null });
    expect(kinds(db)).toEqual(['intent.planned']);
    const data = JSON.parse((db.prepare('SELECT data FROM actions').get() as { data: string }).data) as Record<string, unknown>;
    expect(data).toMatchObject({ kind: 'swap', evidence: { price: '187.25' }, reason: 'scheduled' });
  });

  it('records the signed bytes before sending and walks the state machine with one action per step', () => {
    const { journal, db } = setup();
    journal.plan(input);
    const row = journal.recordSigned(input.id, signed);
    expect(row).toMatchObject({
      state: 'signed',
      signature: signed.signature,
      blockhash: signed.blockhash,
      lastValidBlockHeight: 1234,
      requestId: 'req-1',
      attempts: 1,
    });
    expect([...(row.signedTx ?? [])]).toEqual([1, 2, 3]);
    expect(journal.pending().map((r) => r.id)).toEqual([input.id]);
    journal.markSent(input.id, { mode: 'first' });
    journal.markConfirmed(input.id, { status: 'Success' }, [
      {
        signature: signed.signature,
        idx: 0,
        source: 'swap',
        inMint: 'USDC',
        inAmount: 25_000_000n,
        inDecimals: 6,
        outMint: 'SOL',
        outAmount: 133_000_000n,
        outDecimals: 9,
        at: 1,
      },
    ]);
    expect(journal.pending()).toEqual([]);
    expect(journal.fillCount(input.id)).toBe(1);
    expect(kinds(db)).toEqual(['intent.planned', 'intent.signed', 'intent.sent', 'intent.confirmed', 'fill']);
    expect(verifyAuditChain(db).ok).toBe(true);
  });

  it("refuses a signed transaction identical to another intent's with STORE_SIGNATURE_TAKEN, leaving it planned", () => {
    const { journal, db } = setup();
    journal.plan(input);
    journal.plan({ ...input, id: 'dca/abc/run/2026-01-02' });
    journal.recordSigned(input.id, signed);
    expect(() => journal.recordSigned('dca/abc/run/2026-01-02', signed)).toThrow(
      expect.objectContaining({ code: 'STORE_SIGNATURE_TAKEN', message: expect.stringContaining(`identical to intent ${input.id}'s`) as unknown }),
    );
    expect(journal.require('dca/abc/run/2026-01-02')).toMatchObject({ state: 'planned', attempts: 0, signature: null });
    expect(kinds(db)).toEqual(['intent.planned', 'intent.planned', 'intent.signed']);
  });

  it('expires and re-arms an attempt: the dead transaction is cleared, the audit keeps it', () => {
    const { journal, db } = setup();
    journal.plan(input);
    journal.recordSigned(input.id, signed);
    journal.markSent(input.id);
    journal.markExpired(input.id, { height: 1300, lastValidBlockHeight: 1234 });
    const rearmed = journal.rearm(input.id);
    expect(rearmed).toMatchObject({ state: 'planned', signature: null, signedTx: null, lastValidBlockHeight: null, attempts: 1 });
    const second = journal.recordSigned(input.id, { ...signed, signature: '6'.repeat(88) });
    expect(second.attempts).toBe(2);
    const rearm = JSON.parse((db.prepare("SELECT data FROM actions WHERE kind = 'intent.rearmed'").get() as { data: string }).data) as Record<string, unknown>;
    expect(rearm).toMatchObject({ previousSignature: signed.signature, from: 'expired', to: 'planned' });
  });

  it('refuses an illegal transition and writes nothing', () => {
    const { journal, db } = setup();
    journal.plan(input);
    expect(() => journal.markConfirmed(input.id)).toThrow(expect.objectContaining({ code: 'STORE_INTENT_TRANSITION' }) as Error);
    expect(() => journal.markExpired(input.id, {})).toThrow(/cannot go from planned to expired/);
    journal.markFailed(input.id, { code: 'GUARD_REFUSED', message: 'no' });
    expect(() => journal.rearm(input.id)).toThrow(expect.objectContaining({ code: 'STORE_INTENT_TRANSITION' }) as Error);
    expect(kinds(db)).toEqual(['intent.planned', 'intent.failed']);
    expect(journal.require(input.id)).toMatchObject({ state: 'failed', errorCode: 'GUARD_REFUSED' });
  });

  it('inserts a fill once per (signature, idx), however often it is replayed', () => {
    const { journal, db } = setup();
    journal.plan(input);
    const fill = {
      signature: signed.signature,
      idx: 0,
      source: 'swap' as const,
      inMint: 'USDC',
      inAmount: '1',
      inDecimals: 6,
      outMint: 'SOL',
      outAmount: '2',
      outDecimals: 9,
      at: 1,
    };
    expect(journal.recordFills(input.id, [fill, fill])).toBe(1);
    expect(journal.recordFills(input.id, [fill])).toBe(0);
    expect(kinds(db).filter((k) => k === 'fill')).toHaveLength(1);
  });

  it('parses rows rather than casting them: a damaged row is a clear error', () => {
    const { journal, db } = setup();
    db.prepare("INSERT INTO intents (id, kind, params, created_at, updated_at) VALUES ('bad', 'swap', '[1,2]', 0, 0)").run();
    expect(() => journal.get('bad')).toThrow(expect.objectContaining({ code: 'STORE_INTENT_ROW_INVALID' }) as Error);
    expect(() => journal.require('missing')).toThrow(expect.objectContaining({ code: 'STORE_INTENT_UNKNOWN' }) as Error);
  });
});
