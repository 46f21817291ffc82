/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import type { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { SimRequest } from '../../src/sim/http.js';
import { createSimulator } from '../../src/sim/simulator.js';
import { SOL, signMessage, signTx, USDC, wallet } from './support/simHarness.js';

/** Runs one fixed script in-process and returns every answer plus the final ledger. */
async function run(seed: string): Promise<string[]> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const sim = createSimulator({ clock, seed, paperWallets: [wallet('det-paper').publicKey.toBase58()] });
  const out: string[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> => {
    const url = new URL(path, 'http://sim');
    const req: SimRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: { 'x-api-key': 'k', ...headers },
      rawBody: body === undefined ? '' : JSON.stringify(body),
    };
    const res = await sim.dispatch(req);
    out.push(`${res.status} ${JSON.stringify(res.headers)} ${res.body}`);
    try {
      return JSON.parse(res.body) as unknown;
    } catch {
      return undefined;
    }
  };
  const kp: Keypair = wallet('det');
  const pub = kp.publicKey.toBase58();
  sim.control.fund(pub, 5_000_000_000n);
  sim.control.fund(pub, 500_000_000n, USDC);
  await call('GET', '/ultra/v1/search?query=SOL,JUP,BONK');
  const order = await call('GET', `/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=100000000&taker=${pub}`);
  await call('POST', '/swap/v2/execute', { signedTransaction: signTx(order.transaction, kp), requestId: order.requestId });
  const ch = await call('POST', '/trigger/v2/auth/challenge', { walletPubkey: pub, type: 'message' });
  const { token } = await call('POST', '/trigger/v2/auth/verify', { type: 'message', walletPubkey: pub, signature: signMessage(ch.challenge, kp) });
  const auth = { authorization: `Bearer ${token}` };
  await call('GET', '/trigger/v2/vault/register', undefined, auth);
  const dep = await call(
    'POST',
    '/trigger/v2/deposit/craft',
    { inputMint: USDC, outputMint: SOL, userAddress: pub, amount: '20000000', orderType: 'price', orderSubType: 'single' },
    auth,
  );
  await call(
    'POST',
    '/trigger/v2/orders/price',
    {
      orderType: 'single',
      depositRequestId: dep.requestId,
      depositSignedTx: signTx(dep.transaction, kp),
      userPubkey: pub,
      inputMint: USDC,
      outputMint: SOL,
      inputAmount: '20000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      triggerPriceUsd: 149,
      expiresAt: clock.now() + 3_600_000,
    },
    auth,
  );
  await sim.control.advance(1_800_000);
  await call('GET', '/trigger/v2/orders/history', undefined, auth);
  await call('GET', '/prediction/v1/events?includeMarkets=true&end=50');
  await call('GET', `/prediction/v1/positions?ownerPubkey=${wallet('det-paper').publicKey.toBase58()}`);
  await call('GET', '/ultra/v1/search?query=SOL');
  out.push(JSON.stringify(sim.control.dumpLedger()));
  return out;
}

describe('determinism', () => {
  it('gives byte-identical answers and ledger for the same seed and calls', async () => {
    const a = await run('same');
    const b = await run('same');
    expect(b).toEqual(a);
    const c = await run('other');
    expect(c).not.toEqual(a);
  });
});
