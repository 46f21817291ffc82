import { describe, expect, it } from 'vitest';
import type { ForeignEvidence } from '../../../../src/engine/sharing/walletSharing.js';
import { createWalletSharing } from '../../../../src/engine/sharing/walletSharing.js';
import type { AuditLog } from '../../../../src/store/audit.js';
import type { ActionInput } from '../../../../src/store/actionRow.js';

const START = Date.UTC(2026, 10, 24, 8, 0);

function swap(signature: string): ForeignEvidence {
  return { kind: 'transaction', signature, walletSignature: signature, at: START + 60_000, trade: 'swap', programs: ['JUP6'], failed: false };
}

function sharing(options: { shared?: boolean; failing?: boolean } = {}) {
  const rows: ActionInput[] = [];
  const stops: string[] = [];
  const audit = {
    append(input: ActionInput) {
      if (options.failing) throw new Error('database or disk is full');
      rows.push(input);
      return { id: rows.length, at: 0, hash: '' };
    },
  } as unknown as AuditLog;
  const s = createWalletSharing({
    wallet: 'W',
    instanceId: 'host-a',
    dataDir: '/var/lib/jupbot',
    shared: options.shared ?? false,
    startedAt: START,
    audit,
    onStop: (error, summary) => stops.push(`${error.code}: ${summary}`),
  });
  return { s, rows, stops };
}

describe('the verdict on foreign activity', () => {
  it('the same transaction reported twice counts once; the second distinct one stops, once', () => {
    const { s, rows, stops } = sharing();
    s.report(swap('one'));
    s.report(swap('one'));
    expect(stops).toEqual([]);
    expect(s.readiness().probe()).toEqual({ ok: true });
    s.report(swap('two'));
    s.report(swap('three'));
    expect(rows.map((r) => [r.kind, r.signature, (r.data as { verdict: string }).verdict])).toEqual([
      ['wallet.foreign_activity', 'one', 'warned'],
      ['wallet.foreign_activity', 'two', 'stopped'],
    ]);
    expect(stops).toEqual(['WALLET_SHARED: Jupiter swap two at 2026-11-24T08:01:00.000Z']);
    expect(s.readiness().probe()).toMatchObject({ ok: false, detail: expect.stringContaining('is traded by someone else: the Jupiter swap two') as unknown });
  });

  it('with wallet.shared: true nothing is recorded and nothing stops', () => {
    const { s, rows, stops } = sharing({ shared: true });
    s.report(swap('one'));
    s.report(swap('two'));
    s.report({ kind: 'order', family: 'price', orderId: 'o1', createdAt: START + 5, depositSignature: 'dep', described: {} });
    expect([rows, stops]).toEqual([[], []]);
  });

  it('stops even when the audit row cannot be written', () => {
    const { s, stops } = sharing({ failing: true });
    expect(() => s.report({ kind: 'order', family: 'dca', orderId: 'o1', createdAt: null, depositSignature: 'dep', described: {} })).toThrow(
      'database or disk is full',
    );
    expect(stops).toEqual(['WALLET_SHARED: Trigger dca order o1 created at an unknown time']);
    expect(s.readiness().probe().ok).toBe(false);
  });
});
