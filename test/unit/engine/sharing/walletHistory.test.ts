import { describe, expect, it } from 'vitest';
import type { ForeignTransaction } from '../../../../src/engine/sharing/foreignTransaction.js';
import { jupiterPrograms } from '../../../../src/engine/sharing/foreignTransaction.js';
import { createWalletHistoryFeed, type WalletHistoryRead } from '../../../../src/engine/sharing/walletHistory.js';
import { createLogger } from '../../../../src/ops/log.js';
import type { AddressSignature, LandedTransaction } from '../../../../src/solana/rpcHistory.js';
import { MemoryStream } from '../../../support/memoryStream.js';
import { freshStore } from '../../store/helpers.js';

const WALLET = 'Wa11et1111111111111111111111111111111111111';
const AGGREGATOR = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';

/** A node whose wallet history the test writes: signatures newest last, and which of them the node returns yet. */
function node() {
  const history: string[] = [];
  const withheld = new Set<string>();
  const failing = new Set<string>();
  const asked: string[] = [];
  const rpc = {
    getSignaturesForAddress(address: string, options: { before?: string; limit?: number } = {}): Promise<AddressSignature[]> {
      expect(address).toBe(WALLET);
      const newestFirst = [...history].reverse();
      const from = options.before === undefined ? 0 : newestFirst.indexOf(options.before) + 1;
      return Promise.resolve(
        newestFirst.slice(from, from + (options.limit ?? 1000)).map((signature) => ({ signature, slot: 1, err: null, blockTime: 1_795_000_000 })),
      );
    },
    getTransaction(signature: string): Promise<LandedTransaction | null> {
      asked.push(signature);
      if (failing.has(signature)) return Promise.reject(new Error('node timed out'));
      if (withheld.has(signature)) return Promise.resolve(null);
      return Promise.resolve({
        slot: 1,
        blockTime: 1_795_000_000,
        signatures: [signature],
        accountKeys: [WALLET, AGGREGATOR],
        err: null,
        fee: 5_000n,
        preBalances: [],
        postBalances: [],
        preTokenBalances: [],
        postTokenBalances: [],
      });
    },
  };
  return { history, withheld, failing, asked, rpc };
}

function feed(n: ReturnType<typeof node>) {
  const { db, clock } = freshStore();
  const foreign: ForeignTransaction[] = [];
  const out = new MemoryStream();
  const history = createWalletHistoryFeed({
    rpc: n.rpc,
    db,
    clock,
    wallet: WALLET,
    programs: jupiterPrograms([]),
    intervalMs: 10_000,
    onForeign: (t) => foreign.push(t),
    log: createLogger({ destination: out }),
  });
  const abort = new AbortController();
  const ours = (signature: string): void => {
    db.prepare("INSERT INTO intents (id, kind, params, state, signature, created_at, updated_at) VALUES (?, 'swap', '{}', 'planned', ?, 0, 0)").run(
      `ours/${signature}`,
      signature,
    );
  };
  /** One poll, awaited: the first starts the loop, the next ones cut its wait short. */
  const poll = async (): Promise<WalletHistoryRead> => {
    const next = Promise.race([
      history.events.next('updated').then((e) => e.value),
      history.events.next('failed').then((e) => Promise.reject(e.error instanceof Error ? e.error : new Error(e.message))),
    ]);
    if (history.state().at === null && history.state().lastError === null && !history.state().polling) history.start(abort.signal);
    else history.pollSoon();
    return await next;
  };
  return { foreign, out, ours, poll, stop: () => abort.abort(), clock };
}

describe('the wallet-history feed', () => {
  it('judges nothing that landed before the start, then each later transaction once, oldest first; ours need no getTransaction', async () => {
    const n = node();
    n.history.push('before1', 'before2');
    const f = feed(n);
    expect(await f.poll()).toEqual({ newest: 'before2', judged: 0, foreign: 0 });
    n.history.push('mine', 'theirs1', 'theirs2');
    f.ours('mine');
    expect(await f.poll()).toEqual({ newest: 'theirs2', judged: 3, foreign: 2 });
    expect(f.foreign.map((t) => t.signature)).toEqual(['theirs1', 'theirs2']);
    expect(n.asked).toEqual(['theirs1', 'theirs2']);
    expect(await f.poll()).toEqual({ newest: 'theirs2', judged: 0, foreign: 0 });
    expect(f.foreign).toHaveLength(2);
    f.stop();
  });

  it('a transaction the node does not return yet is asked for at the next polls, three in all; one left when a poll fails is judged by the next, never twice', async () => {
    const n = node();
    const f = feed(n);
    await f.poll();
    n.history.push('late', 'gone', 'after');
    n.withheld.add('late').add('gone');
    n.failing.add('after');
    await expect(f.poll()).rejects.toThrow('node timed out');
    n.failing.clear();
    expect(await f.poll()).toEqual({ newest: 'after', judged: 1, foreign: 1 });
    n.withheld.delete('late');
    expect(await f.poll()).toEqual({ newest: 'after', judged: 1, foreign: 1 });
    expect(await f.poll()).toEqual({ newest: 'after', judged: 0, foreign: 0 });
    expect(f.foreign.map((t) => t.signature)).toEqual(['after', 'late']);
    expect(n.asked.filter((s) => s === 'gone')).toHaveLength(3);
    f.stop();
  });

  it('more new transactions than one poll reads: the newest 500 are judged, and the log says so', async () => {
    const n = node();
    const f = feed(n);
    await f.poll();
    for (let i = 0; i < 520; i++) n.history.push(`s${i}`);
    expect(await f.poll()).toEqual({ newest: 's519', judged: 500, foreign: 500 });
    expect(f.foreign[0]?.signature).toBe('s20');
    expect(
      f.out
        .lines()
        .filter((l) => l['level'] === 'warn')
        .map((l) => l['msg']),
    ).toEqual([
      `wallet ${WALLET}: more than 500 transactions touched it since the last look; only the newest 500 are checked for trades this daemon did not make`,
    ]);
    f.stop();
  });
});
