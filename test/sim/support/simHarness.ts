import { Keypair, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { ManualClock } from '../../../src/clock.js';
import { trigger } from '../../../src/jupiter/schemas/index.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../../src/sim/simulator.js';

export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
export const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // Tests read answers loosely and check them against schemas.
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface Harness {
  clock: ManualClock;
  sim: Simulator;
  url: string;
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string>; key?: string | null; jwt?: string }): Promise<Reply>;
  close(): Promise<void>;
}

/** A simulator on a ManualClock, listening on an ephemeral loopback port. Keyed calls by default (quota 600/min). */
export async function startSim(options: Partial<SimulatorOptions> = {}): Promise<Harness> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const sim = createSimulator({ clock, seed: 'test', ...options });
  const server = await sim.listen();
  return {
    clock,
    sim,
    url: server.url,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key !== null) headers['x-api-key'] = opts.key ?? 'test-key';
      if (opts.jwt) headers['authorization'] = `Bearer ${opts.jwt}`;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers,
        ...(opts.body === undefined ? {} : { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) }),
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: res.status, headers: res.headers, text, body };
    },
    close: () => server.close(),
  };
}

/** Signs a base64 transaction with `signers` (partial signing, as Jupiter's docs do). */
export function signTx(base64: string, ...signers: Keypair[]): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  tx.sign(signers);
  return Buffer.from(tx.serialize()).toString('base64');
}

export function signMessage(text: string, kp: Keypair): string {
  return bs58.encode(nacl.sign.detached(new TextEncoder().encode(text), kp.secretKey));
}

/** A deterministic keypair per label, so test wallets are stable across runs. */
export function wallet(label: string): Keypair {
  const seed = new Uint8Array(32);
  new TextEncoder().encodeInto(label.padEnd(32, '.'), seed);
  return Keypair.fromSeed(seed);
}

/** Logs a wallet in through the real challenge flow and returns its JWT. */
export async function login(h: Harness, kp: Keypair): Promise<string> {
  const challenge = await h.call('POST', '/trigger/v2/auth/challenge', { body: { walletPubkey: kp.publicKey.toBase58(), type: 'message' } });
  const parsed = trigger.ChallengeResponse.parse(challenge.body);
  const text = parsed.type === 'message' ? parsed.challenge : '';
  const verify = await h.call('POST', '/trigger/v2/auth/verify', {
    body: { type: 'message', walletPubkey: kp.publicKey.toBase58(), signature: signMessage(text, kp) },
  });
  return trigger.VerifyResponse.parse(verify.body).token;
}

/** Checks that `value` has every key in `keys` (the OpenAPI `required` list of the answer). */
export function missingKeys(value: unknown, keys: readonly string[]): string[] {
  if (typeof value !== 'object' || value === null) return [...keys];
  return keys.filter((k) => !(k in value));
}
