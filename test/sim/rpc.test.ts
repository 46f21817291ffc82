/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { Connection, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SOL, startSim, USDC, wallet, type Harness } from './support/simHarness.js';

let h: Harness;
afterEach(async () => h.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function rpc(method: string, params: unknown[] = []): Promise<any> {
  const r = await h.call('POST', '/rpc', { key: null, body: { jsonrpc: '2.0', id: 1, method, params } });
  return r.body;
}

describe('solana rpc subset', () => {
  it('advances block height with the clock and expires blockhashes by height', async () => {
    h = await startSim();
    const a = (await rpc('getLatestBlockhash')).result.value;
    const h0 = (await rpc('getBlockHeight')).result as number;
    await h.clock.advance(4_000);
    expect((await rpc('getBlockHeight')).result).toBe(h0 + 10);
    expect(a.lastValidBlockHeight).toBe(h0 + 150);
    const from = wallet('rpc-from');
    const to = wallet('rpc-to');
    h.sim.control.fund(from.publicKey.toBase58(), 1_000_000_000n);
    const build = (blockhash: string, lamports: number): VersionedTransaction => {
      const msg = new TransactionMessage({
        payerKey: from.publicKey,
        recentBlockhash: blockhash,
        instructions: [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to.publicKey, lamports })],
      }).compileToV0Message();
      const tx = new VersionedTransaction(msg);
      tx.sign([from]);
      return tx;
    };
    await h.clock.advance(61_000);
    const stale = await rpc('sendTransaction', [Buffer.from(build(a.blockhash, 1000).serialize()).toString('base64'), { encoding: 'base64' }]);
    expect(stale.error.message).toMatch(/Blockhash not found/);
  });

  it('lands a signed transfer once, however often it is sent, and reports its status', async () => {
    h = await startSim();
    const from = wallet('rpc-a');
    const to = wallet('rpc-b');
    h.sim.control.fund(from.publicKey.toBase58(), 1_000_000_000n);
    // Through web3.js's own Connection: the client code the daemon uses talks to the simulator unchanged.
    const connection = new Connection(`${h.url}/rpc`, 'confirmed');
    const { blockhash } = await connection.getLatestBlockhash();
    const msg = new TransactionMessage({
      payerKey: from.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to.publicKey, lamports: 250_000_000 })],
    }).compileToV0Message();
    const tx = new VersionedTransaction(msg);
    tx.sign([from]);
    const sig = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const again = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    expect(again).toBe(sig);
    expect(await connection.getBalance(to.publicKey)).toBe(250_000_000);
    expect(await connection.getBalance(from.publicKey)).toBe(1_000_000_000 - 250_000_000 - 5_000);
    const status = await connection.getSignatureStatuses([sig, '1111111111111111111111111111111111111111111111111111111111111111']);
    expect(status.value[0]?.confirmationStatus).toBe('confirmed');
    expect(status.value[1]).toBeNull();
    await h.clock.advance(32 * 400);
    expect((await connection.getSignatureStatuses([sig])).value[0]?.confirmationStatus).toBe('finalized');
    // A bad signature is refused before anything lands.
    const forged = new VersionedTransaction(msg);
    forged.signatures[0] = new Uint8Array(64).fill(9);
    const bad = await rpc('sendTransaction', [Buffer.from(forged.serialize()).toString('base64'), { encoding: 'base64' }]);
    expect(bad.error.code).toBe(-32003);
  });

  it('lists token accounts in jsonParsed form', async () => {
    h = await startSim();
    const owner = wallet('rpc-tokens');
    h.sim.control.fund(owner.publicKey.toBase58(), 12_345_678n, USDC);
    const connection = new Connection(`${h.url}/rpc`);
    const accounts = await connection.getParsedTokenAccountsByOwner(owner.publicKey, { mint: new (await import('@solana/web3.js')).PublicKey(USDC) });
    expect(accounts.value).toHaveLength(1);
    const info = (accounts.value[0]?.account.data as { parsed: { info: { tokenAmount: { amount: string; uiAmountString: string } } } }).parsed.info;
    expect(info.tokenAmount).toMatchObject({ amount: '12345678', uiAmountString: '12.345678' });
    expect((await rpc('getBalance', ['bad'])).error.code).toBe(-32602);
    expect((await rpc('nope')).error.code).toBe(-32601);
    // SOL is not a token account: the owner holds USDC only, and a SOL mint filter finds nothing.
    const sol = await connection.getParsedTokenAccountsByOwner(owner.publicKey, { mint: new (await import('@solana/web3.js')).PublicKey(SOL) });
    expect(sol.value).toEqual([]);
    expect(await connection.getBalance(owner.publicKey)).toBe(0);
  });
});
