import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../../../src/engine/executor/executor.js';
import type { SigningHandler } from '../../../../src/engine/executor/handler.js';
import { createWalletTurn } from '../../../../src/engine/executor/walletTurn.js';
import type { SolanaRpc } from '../../../../src/solana/rpc.js';
import { AuditLog } from '../../../../src/store/audit.js';
import { Journal } from '../../../../src/store/journal.js';
import { freshStore } from '../../store/helpers.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const signedRecord = (n: number): { bytes: Uint8Array; signature: string; blockhash: string; lastValidBlockHeight: number } => ({
  bytes: new Uint8Array([n]),
  signature: String(n).repeat(88),
  blockhash: 'H'.repeat(43),
  lastValidBlockHeight: 1_000,
});

/** A handler that logs its steps; `gate` holds its prepare (where the guard reads our accounts and simulates) open. */
function handler(kind: string, n: number, log: string[], gate?: { started: () => void; open: Promise<void> }): SigningHandler {
  return {
    kind,
    async prepare() {
      log.push(`${kind} prepare`);
      if (gate) {
        gate.started();
        await gate.open;
      }
      log.push(`${kind} prepared`);
      return signedRecord(n);
    },
    submit() {
      log.push(`${kind} submit`);
      return Promise.resolve({ kind: 'confirmed', data: {}, fills: [] });
    },
    landed: () => Promise.resolve({ data: {}, fills: [] }),
  };
}

describe('our own transactions take turns with our own checks', () => {
  it('a signed intent is not submitted while another intent is being built and checked: it waits for the end of that check', async () => {
    const { db, clock } = freshStore();
    const audit = new AuditLog(db, clock);
    const journal = new Journal(db, audit, clock);
    const log: string[] = [];
    const started = deferred();
    const open = deferred();
    const executor = createExecutor({
      journal,
      db,
      audit,
      rpc: {} as SolanaRpc,
      clock,
      handlers: [handler('renew', 1, log, { started: started.resolve, open: open.promise }), handler('dca', 2, log)],
    });
    // A DCA swap signed earlier and not yet sent (reconciliation resumes it), and a renewal being checked.
    journal.plan({ id: 'dca-run', kind: 'dca', params: {} });
    journal.recordSigned('dca-run', signedRecord(2));
    const renewal = executor.execute({ id: 'renewal', kind: 'renew', params: {} });
    await started.promise;
    const dca = executor.drive('dca-run');
    open.resolve();
    const [renewed, ran] = await Promise.all([renewal, dca]);
    expect([renewed.state, ran.state]).toEqual(['confirmed', 'confirmed']);
    // The DCA swap's submission came after the renewal's check, never during it.
    expect(log).toEqual(['renew prepare', 'renew prepared', 'dca submit', 'renew submit']);
  });

  it('a turn is first come, first served, and a failing turn does not hold up the next', async () => {
    const turn = createWalletTurn();
    const log: string[] = [];
    const first = deferred();
    const a = turn.run(async () => {
      await first.promise;
      log.push('a');
      throw new Error('a failed');
    });
    const b = turn.run(() => {
      log.push('b');
      return 'b done';
    });
    first.resolve();
    await expect(a).rejects.toThrow('a failed');
    await expect(b).resolves.toBe('b done');
    expect(log).toEqual(['a', 'b']);
  });
});
