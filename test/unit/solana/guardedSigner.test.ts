import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/ops/log.js';
import { Redactor } from '../../../src/ops/redact.js';
import { createGuardedSigner, IdenticalBytesError } from '../../../src/solana/guardedSigner.js';
import { GuardRefusal } from '../../../src/solana/guardRefusal.js';
import { CHALLENGE_PREFIX } from '../../../src/solana/loginChallengeText.js';
import { fromSecretText } from '../../../src/solana/wallet.js';
import { AuditLog } from '../../../src/store/audit.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { freshStore } from '../store/helpers.js';
import { SECRET_BASE58, SECRET_JSON, SecretCapture } from './secretCapture.js';
import type { EffectsRpc } from '../../../src/solana/effects.js';
import type { AccountState } from '../../../src/solana/rpc.js';
import { ProgramId } from '../../../src/sim/programIds.js';
import { ata, depositIxs, loginMemo, STRANGER, system, tx, USDC, vault, W, wallet as walletAddress } from './txFactory.js';

/** A node whose simulation shows `spent` USDC leaving our account and the fee leaving the wallet. */
function node(spent: bigint): EffectsRpc & { simulations: number } {
  const usdc = (amount: bigint): AccountState => {
    const d = Buffer.alloc(165);
    ProgramIdMint.copy(d, 0);
    W.toBuffer().copy(d, 32);
    d.writeBigUInt64LE(amount, 64);
    return { lamports: 2_039_280n, owner: ProgramId.token.toBase58(), data: d, executable: false };
  };
  const sol = (lamports: bigint): AccountState => ({ lamports, owner: ProgramId.system.toBase58(), data: Buffer.alloc(0), executable: false });
  const usdcAta = ata(W, USDC).toBase58();
  const state =
    (after: boolean) =>
    (address: string): AccountState | null =>
      address === walletAddress
        ? sol(after ? 1_000_000_000n - 100_000n : 1_000_000_000n)
        : address === usdcAta
          ? usdc(after ? 60_000_000n - spent : 60_000_000n)
          : null;
  const rpc = {
    simulations: 0,
    getMultipleAccounts: (addresses: readonly string[]) => Promise.resolve({ slot: 1, accounts: addresses.map(state(false)) }),
    simulateTransaction: (_b: string, o: { accounts: readonly string[] }) => {
      rpc.simulations += 1;
      return Promise.resolve({ err: null, logs: [], accounts: o.accounts.map(state(true)), unitsConsumed: 1, slot: 1 });
    },
  };
  return rpc;
}
const ProgramIdMint = new PublicKey(USDC).toBuffer();

const capture = new SecretCapture();
afterAll(() => {
  expect(capture.size).toBeGreaterThan(500);
  capture.assertClean();
});

function setup(effects: EffectsRpc | null = node(50_000_000n)) {
  const { db, clock } = freshStore();
  const redactor = new Redactor();
  const out = new MemoryStream();
  const log = createLogger({ destination: out, redactor, clock });
  const wallet = fromSecretText(SECRET_JSON, { redactor });
  const audit = new AuditLog(db, clock);
  const signer = createGuardedSigner({ wallet, audit, log, effects: effects ?? undefined });
  const done = (): void => {
    capture.text(out.text);
    capture.database(db);
  };
  return { db, signer, out, done, wallet, log, audit };
}

describe('the guarded signer', () => {
  it('signs what the guard accepts', async () => {
    const { signer, done, log } = setup();
    const deposit = tx(W, depositIxs(50_000_000n));
    const { summary } = await signer.sign(deposit, { kind: 'vault-deposit', mint: USDC, amount: 50_000_000n, vault }, { intentId: 'i-1' });
    log.info({ summary }, 'signed');
    expect(nacl.sign.detached.verify(deposit.message.serialize(), deposit.signatures[0] as Uint8Array, W.toBytes())).toBe(true);
    done();
  });

  it('signs nothing it refuses, and records the refusal with its reason', async () => {
    const { db, signer, out, done } = setup();
    const evil = tx(W, [loginMemo(), system.transfer(W, STRANGER, 5_000_000_000n)]);
    const error = await signer.sign(evil, { kind: 'login-challenge' }, { strategy: 'login', intentId: 'i-2' }).then(
      () => null,
      (e: unknown) => e,
    );
    capture.error(error);
    expect(error).toBeInstanceOf(GuardRefusal);
    expect((error as GuardRefusal).reason).toBe('MEMO_ONLY_VIOLATION');
    expect(Array.from(evil.signatures[0] as Uint8Array).every((b) => b === 0)).toBe(true);
    const rows = db.prepare("SELECT kind, strategy, intent_id, data FROM actions WHERE kind = 'guard.refused'").all() as {
      kind: string;
      strategy: string;
      intent_id: string;
      data: string;
    }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ strategy: 'login', intent_id: 'i-2' });
    expect(JSON.parse(rows[0]?.data ?? '{}')).toMatchObject({ reason: 'MEMO_ONLY_VIOLATION', expectation: { kind: 'login-challenge' } });
    expect(out.lines().some((l) => l['reason'] === 'MEMO_ONLY_VIOLATION')).toBe(true);
    done();
  });

  it('signs nothing whose effects it cannot prove, or whose simulation shows more leaving', async () => {
    const offline = setup(null);
    const deposit = tx(W, depositIxs(50_000_000n));
    await expect(offline.signer.sign(deposit, { kind: 'vault-deposit', mint: USDC, amount: 50_000_000n, vault })).rejects.toMatchObject({
      reason: 'SIMULATION_UNAVAILABLE',
    });
    const greedy = setup(node(50_000_001n));
    await expect(greedy.signer.sign(deposit, { kind: 'vault-deposit', mint: USDC, amount: 50_000_000n, vault })).rejects.toMatchObject({
      reason: 'EFFECT_OUTFLOW_EXCEEDS_INTENT',
    });
    expect(Array.from(deposit.signatures[0] as Uint8Array).every((b) => b === 0)).toBe(true);
    // A login challenge is never sent: it needs no simulation.
    await expect(offline.signer.sign(tx(W, [loginMemo()]), { kind: 'login-challenge' })).resolves.toMatchObject({ summary: { effects: null } });
    offline.done();
    greedy.done();
  });

  it('records an undecodable transaction as malformed', async () => {
    const { signer, done } = setup();
    const broken = tx(W, [loginMemo()]);
    broken.message.compiledInstructions[0] = { programIdIndex: 99, accountKeyIndexes: [], data: new Uint8Array() };
    await expect(signer.check(broken, { kind: 'login-challenge' })).rejects.toMatchObject({ reason: 'MALFORMED_TRANSACTION' });
    done();
  });

  it('the secret grep catches a leak (self-test)', () => {
    for (const leak of [SECRET_BASE58, SECRET_JSON]) {
      const c = new SecretCapture();
      c.text(`oops ${leak}`);
      expect(() => c.assertClean()).toThrow();
    }
  });
});

describe('signing base64 transactions', () => {
  it('signs exactly the checked bytes and refuses bytes that do not decode', async () => {
    const { signer, done } = setup();
    const base64 = Buffer.from(tx(W, depositIxs(50_000_000n)).serialize()).toString('base64');
    const { signed, signature } = await signer.signBase64(base64, { kind: 'vault-deposit', mint: USDC, amount: 50_000_000n, vault });
    const back = VersionedTransaction.deserialize(Buffer.from(signed, 'base64'));
    expect(Buffer.from(back.message.serialize()).equals(Buffer.from(VersionedTransaction.deserialize(Buffer.from(base64, 'base64')).message.serialize()))).toBe(
      true,
    );
    expect(bs58.encode(back.signatures[0] as Uint8Array)).toBe(signature);
    await expect(signer.signBase64('AAAA', { kind: 'login-challenge' })).rejects.toMatchObject({ reason: 'MALFORMED_TRANSACTION' });
    done();
  });

  it('never signs one message twice: equal intents built in one slot wait for a newer blockhash, with no refusal recorded', async () => {
    const { signer, db, done } = setup();
    const base64 = Buffer.from(tx(W, depositIxs(50_000_000n)).serialize()).toString('base64');
    const deposit = { kind: 'vault-deposit', mint: USDC, amount: 50_000_000n, vault } as const;
    await signer.signBase64(base64, deposit, { intentId: 'rung-1' });
    const second = await signer.signBase64(base64, deposit, { intentId: 'rung-2' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(second).toBeInstanceOf(IdenticalBytesError);
    expect((second as IdenticalBytesError).code).toBe('IDENTICAL_BYTES');
    expect(db.prepare("SELECT count(*) AS n FROM actions WHERE kind = 'guard.refused'").get()).toEqual({ n: 0 });
    done();
  });
});

describe('the login message', () => {
  /** The signer of `setup`, over a wallet that counts what it is asked to sign. */
  function counting() {
    const base = setup();
    const messages: string[] = [];
    const wallet = {
      address: base.wallet.address,
      signMessage: (m: Uint8Array) => {
        messages.push(new TextDecoder().decode(m));
        return base.wallet.signMessage(m);
      },
      signTransaction: (t: VersionedTransaction) => base.wallet.signTransaction(t),
    };
    return { ...base, messages, signer: createGuardedSigner({ wallet, audit: base.audit, log: base.log }) };
  }

  it("signs Jupiter's challenge text: a base58 ed25519 signature of its UTF-8 bytes", async () => {
    const { signer, messages, db, done } = counting();
    const text = `${CHALLENGE_PREFIX}5f3a9c`;
    const signature = await signer.signLoginMessage(text);
    expect(nacl.sign.detached.verify(new TextEncoder().encode(text), bs58.decode(signature), W.toBytes())).toBe(true);
    expect(messages).toEqual([text]);
    expect(db.prepare("SELECT count(*) AS n FROM actions WHERE kind = 'guard.refused'").get()).toEqual({ n: 0 });
    done();
  });

  it.each([
    ['any other text', 'please sign these bytes'],
    ['the prefix without a nonce', CHALLENGE_PREFIX],
    ['the prefix inside other text', `I agree to pay. ${CHALLENGE_PREFIX}5f3a9c`],
    ['the prefix in another case', `${CHALLENGE_PREFIX.toLowerCase()}5f3a9c`],
    ['an empty text', ''],
  ])('refuses %s, signs nothing, and records the refusal', async (_name, text) => {
    const { signer, messages, db, out, done } = counting();
    const error = await signer.signLoginMessage(text).then(
      () => null,
      (e: unknown) => e,
    );
    capture.error(error);
    expect(error).toBeInstanceOf(GuardRefusal);
    expect((error as GuardRefusal).reason).toBe('LOGIN_TEXT_UNEXPECTED');
    expect(messages).toEqual([]);
    const rows = db.prepare("SELECT strategy, intent_id, data FROM actions WHERE kind = 'guard.refused'").all() as { data: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ strategy: null, intent_id: null });
    expect(JSON.parse(rows[0]?.data ?? '{}')).toEqual({
      reason: 'LOGIN_TEXT_UNEXPECTED',
      expectation: { kind: 'login-message' },
      details: { reason: 'LOGIN_TEXT_UNEXPECTED', start: text.slice(0, 60), length: text.length },
    });
    const line = out.lines().find((l) => l['reason'] === 'LOGIN_TEXT_UNEXPECTED');
    expect(line).toMatchObject({ level: 'warn', intent: 'login-message' });
    expect(String(line?.['msg'])).toContain('refused to sign the Trigger login message');
    done();
  });
});
