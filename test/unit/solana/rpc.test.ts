import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { Redactor } from '../../../src/ops/redact.js';
import { ScaledClock } from '../../../src/scaledClock.js';
import { createSimulator } from '../../../src/sim/simulator.js';
import { createSolanaRpc, RpcError } from '../../../src/solana/rpc.js';
import { USDC } from '../../support/mints.js';
import { simFetch } from '../../support/simFetch.js';

const URL_WITH_KEY = 'https://rpc.example.com/?api-key=very-secret-rpc-key';
const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

function simRpc(): { clock: ManualClock; rpc: ReturnType<typeof createSolanaRpc>; sim: ReturnType<typeof createSimulator> } {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const sim = createSimulator({ clock, seed: 'rpc' });
  return { clock, sim, rpc: createSolanaRpc({ url: 'http://sim.local/rpc', clock, fetch: simFetch(sim) }) };
}

describe('solana rpc client', () => {
  it('reads block height, blockhash, balances, token accounts and signature statuses', async () => {
    const { rpc, sim } = simRpc();
    sim.control.fund(WALLET, 1_500_000_000n);
    sim.control.fund(WALLET, 7_000_000n, USDC);
    const height = await rpc.getBlockHeight();
    expect(height).toBe(sim.control.state().blockHeight);
    const latest = await rpc.getLatestBlockhash();
    expect(latest.lastValidBlockHeight).toBe(height + 150);
    expect(await rpc.getBalance(WALLET)).toBe(1_500_000_000n);
    expect(await rpc.getTokenAccountsByOwner(WALLET, { mint: USDC })).toMatchObject([{ mint: USDC, amount: 7_000_000n, decimals: 6 }]);
    expect(await rpc.getSignatureStatuses(['1'.repeat(88)])).toEqual([null]);
  });

  it("turns a JSON-RPC error into a typed RpcError with the node's code", async () => {
    const { rpc } = simRpc();
    const error = await rpc.sendTransaction('AAAA').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: 'RPC_ERROR', rpcCode: -32602, method: 'sendTransaction', outcomeUnknown: false });
  });

  it('times out on the injected clock; a send that timed out has an unknown outcome', async () => {
    const clock = new ManualClock();
    const hang: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const rpc = createSolanaRpc({ url: URL_WITH_KEY, clock, fetch: hang, timeoutMs: 5_000 });
    const pending = rpc.sendTransaction('AAAA').catch((e: unknown) => e);
    await clock.advance(5_000);
    expect(await pending).toMatchObject({ code: 'RPC_TIMEOUT', outcomeUnknown: true });
    const read = rpc.getBlockHeight().catch((e: unknown) => e);
    await clock.advance(5_000);
    expect(await read).toMatchObject({ code: 'RPC_TIMEOUT', outcomeUnknown: false });
  });

  it("a sped-up clock (paper mode's sim.speed) does not shorten the timeout: it runs on the real clock beneath", async () => {
    const real = new ManualClock();
    const hang: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const rpc = createSolanaRpc({ url: URL_WITH_KEY, clock: new ScaledClock(real, 120), fetch: hang, timeoutMs: 5_000 });
    let settled = false;
    const pending = rpc
      .getBlockHeight()
      .catch((e: unknown) => e)
      .finally(() => {
        settled = true;
      });
    await real.advance(4_999);
    expect(settled).toBe(false);
    await real.advance(1);
    expect(await pending).toMatchObject({ code: 'RPC_TIMEOUT', message: 'rpc getBlockHeight → RPC_TIMEOUT: no answer within 5000 ms' });
  });

  it('never puts the RPC URL (which may hold a key) in an error', async () => {
    const redactor = new Redactor();
    const failing: typeof fetch = () => Promise.reject(new TypeError(`fetch failed for ${URL_WITH_KEY}`));
    const rpc = createSolanaRpc({ url: URL_WITH_KEY, clock: new ManualClock(), fetch: failing, redactor });
    const error = (await rpc.getBalance(WALLET).catch((e: unknown) => e)) as RpcError;
    expect(error.code).toBe('RPC_NETWORK_ERROR');
    expect(error.message).not.toContain('very-secret-rpc-key');
    expect(JSON.stringify(redactor.scrub(error))).not.toContain('very-secret-rpc-key');
    const http: typeof fetch = () => Promise.resolve(new Response(`upstream ${URL_WITH_KEY} failed`, { status: 502 }));
    const viaHttp = (await createSolanaRpc({ url: URL_WITH_KEY, clock: new ManualClock(), fetch: http })
      .getBlockHeight()
      .catch((e: unknown) => e)) as RpcError;
    expect(viaHttp).toMatchObject({ code: 'RPC_HTTP_ERROR', status: 502 });
    expect(viaHttp.message).not.toContain('very-secret-rpc-key');
  });
});
