/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { VersionedTransaction } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { trigger } from '../../src/jupiter/schemas/index.js';
import { login, signMessage, signTx, startSim, wallet, type Harness } from './support/simHarness.js';

let h: Harness;
afterEach(async () => h.close());

const MEMO = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

describe('trigger v2 auth', () => {
  it('issues the documented challenge and a 24 h HS256 JWT bound to the wallet', async () => {
    h = await startSim();
    const kp = wallet('auth');
    const challenge = trigger.ChallengeResponse.parse(
      (await h.call('POST', '/trigger/v2/auth/challenge', { body: { walletPubkey: kp.publicKey.toBase58(), type: 'message' } })).body,
    );
    expect(challenge.type).toBe('message');
    const text = challenge.type === 'message' ? challenge.challenge : '';
    expect(text.startsWith(trigger.CHALLENGE_PREFIX)).toBe(true);
    const verify = await h.call('POST', '/trigger/v2/auth/verify', {
      body: { type: 'message', walletPubkey: kp.publicKey.toBase58(), signature: signMessage(text, kp) },
    });
    expect(verify.status).toBe(200);
    const { token } = trigger.VerifyResponse.parse(verify.body);
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>);
    expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    expect(payload?.['sub']).toBe(kp.publicKey.toBase58());
    expect((payload?.['exp'] as number) - (payload?.['iat'] as number)).toBe(86_400);
    expect((await h.call('GET', '/trigger/v2/vault', { jwt: token })).status).toBe(404);
    await h.clock.advance(86_400_000);
    expect((await h.call('GET', '/trigger/v2/vault', { jwt: token })).body).toEqual({ error: 'Unauthorized' });
  });

  it('rejects a bad signature (401), an expired challenge (400), a spent challenge and a bad body', async () => {
    h = await startSim();
    const kp = wallet('auth2');
    const pub = kp.publicKey.toBase58();
    const c1 = (await h.call('POST', '/trigger/v2/auth/challenge', { body: { walletPubkey: pub, type: 'message' } })).body.challenge as string;
    const bad = await h.call('POST', '/trigger/v2/auth/verify', { body: { type: 'message', walletPubkey: pub, signature: signMessage(`${c1}x`, kp) } });
    expect(bad.status).toBe(401);
    trigger.TriggerErrorBody.parse(bad.body);
    await h.clock.advance(5 * 60_000);
    const expired = await h.call('POST', '/trigger/v2/auth/verify', { body: { type: 'message', walletPubkey: pub, signature: signMessage(c1, kp) } });
    expect(expired.status).toBe(400);
    const c2 = (await h.call('POST', '/trigger/v2/auth/challenge', { body: { walletPubkey: pub, type: 'message' } })).body.challenge as string;
    expect((await h.call('POST', '/trigger/v2/auth/verify', { body: { type: 'message', walletPubkey: pub, signature: signMessage(c2, kp) } })).status).toBe(
      200,
    );
    expect((await h.call('POST', '/trigger/v2/auth/verify', { body: { type: 'message', walletPubkey: pub, signature: signMessage(c2, kp) } })).status).toBe(
      400,
    );
    const invalid = await h.call('POST', '/trigger/v2/auth/challenge', { body: { type: 'email' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe('Request validation failed');
    expect(Object.keys(invalid.body.details)).toEqual(['walletPubkey', 'type']);
  });

  it('offers a memo-only transaction challenge and verifies its signature', async () => {
    h = await startSim();
    const kp = wallet('auth3');
    const pub = kp.publicKey.toBase58();
    const c = trigger.ChallengeResponse.parse((await h.call('POST', '/trigger/v2/auth/challenge', { body: { walletPubkey: pub, type: 'transaction' } })).body);
    const base64 = c.type === 'transaction' ? c.transaction : '';
    const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
    const programs = tx.message.compiledInstructions.map((ix) => tx.message.staticAccountKeys[ix.programIdIndex]?.toBase58());
    expect(programs).toEqual([MEMO]);
    expect(Buffer.from(tx.message.compiledInstructions[0]?.data ?? []).toString('utf8')).toMatch(
      /^Sign this message to authenticate with Jupiter Trigger Order API: /,
    );
    const other = wallet('imposter');
    const forged = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
    forged.signatures[0] = new Uint8Array(64).fill(7);
    expect(
      (
        await h.call('POST', '/trigger/v2/auth/verify', {
          body: { type: 'transaction', walletPubkey: pub, signedTransaction: Buffer.from(forged.serialize()).toString('base64') },
        })
      ).status,
    ).toBe(401);
    expect(other.publicKey.toBase58()).not.toBe(pub);
    const ok = await h.call('POST', '/trigger/v2/auth/verify', { body: { type: 'transaction', walletPubkey: pub, signedTransaction: signTx(base64, kp) } });
    expect(ok.status).toBe(200);
  });

  it('registers one vault per wallet (201, then 409) and refuses another wallet’s token', async () => {
    h = await startSim();
    const a = wallet('vaultA');
    const b = wallet('vaultB');
    const jwtA = await login(h, a);
    const reg = await h.call('GET', '/trigger/v2/vault/register', { jwt: jwtA });
    expect(reg.status).toBe(201);
    const vault = trigger.Vault.parse(reg.body);
    const again = await h.call('GET', '/trigger/v2/vault/register', { jwt: jwtA });
    expect(again.status).toBe(409);
    expect(again.body.details.vaultPubkey).toBe(vault.vaultPubkey);
    expect(trigger.Vault.parse((await h.call('GET', '/trigger/v2/vault', { jwt: jwtA })).body).vaultPubkey).toBe(vault.vaultPubkey);
    // A's token used for B's deposit: forbidden.
    const craft = await h.call('POST', '/trigger/v2/deposit/craft', {
      jwt: jwtA,
      body: {
        inputMint: 'So11111111111111111111111111111111111111112',
        outputMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        userAddress: b.publicKey.toBase58(),
        amount: '1000000000',
        orderType: 'price',
        orderSubType: 'single',
      },
    });
    expect(craft.status).toBe(403);
    expect((await h.call('GET', '/trigger/v2/vault', { jwt: 'a.b.c' })).status).toBe(401);
    expect((await h.call('GET', '/trigger/v2/vault')).status).toBe(401);
  });
});
