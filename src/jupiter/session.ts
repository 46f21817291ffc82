/**
 * The Trigger V2 login session. The JWT lives 24 h and there is no refresh call, so an
 * unattended daemon logs in again before it lapses:
 * - the token is held in memory only, registered with the redactor the moment it arrives, and never
 *   logged, stored or put in an error;
 * - it is refreshed at `exp − refreshMarginMs` (the JWT's `exp` when it has one, otherwise the time the
 *   login started plus 24 h), lazily on the first call past that point;
 * - logins are single-flight: any number of concurrent callers share one challenge/verify;
 * - a 401 from an authenticated route drops that token and the call is retried once after one login
 *   (a 401 means the server did not act on the call, so the retry cannot double it);
 * - a failing login backs off (capped exponential, jittered) and shows in `health()`; while the old
 *   token is still valid, callers keep using it.
 * The session holds no key: it signs through the guarded signer, which signs a message challenge only
 * when it is Jupiter's challenge text and a transaction challenge only when the guard finds it
 * memo-only (it is never sent).
 */
import type { CodeOf } from '../errorCatalogue.js';
import { VersionedTransaction } from '@solana/web3.js';
import type { Clock } from '../clock.js';
import { JupbotError } from '../errors.js';
import type { Logger } from '../ops/log.js';
import type { Redactor } from '../ops/redact.js';
import type { Random } from '../random.js';
import type { LoginChallengeExpectation } from '../solana/expectation.js';
import { isAreaRefusal } from './apiAreas.js';
import { ApiError, TriggerApiError } from './errors.js';
import { jwtExpiryMs } from './jwtExpiry.js';
import { type AuthedJupiterClient, type JupiterClient, withBearer } from './transport.js';
import { requestChallenge, verifyChallenge } from './trigger.js';

/** Trigger V2 JWT lifetime when the token carries no `exp`. */
export const JWT_LIFETIME_MS = 24 * 3_600_000;

/**
 * What the login needs of the guarded signer (src/solana/guardedSigner.ts): the wallet's address, the
 * message challenge signed as a base58 signature, a transaction challenge signed in place. Each
 * refuses, and records the refusal, when the challenge is not what Jupiter documents.
 */
export interface LoginSigner {
  readonly address: string;
  signLoginMessage(text: string): Promise<string>;
  sign(tx: VersionedTransaction, expectation: LoginChallengeExpectation): Promise<unknown>;
}

export interface TriggerSessionOptions {
  readonly client: JupiterClient;
  readonly signer: LoginSigner;
  readonly clock: Clock;
  /** Jitter for the login backoff. */
  readonly random: Random;
  /** @default 'message' */
  readonly loginType?: 'message' | 'transaction' | undefined;
  /** Log in again this long before the token expires (config `session.refresh_margin`). */
  readonly refreshMarginMs: number;
  readonly log?: Logger | undefined;
  /** Every JWT is registered here (and with the client's redactor). @default client.redactor */
  readonly redactor?: Redactor | undefined;
  /** First backoff after a failed login. @default 5000 */
  readonly backoffBaseMs?: number | undefined;
  /** Longest backoff. @default 300000 */
  readonly backoffMaxMs?: number | undefined;
}

export interface SessionHealth {
  /** A token is held and not past its expiry. */
  readonly loggedIn: boolean;
  readonly expiresAt: number | null;
  readonly refreshAt: number | null;
  readonly lastError: { readonly code: string; readonly message: string; readonly at: number } | null;
  readonly consecutiveFailures: number;
  /** While backing off: when the next login may be tried. */
  readonly nextAttemptAt: number | null;
  readonly logins: number;
}

export interface TriggerSession {
  /** A valid JWT, logging in first when needed. Rejects with a {@link SessionError} when that fails. */
  token(): Promise<string>;
  /** The client for authenticated Trigger routes: bearer from this session, one re-login and retry on a 401. */
  readonly authed: AuthedJupiterClient;
  health(): SessionHealth;
  /** Forgets the current token (all of them, or only `token` if it is still the current one). */
  invalidate(token?: string): void;
}

export type SessionErrorCode = CodeOf<'session'>;

/** The login failed. The message says why and what to check; it never holds the token or the key. */
export class SessionError extends JupbotError {
  override name = 'SessionError';
  declare readonly code: SessionErrorCode;
  constructor(code: SessionErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(code, message, options);
  }
}

interface Current {
  readonly token: string;
  readonly expiresAt: number;
  readonly refreshAt: number;
}

export function createTriggerSession(options: TriggerSessionOptions): TriggerSession {
  const { client, signer, clock, random, log } = options;
  const loginType = options.loginType ?? 'message';
  const redactors = [...new Set([client.redactor, ...(options.redactor ? [options.redactor] : [])])];
  const baseMs = options.backoffBaseMs ?? 5_000;
  const maxMs = options.backoffMaxMs ?? 300_000;
  let current: Current | null = null;
  let inFlight: Promise<Current> | null = null;
  let failures = 0;
  let nextAttemptAt: number | null = null;
  let lastError: SessionHealth['lastError'] = null;
  let logins = 0;

  const valid = (c: Current | null): c is Current => c !== null && clock.now() < c.expiresAt;

  async function login(): Promise<Current> {
    const startedAt = clock.now();
    const challenge = await requestChallenge(client, { walletPubkey: signer.address, type: loginType });
    let answer: Awaited<ReturnType<typeof verifyChallenge>>;
    if (challenge.type === 'message') {
      if (loginType !== 'message') throw new SessionError('TRIGGER_LOGIN_FAILED', 'Trigger login: asked for a transaction challenge, got a message');
      const signature = await signer.signLoginMessage(challenge.challenge);
      answer = await verifyChallenge(client, { type: 'message', walletPubkey: signer.address, signature });
    } else {
      if (loginType !== 'transaction') throw new SessionError('TRIGGER_LOGIN_FAILED', 'Trigger login: asked for a message challenge, got a transaction');
      const tx = VersionedTransaction.deserialize(Buffer.from(challenge.transaction, 'base64'));
      await signer.sign(tx, { kind: 'login-challenge' });
      answer = await verifyChallenge(client, {
        type: 'transaction',
        walletPubkey: signer.address,
        signedTransaction: Buffer.from(tx.serialize()).toString('base64'),
      });
    }
    const token = answer.token;
    for (const r of redactors) if (token.length >= 8) r.add(token);
    const exp = jwtExpiryMs(token);
    // An `exp` at or before the login would mean clocks disagree; the documented 24 h is then the better guess.
    const expiresAt = exp !== null && exp > startedAt ? exp : startedAt + JWT_LIFETIME_MS;
    const lifetime = expiresAt - startedAt;
    const refreshAt = Math.max(expiresAt - options.refreshMarginMs, startedAt + Math.min(60_000, lifetime / 2));
    return { token, expiresAt, refreshAt };
  }

  function describeFailure(error: unknown): SessionError {
    if (error instanceof SessionError) return error;
    if (error instanceof TriggerApiError && error.code === 'TRIGGER_CHALLENGE_REJECTED') {
      const said = error.triggerError === null ? '' : ` "${error.triggerError}"`;
      return new SessionError(
        'TRIGGER_LOGIN_REJECTED',
        `Trigger login rejected: /auth/verify answered ${error.status}${said}. Jupiter answers a wrong signature with 401 per its spec and with 400 "Challenge not found" in practice; ` +
          `check that the configured key is the wallet ${signer.address} and that the clock is right (challenges live 5 minutes)`,
        { cause: error, details: { status: error.status } },
      );
    }
    const code = error instanceof JupbotError ? error.code : 'UNKNOWN';
    const message = error instanceof Error ? error.message : String(error);
    return new SessionError('TRIGGER_LOGIN_FAILED', `Trigger login failed (${code}): ${message}`, { cause: error, details: { cause: code } });
  }

  function startLogin(): Promise<Current> {
    if (inFlight) return inFlight;
    inFlight = login()
      .then((fresh) => {
        current = fresh;
        failures = 0;
        nextAttemptAt = null;
        logins += 1;
        log?.info(
          { loginType, expiresAt: fresh.expiresAt, refreshAt: fresh.refreshAt },
          `Trigger API login succeeded: valid until ${new Date(fresh.expiresAt).toISOString()}, renewed from ${new Date(fresh.refreshAt).toISOString()}`,
        );
        return fresh;
      })
      .catch((error: unknown) => {
        const failure = describeFailure(error);
        failures += 1;
        const delay = Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 20)) * (0.5 + random.next() / 2);
        nextAttemptAt = clock.now() + Math.round(delay);
        lastError = { code: failure.code, message: failure.message, at: clock.now() };
        // A key without Trigger (403 from the gateway) turns the area off, which is said once where areas are watched.
        const refused = error instanceof ApiError && isAreaRefusal(error.status, error.code);
        log?.[refused ? 'info' : 'warn'](
          { code: failure.code, consecutiveFailures: failures, nextAttemptAt },
          `trigger login failed (${failure.code}): ${failure.message}; next attempt at ${new Date(nextAttemptAt).toISOString()}, vault orders wait for it`,
        );
        throw failure;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  async function token(): Promise<string> {
    const now = clock.now();
    if (current !== null && now < current.refreshAt) return current.token;
    if (nextAttemptAt !== null && now < nextAttemptAt && !inFlight) {
      if (valid(current)) return current.token;
      throw new SessionError(
        'TRIGGER_LOGIN_BACKOFF',
        `Trigger login is backing off after ${failures} failure(s) until ${nextAttemptAt}; last: ${lastError?.message ?? 'unknown'}`,
        {
          details: { consecutiveFailures: failures, nextAttemptAt },
        },
      );
    }
    try {
      return (await startLogin()).token;
    } catch (error) {
      // A failed early refresh is not an outage: the old token still works until it expires.
      if (valid(current)) return current.token;
      throw error;
    }
  }

  function invalidate(which?: string): void {
    if (which === undefined || current?.token === which) current = null;
  }

  const base = withBearer(client, token);
  const authed: AuthedJupiterClient = {
    ...base,
    async request(spec) {
      if (!spec.bearer) return await client.request(spec);
      let used: string | undefined;
      const capture = async (): Promise<string> => (used = await token());
      try {
        return await client.request({ ...spec, bearer: capture });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 401 || error.code !== 'TRIGGER_UNAUTHORIZED') throw error;
        log?.info({ route: spec.route }, 'trigger token refused (401): logging in again and retrying once');
        invalidate(used);
        return await client.request({ ...spec, bearer: token });
      }
    },
  };

  return {
    token,
    authed,
    invalidate,
    health: () => ({
      loggedIn: valid(current),
      expiresAt: current?.expiresAt ?? null,
      refreshAt: current?.refreshAt ?? null,
      lastError,
      consecutiveFailures: failures,
      nextAttemptAt,
      logins,
    }),
  };
}
