import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../../../src/ops/redact.js';
import { generateKeypairFile, PAPER_WALLET_FILE, paperWallet } from '../../../src/solana/paperWallet.js';
import { fromKeypairFile, fromSecretText, WalletError } from '../../../src/solana/wallet.js';
import { loginMemo, tx, VAULT, W, withdrawalIxs, keypair } from './txFactory.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-wallet-'));
  dirs.push(dir);
  return dir;
}

const KP = keypair('guard-wallet');
const SECRET_B58 = bs58.encode(KP.secretKey);
const SECRET_JSON = JSON.stringify(Array.from(KP.secretKey));

function keyFile(mode: number, text = SECRET_JSON): string {
  const file = join(tempDir(), 'id.json');
  writeFileSync(file, text, { mode });
  chmodSync(file, mode);
  return file;
}

async function failure(promise: Promise<unknown>): Promise<WalletError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalletError);
  return error as WalletError;
}

describe('key files', () => {
  it('loads a 0600 Solana CLI key file', async () => {
    const wallet = await fromKeypairFile(keyFile(0o600));
    expect(wallet.address).toBe(KP.publicKey.toBase58());
  });

  it.each([0o644, 0o640, 0o604, 0o660])('refuses mode %o, naming the fix and the override', async (mode) => {
    const file = keyFile(mode);
    const error = await failure(fromKeypairFile(file));
    expect(error.code).toBe('WALLET_FILE_INSECURE');
    expect(error.message).toContain(`chmod 600 ${file}`);
    expect(error.message).toContain('wallet.allow_insecure_permissions: true');
    expect(error.message).toContain(mode.toString(8));
    expect(error.message).not.toContain(SECRET_JSON.slice(1, 20));
  });

  it('accepts an insecure file only when told to', async () => {
    const wallet = await fromKeypairFile(keyFile(0o644), { allowInsecurePermissions: true });
    expect(wallet.address).toBe(KP.publicKey.toBase58());
  });

  it('refuses content that is not a keypair, without echoing it', async () => {
    const base58InFile = await failure(fromKeypairFile(keyFile(0o600, SECRET_B58)));
    expect(base58InFile.code).toBe('WALLET_KEY_INVALID');
    expect(base58InFile.message).not.toContain(SECRET_B58);
    const tampered = Array.from(KP.secretKey);
    tampered[40] = (tampered[40] ?? 0) ^ 1;
    const mismatch = await failure(fromKeypairFile(keyFile(0o600, JSON.stringify(tampered))));
    expect(mismatch.code).toBe('WALLET_KEY_INVALID');
    expect(mismatch.message).toContain('does not match');
    const missing = await failure(fromKeypairFile(join(tempDir(), 'nope.json')));
    expect(missing.code).toBe('WALLET_FILE_UNREADABLE');
  });
});

describe('JUPBOT_KEYPAIR text', () => {
  it('accepts base58 and the JSON array, and refuses anything else', () => {
    expect(fromSecretText(SECRET_B58).address).toBe(KP.publicKey.toBase58());
    expect(fromSecretText(` ${SECRET_JSON}\n`).address).toBe(KP.publicKey.toBase58());
    const bad = (() => {
      try {
        fromSecretText(SECRET_B58.slice(0, -3));
        return null;
      } catch (e) {
        return e as WalletError;
      }
    })();
    expect(bad?.code).toBe('WALLET_KEY_INVALID');
    expect(bad?.message).not.toContain(SECRET_B58.slice(0, -3));
  });
});

describe('the secret stays inside', () => {
  it('shows only the public key in every text form', () => {
    const wallet = fromSecretText(SECRET_B58);
    const forms = [
      String(wallet),
      `${wallet.toString()}`,
      JSON.stringify(wallet),
      inspect(wallet),
      inspect({ wallet }, { depth: 5, showHidden: true }),
      JSON.stringify(Object.entries(wallet)),
    ];
    for (const text of forms) {
      expect(text).not.toContain(SECRET_B58);
      expect(text).not.toMatch(/\[\s*\d+(\s*,\s*\d+){63}\s*\]/);
      expect(text).not.toContain(String(KP.secretKey.slice(0, 8)));
    }
    expect(JSON.parse(JSON.stringify(wallet))).toEqual({ publicKey: KP.publicKey.toBase58() });
    expect(Object.keys(wallet)).not.toContain('secretKey');
  });

  it('registers both text forms of the secret with the redactor', () => {
    const redactor = new Redactor();
    fromSecretText(SECRET_B58, { redactor });
    expect(redactor.scrubText(`key=${SECRET_B58}`)).toBe('key=[redacted]');
    expect(redactor.scrubText(SECRET_JSON)).toBe('[redacted]');
  });
});

describe('signing', () => {
  it('signs messages that verify against the public key', () => {
    const wallet = fromSecretText(SECRET_JSON);
    const message = new TextEncoder().encode('hello');
    expect(nacl.sign.detached.verify(message, wallet.signMessage(message), KP.publicKey.toBytes())).toBe(true);
  });

  it('partially signs a transaction it is a signer of, and refuses one it is not', () => {
    const wallet = fromSecretText(SECRET_JSON);
    const withdrawal = tx(W, withdrawalIxs(5n));
    wallet.signTransaction(withdrawal);
    const [ours, vaults] = withdrawal.signatures;
    expect(nacl.sign.detached.verify(withdrawal.message.serialize(), ours as Uint8Array, W.toBytes())).toBe(true);
    expect(Array.from(vaults as Uint8Array).every((b) => b === 0)).toBe(true);
    expect(() => wallet.signTransaction(tx(VAULT, [loginMemo(VAULT)]))).toThrow(/not list .* as a required signer/);
  });
});

describe('paper wallets', () => {
  it('are generated into the data dir with mode 0600 and reused', async () => {
    const dir = join(tempDir(), 'data');
    const first = await paperWallet(dir);
    const file = join(dir, PAPER_WALLET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await paperWallet(dir)).address).toBe(first.address);
    expect(Keypair.fromSecretKey(Uint8Array.from(JSON.parse((await import('node:fs')).readFileSync(file, 'utf8')) as number[])).publicKey.toBase58()).toBe(
      first.address,
    );
  });

  it('never overwrite an existing key file', async () => {
    const file = keyFile(0o600);
    const error = await failure(generateKeypairFile(file));
    expect(error.code).toBe('WALLET_FILE_EXISTS');
    expect((await fromKeypairFile(file)).address).toBe(KP.publicKey.toBase58());
  });
});
