/**
 * An in-process Trigger V2 auth server for session tests, as a `fetch`: challenge (message or a
 * memo-only transaction), verify with real ed25519 checks, JWTs with or without `exp`, and one
 * authenticated route (`GET /trigger/v2/vault`) that answers 401 to a missing, expired or revoked
 * token. It counts what a test needs to assert: logins, verify attempts, 401s served.
 */
import { createHmac } from 'node:crypto';
import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import type { Clock } from '../../../src/clock.js';
import { buildV0, memo } from '../../../src/sim/txBuilder.js';

export interface FakeTriggerAuthOptions {
  clock: Clock;
  /** Token lifetime. @default 24 h */
  ttlMs?: number;
  /** Put `exp` in the JWT. @default true */
  withExp?: boolean;
  /** How verify answers a bad signature: 401 (spec) or 400 "Challenge not found" (observed live). @default 401 */
  badSignatureStatus?: 400 | 401;
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const json = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export class FakeTriggerAuth {
  logins = 0;
  verifyAttempts = 0;
  unauthorized = 0;
  vaultCalls = 0;
  /** Every token ever issued (for the secret-absence greps). */
  readonly issued: string[] = [];
  readonly revoked = new Set<string>();
  /** When set, /auth/challenge and /auth/verify answer 500 (an outage). */
  down = false;
  readonly #tokens = new Map<string, number>();
  #challenge: { text: string; wallet: string; type: string; message?: string } | null = null;
  #seq = 0;

  constructor(private readonly options: FakeTriggerAuthOptions) {}

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    await Promise.resolve();
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, string>) : {};
    const headers = new Headers(init?.headers);
    switch (`${init?.method ?? 'GET'} ${url.pathname}`) {
      case 'POST /trigger/v2/auth/challenge':
        return this.down ? json(500, { error: 'Internal error' }) : this.#issueChallenge(body);
      case 'POST /trigger/v2/auth/verify':
        return this.down ? json(500, { error: 'Internal error' }) : this.#verify(body);
      case 'GET /trigger/v2/vault': {
        this.vaultCalls += 1;
        const token = /^Bearer (\S+)$/.exec(headers.get('authorization') ?? '')?.[1];
        const expiresAt = token === undefined ? undefined : this.#tokens.get(token);
        if (token === undefined || expiresAt === undefined || this.revoked.has(token) || this.options.clock.now() >= expiresAt) {
          this.unauthorized += 1;
          return json(401, { error: 'Unauthorized' });
        }
        return json(200, { userPubkey: 'u', vaultPubkey: 'v', privyVaultId: 'p', privyUserId: null });
      }
      default:
        return json(404, { error: 'Not found' });
    }
  };

  #issueChallenge(body: Record<string, string>): Response {
    const wallet = body['walletPubkey'] as string;
    const text = `Sign this message to authenticate with Jupiter Trigger Order API: ${(this.#seq += 1).toString(16).padStart(8, '0')}`;
    if (body['type'] === 'message') {
      this.#challenge = { text, wallet, type: 'message' };
      return json(200, { type: 'message', challenge: text });
    }
    const key = new PublicKey(wallet);
    const built = buildV0(key, bs58.encode(Buffer.alloc(32, 7)), [memo(text, key)]);
    this.#challenge = { text, wallet, type: 'transaction', message: Buffer.from(built.messageBytes).toString('base64') };
    return json(200, { type: 'transaction', transaction: built.base64 });
  }

  #verify(body: Record<string, string>): Response {
    this.verifyAttempts += 1;
    const challenge = this.#challenge;
    if (!challenge || challenge.wallet !== body['walletPubkey'] || challenge.type !== body['type']) return json(400, { error: 'Challenge not found' });
    const pub = new PublicKey(challenge.wallet).toBytes();
    let valid: boolean;
    if (challenge.type === 'message') {
      const sig = bs58.decode(body['signature'] ?? '');
      valid = sig.length === 64 && nacl.sign.detached.verify(new TextEncoder().encode(challenge.text), sig, pub);
    } else {
      const tx = VersionedTransaction.deserialize(Buffer.from(body['signedTransaction'] ?? '', 'base64'));
      const message = tx.message.serialize();
      valid = Buffer.from(message).toString('base64') === challenge.message && nacl.sign.detached.verify(message, tx.signatures[0] as Uint8Array, pub);
    }
    if (!valid) {
      return (this.options.badSignatureStatus ?? 401) === 401 ? json(401, { error: 'Invalid signature' }) : json(400, { error: 'Challenge not found' });
    }
    this.#challenge = null;
    const now = this.options.clock.now();
    const iat = Math.floor(now / 1000);
    const ttl = this.options.ttlMs ?? 24 * 3_600_000;
    const claims = { sub: challenge.wallet, iat, ...(this.options.withExp === false ? {} : { exp: iat + Math.floor(ttl / 1000) }), n: this.#seq };
    const head = b64url({ alg: 'HS256', typ: 'JWT' });
    const payload = b64url(claims);
    const token = `${head}.${payload}.${createHmac('sha256', 'fake').update(`${head}.${payload}`).digest('base64url')}`;
    this.#tokens.set(token, now + ttl);
    this.issued.push(token);
    this.logins += 1;
    return json(200, { token });
  }
}
