import { createHash } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { decodeTransaction, hasValidSignature } from '../chain.js';
import { ok, parseJsonBody, type RouteRequest, type RouteResult, type Router } from '../http.js';
import { buildV0, memo } from '../txBuilder.js';
import { isObject, isPubkey } from '../validate.js';
import type { SimWorld } from '../world.js';
import { JwtIssuer } from './jwt.js';
import { triggerError, unauthorized, validationFailed } from './triggerErrors.js';

export const CHALLENGE_PREFIX = 'Sign this message to authenticate with Jupiter Trigger Order API: ';
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const JWT_TTL_MS = 24 * 3_600_000;

interface Challenge {
  readonly type: 'message' | 'transaction';
  readonly text: string;
  readonly messageKey: string | undefined;
  readonly expiresAt: number;
}

/** `/auth/challenge` and `/auth/verify`, and the bearer check every other Trigger route uses. */
export class TriggerAuth {
  /** The latest challenge per wallet: a new one replaces the old, a verified one is spent. */
  readonly #challenges = new Map<string, Challenge>();
  readonly #jwt: JwtIssuer;

  constructor(private readonly world: SimWorld) {
    this.#jwt = new JwtIssuer(createHash('sha256').update(`${world.seed}:trigger-jwt`).digest());
  }

  register(router: Router): void {
    router.add('POST', '/trigger/v2/auth/challenge', (req) => this.challenge(req));
    router.add('POST', '/trigger/v2/auth/verify', (req) => this.verify(req));
  }

  /** The wallet behind `Authorization: Bearer <jwt>`; 401 when missing, forged or expired. */
  wallet(req: RouteRequest): string {
    const header = req.headers['authorization'];
    const match = header === undefined ? null : /^Bearer (\S+)$/.exec(header);
    if (!match) throw unauthorized();
    const wallet = this.#jwt.verify(match[1] as string, this.world.now());
    if (!wallet) throw unauthorized();
    return wallet;
  }

  /** Issues a token directly (control surface and tests that are not about login). */
  issueToken(wallet: string): string {
    return this.#jwt.issue(wallet, this.world.now(), JWT_TTL_MS);
  }

  challenge(req: RouteRequest): RouteResult {
    const body = parseJsonBody(req, (error) => ({ error }));
    const details: Record<string, string> = {};
    const walletPubkey = isObject(body) ? body['walletPubkey'] : undefined;
    const type = isObject(body) ? body['type'] : undefined;
    if (typeof walletPubkey !== 'string')
      details['walletPubkey'] = `Invalid input: expected string, received ${walletPubkey === undefined ? 'undefined' : typeof walletPubkey}`;
    else if (!isPubkey(walletPubkey)) details['walletPubkey'] = 'Invalid public key';
    if (type !== 'message' && type !== 'transaction') details['type'] = 'Invalid option: expected one of "message"|"transaction"';
    if (Object.keys(details).length > 0) throw validationFailed(details);
    const wallet = walletPubkey as string;
    const text = `${CHALLENGE_PREFIX}${this.world.ids.hex(16)}`;
    const expiresAt = this.world.now() + CHALLENGE_TTL_MS;
    if (type === 'message') {
      this.#challenges.set(wallet, { type, text, messageKey: undefined, expiresAt });
      return ok({ type: 'message', challenge: text });
    }
    // A memo-only transaction: it proves key ownership and must never be sent.
    const key = new PublicKey(wallet);
    const built = buildV0(key, this.world.chain.latestBlockhash().blockhash, [memo(text, key)]);
    this.#challenges.set(wallet, { type: 'transaction', text, messageKey: decodeTransaction(built.base64).messageKey, expiresAt });
    return ok({ type: 'transaction', transaction: built.base64 });
  }

  verify(req: RouteRequest): RouteResult {
    const body = parseJsonBody(req, (error) => ({ error }));
    if (!isObject(body)) throw validationFailed({ body: 'Invalid input: expected object' });
    const { type, walletPubkey } = body;
    if (type !== 'message' && type !== 'transaction') throw validationFailed({ type: 'Invalid option: expected one of "message"|"transaction"' });
    if (!isPubkey(walletPubkey)) throw validationFailed({ walletPubkey: 'Invalid public key' });
    const challenge = this.#challenges.get(walletPubkey);
    if (!challenge || challenge.type !== type) throw triggerError(400, 'Challenge not found');
    if (this.world.now() >= challenge.expiresAt) {
      this.#challenges.delete(walletPubkey);
      throw triggerError(400, 'Challenge expired');
    }
    if (type === 'message') {
      const signature = body['signature'];
      if (typeof signature !== 'string') throw validationFailed({ signature: 'Invalid input: expected string' });
      let sigBytes: Uint8Array;
      try {
        sigBytes = bs58.decode(signature);
      } catch {
        throw triggerError(401, 'Invalid signature');
      }
      const valid =
        sigBytes.length === 64 && nacl.sign.detached.verify(new TextEncoder().encode(challenge.text), sigBytes, new PublicKey(walletPubkey).toBytes());
      if (!valid) throw triggerError(401, 'Invalid signature');
    } else {
      const signed = body['signedTransaction'];
      if (typeof signed !== 'string') throw validationFailed({ signedTransaction: 'Invalid input: expected string' });
      let decoded;
      try {
        decoded = decodeTransaction(signed);
      } catch {
        throw triggerError(400, 'Invalid transaction format');
      }
      if (decoded.messageKey !== challenge.messageKey) throw triggerError(401, 'Invalid signature');
      if (!hasValidSignature(decoded, walletPubkey)) throw triggerError(401, 'Invalid signature');
    }
    this.#challenges.delete(walletPubkey);
    return ok({ token: this.#jwt.issue(walletPubkey, this.world.now(), JWT_TTL_MS) });
  }
}
