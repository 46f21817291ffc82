import { type PublicKey, SystemProgram, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { getVault, registerVault } from '../../../src/jupiter/trigger.js';
import { createJupiterClient } from '../../../src/jupiter/transport.js';
import { createTriggerSession, JWT_LIFETIME_MS, type LoginSigner, SessionError, type TriggerSessionOptions } from '../../../src/jupiter/session.js';
import { jwtExpiryMs } from '../../../src/jupiter/jwtExpiry.js';
import { createLogger } from '../../../src/ops/log.js';
import { Redactor } from '../../../src/ops/redact.js';
import { createRandom } from '../../../src/random.js';
import { fromSecretText } from '../../../src/solana/wallet.js';
import { buildV0, memo } from '../../../src/sim/txBuilder.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { createGuardedSigner } from '../../../src/solana/guardedSigner.js';
import { AuditLog } from '../../../src/store/audit.js';
import { freshStore } from '../store/helpers.js';
import { startSim } from '../../sim/support/simHarness.js';
import { SECRET_BASE58, SecretCapture } from '../solana/secretCapture.js';
import { keypair } from '../solana/txFactory.js';
import { FakeTriggerAuth, type FakeTriggerAuthOptions } from './fakeTriggerAuth.js';

const HOUR = 3_600_000;
const MARGIN = 30 * 60_000;
const capture = new SecretCapture();

afterAll(() => {
  expect(capture.size).toBeGreaterThan(1_000);
  capture.assertClean();
});

type Fetch = typeof globalThis.fetch;

function setup(
  fakeOptions: Partial<FakeTriggerAuthOptions> = {},
  sessionOptions: Partial<TriggerSessionOptions> = {},
  wrap: (fake: FakeTriggerAuth) => Fetch = (fake) => fake.fetch,
) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const fake = new FakeTriggerAuth({ clock, ...fakeOptions });
  const redactor = new Redactor();
  const out = new MemoryStream();
  const log = createLogger({ destination: out, redactor, clock, level: 'debug' });
  const client = createJupiterClient({
    baseUrl: 'https://api.jup.ag',
    apiKey: 'session-test-api-key',
    requestsPerSecond: 100,
    clock,
    random: createRandom('client'),
    fetch: wrap(fake),
    redactor,
    logger: log,
    timeoutMs: 0,
  });
  const wallet = fromSecretText(SECRET_BASE58, { redactor });
  const signer = createGuardedSigner({ wallet, log });
  const session = createTriggerSession({ client, signer, clock, random: createRandom('session'), refreshMarginMs: MARGIN, log, redactor, ...sessionOptions });
  const done = (): void => {
    capture.text(out.text);
    for (const token of fake.issued) capture.token(token);
  };
  return { clock, fake, session, client, wallet, out, done };
}

const urlOf = (input: string | URL | Request): string => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

const jsonResponse = (body: unknown): Response => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

async function rejection(promise: Promise<unknown>): Promise<SessionError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  capture.error(error);
  expect(error).toBeInstanceOf(SessionError);
  return error as SessionError;
}

describe('jwtExpiryMs', () => {
  it('reads exp in ms, and gives null for tokens without one', () => {
    const payload = (claims: object): string => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
    expect(jwtExpiryMs(payload({ exp: 1_700_000_000 }))).toBe(1_700_000_000_000);
    expect(jwtExpiryMs(payload({ sub: 'x' }))).toBeNull();
    expect(jwtExpiryMs(payload({ exp: 'soon' }))).toBeNull();
    expect(jwtExpiryMs('opaque-token')).toBeNull();
    expect(jwtExpiryMs('a.!!!.c')).toBeNull();
  });
});

describe('the Trigger session', () => {
  it('100 concurrent calls at expiry cause exactly one login', async () => {
    const { clock, fake, session, done } = setup();
    const first = await session.token();
    expect(fake.logins).toBe(1);
    await clock.advance(24 * HOUR);
    const tokens = await Promise.all(Array.from({ length: 100 }, () => session.token()));
    expect(fake.logins).toBe(2);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(first);
    // The same through the authed client: 100 concurrent reads, one login, no 401.
    await clock.advance(24 * HOUR);
    await Promise.all(Array.from({ length: 100 }, () => getVault(session.authed)));
    expect(fake.logins).toBe(3);
    expect(fake.unauthorized).toBe(0);
    done();
  });

  it.each([
    ['with exp in the JWT', {}],
    ['without exp (issue time + 24 h)', { withExp: false }],
    ['with a server that issues 2 h tokens (exp wins over the documented 24 h)', { ttlMs: 2 * HOUR }],
  ] as [string, Partial<FakeTriggerAuthOptions>][])('48 simulated hours of calls never let a 401 reach a caller, %s', async (_name, fakeOptions) => {
    const { clock, fake, session, done } = setup(fakeOptions);
    for (let t = 0; t < 48 * HOUR; t += 5 * 60_000) {
      await getVault(session.authed);
      await clock.advance(5 * 60_000);
    }
    expect(fake.unauthorized).toBe(0);
    expect(fake.vaultCalls).toBe(48 * 12);
    const ttl = fakeOptions.ttlMs ?? JWT_LIFETIME_MS;
    expect(fake.logins).toBe(Math.ceil((48 * HOUR) / (ttl - MARGIN)));
    expect(session.health()).toMatchObject({ loggedIn: true, consecutiveFailures: 0, lastError: null });
    done();
  });

  it('refreshes at exp minus the margin, falling back to issue time + 24 h', async () => {
    const { clock, session, done } = setup({ withExp: false });
    const start = clock.now();
    await session.token();
    expect(session.health()).toMatchObject({ expiresAt: start + JWT_LIFETIME_MS, refreshAt: start + JWT_LIFETIME_MS - MARGIN });
    done();
  });

  it('a revoked token recovers with one login and one retry', async () => {
    const { fake, session, done } = setup();
    const token = await session.token();
    fake.revoked.add(token);
    await expect(getVault(session.authed)).resolves.toMatchObject({ vaultPubkey: 'v' });
    expect(fake.logins).toBe(2);
    expect(fake.unauthorized).toBe(1);
    // Twenty calls that all hit the 401 together still share one login.
    fake.revoked.add(await session.token());
    await Promise.all(Array.from({ length: 20 }, () => getVault(session.authed)));
    expect(fake.logins).toBe(3);
    done();
  });

  it('retries a 401 only once', async () => {
    // Every token is revoked as soon as it is issued: the caller gets the 401 after one login and one retry.
    const { fake, session, done } = setup({}, {}, (f) => async (input, init) => {
      const res = await f.fetch(input, init);
      for (const t of f.issued) f.revoked.add(t);
      return res;
    });
    const error = await getVault(session.authed).then(
      () => null,
      (e: unknown) => e,
    );
    capture.error(error);
    expect((error as { code?: string }).code).toBe('TRIGGER_UNAUTHORIZED');
    expect(fake.logins).toBe(2);
    expect(fake.unauthorized).toBe(2);
    done();
  });

  it.each([
    [401, 'Invalid signature'],
    [400, 'Challenge not found'],
  ] as const)('a wrong signature gives a clear error in the %s form', async (status, said) => {
    const stranger = fromSecretText(bs58.encode(keypair('session-stranger').secretKey));
    const ours = fromSecretText(SECRET_BASE58);
    const wrongKey = {
      address: ours.address,
      signMessage: (m: Uint8Array) => stranger.signMessage(m),
      signTransaction: (t: VersionedTransaction) => ours.signTransaction(t),
    };
    const { session, done } = setup({ badSignatureStatus: status }, { signer: createGuardedSigner({ wallet: wrongKey }) });
    const error = await rejection(session.token());
    expect(error.code).toBe('TRIGGER_LOGIN_REJECTED');
    expect(error.message).toContain(`answered ${status} "${said}"`);
    expect(error.message).toContain(ours.address);
    expect(error.message).toMatch(/wrong signature/);
    expect(session.health()).toMatchObject({ loggedIn: false, consecutiveFailures: 1, lastError: { code: 'TRIGGER_LOGIN_REJECTED' } });
    done();
  });

  it('a failing login backs off, shows in health, and recovers', async () => {
    const { clock, fake, session, done } = setup({}, { backoffBaseMs: 10_000, backoffMaxMs: 120_000 });
    fake.down = true;
    const first = await rejection(session.token());
    expect(first.code).toBe('TRIGGER_LOGIN_FAILED');
    const h1 = session.health();
    expect(h1).toMatchObject({ loggedIn: false, consecutiveFailures: 1, lastError: { code: 'TRIGGER_LOGIN_FAILED' } });
    expect(h1.nextAttemptAt).toBeGreaterThanOrEqual(clock.now() + 5_000);
    // While backing off, callers fail fast without touching the server.
    const attempts = fake.verifyAttempts;
    const fast = await rejection(getVault(session.authed));
    expect(fast.code).toBe('TRIGGER_LOGIN_BACKOFF');
    await clock.advance(10_000);
    await rejection(session.token());
    const h2 = session.health();
    expect(h2.consecutiveFailures).toBe(2);
    expect((h2.nextAttemptAt ?? 0) - clock.now()).toBeGreaterThanOrEqual(10_000);
    // The delay is capped.
    for (let i = 0; i < 6; i++) {
      await clock.advance(120_000);
      await rejection(session.token());
    }
    expect((session.health().nextAttemptAt ?? 0) - clock.now()).toBeLessThanOrEqual(120_000);
    expect(fake.verifyAttempts).toBe(attempts);
    fake.down = false;
    await clock.advance(120_000);
    await expect(getVault(session.authed)).resolves.toBeDefined();
    expect(session.health()).toMatchObject({ loggedIn: true, consecutiveFailures: 0 });
    done();
  });

  it('keeps using a still-valid token when an early refresh fails', async () => {
    const { clock, fake, session, done } = setup();
    const token = await session.token();
    await clock.advance(24 * HOUR - MARGIN + 1);
    fake.down = true;
    await expect(session.token()).resolves.toBe(token);
    expect(session.health()).toMatchObject({ loggedIn: true, consecutiveFailures: 1 });
    done();
  });

  it('logs in with a transaction challenge after the guard has checked it', async () => {
    const { fake, session, done } = setup({}, { loginType: 'transaction' });
    await expect(getVault(session.authed)).resolves.toBeDefined();
    expect(fake.logins).toBe(1);
    done();
  });

  it('refuses to sign a transaction challenge that carries a transfer, and records it', async () => {
    const store = freshStore();
    const signer = createGuardedSigner({ wallet: fromSecretText(SECRET_BASE58), audit: new AuditLog(store.db, store.clock) });
    const { fake, session, done } = setup({}, { loginType: 'transaction', signer }, (f) => async (input, init) => {
      const res = await f.fetch(input, init);
      if (!urlOf(input).endsWith('/auth/challenge')) return res;
      const body = (await res.json()) as { transaction: string };
      const original = VersionedTransaction.deserialize(Buffer.from(body.transaction, 'base64'));
      const payer = original.message.staticAccountKeys[0] as PublicKey;
      const thief = keypair('thief').publicKey;
      const evil = buildV0(payer, original.message.recentBlockhash, [
        memo('Sign this message to authenticate with Jupiter Trigger Order API: 1', payer),
        SystemProgram.transfer({ fromPubkey: payer, toPubkey: thief, lamports: 1_000_000_000n }),
      ]);
      return jsonResponse({ type: 'transaction', transaction: evil.base64 });
    });
    const error = await rejection(session.token());
    expect(error.code).toBe('TRIGGER_LOGIN_FAILED');
    expect(error.message).toContain('MEMO_ONLY_VIOLATION');
    expect(fake.verifyAttempts).toBe(0);
    const rows = store.db.prepare("SELECT data FROM actions WHERE kind = 'guard.refused'").all() as { data: string }[];
    expect(rows.map((r) => (JSON.parse(r.data) as { reason: string }).reason)).toEqual(['MEMO_ONLY_VIOLATION']);
    capture.database(store.db);
    done();
  });

  it('signs only the documented challenge text, and records the refusal', async () => {
    const store = freshStore();
    const signer = createGuardedSigner({ wallet: fromSecretText(SECRET_BASE58), audit: new AuditLog(store.db, store.clock) });
    const { fake, session, done } = setup(
      {},
      { signer },
      (f) => async (input, init) =>
        urlOf(input).endsWith('/auth/challenge') ? jsonResponse({ type: 'message', challenge: 'please sign these bytes' }) : f.fetch(input, init),
    );
    const error = await rejection(session.token());
    expect(error.code).toBe('TRIGGER_LOGIN_FAILED');
    expect(error.message).toContain('LOGIN_TEXT_UNEXPECTED');
    expect(fake.verifyAttempts).toBe(0);
    const rows = store.db.prepare("SELECT data FROM actions WHERE kind = 'guard.refused'").all() as { data: string }[];
    expect(rows.map((r) => JSON.parse(r.data) as unknown)).toEqual([
      {
        reason: 'LOGIN_TEXT_UNEXPECTED',
        expectation: { kind: 'login-message' },
        details: expect.objectContaining({ start: 'please sign these bytes' }) as unknown,
      },
    ]);
    capture.database(store.db);
    done();
  });

  it.each(['message', 'transaction'] as const)('signs a %s challenge through the signer it is given, and nothing else', async (loginType) => {
    const ours = createGuardedSigner({ wallet: fromSecretText(SECRET_BASE58) });
    const calls: string[] = [];
    const recording: LoginSigner = {
      address: ours.address,
      signLoginMessage: async (text) => {
        calls.push(`message ${text}`);
        return await ours.signLoginMessage(text);
      },
      sign: async (tx, expectation) => {
        calls.push(`transaction ${expectation.kind} ${tx.message.staticAccountKeys.length}`);
        return await ours.sign(tx, expectation);
      },
    };
    const { fake, session, done } = setup({}, { signer: recording, loginType });
    await expect(getVault(session.authed)).resolves.toMatchObject({ vaultPubkey: 'v' });
    expect(fake.logins).toBe(1);
    expect(calls).toEqual([
      loginType === 'message' ? 'message Sign this message to authenticate with Jupiter Trigger Order API: 00000001' : 'transaction login-challenge 2',
    ]);
    done();
  });
});

describe('the Trigger session against the simulator', () => {
  it.each(['message', 'transaction'] as const)('logs in with a %s challenge and uses the token', async (loginType) => {
    const h = await startSim();
    try {
      const redactor = new Redactor();
      const out = new MemoryStream();
      const log = createLogger({ destination: out, redactor, clock: h.clock, level: 'debug' });
      const client = createJupiterClient({
        baseUrl: h.url,
        apiKey: 'paper-mode-key',
        requestsPerSecond: 10,
        clock: h.clock,
        random: createRandom('sim'),
        redactor,
        logger: log,
      });
      const signer = createGuardedSigner({ wallet: fromSecretText(SECRET_BASE58, { redactor }), log });
      const session = createTriggerSession({ client, signer, clock: h.clock, random: createRandom('sim'), loginType, refreshMarginMs: MARGIN, log, redactor });
      const vault = await registerVault(session.authed);
      expect((await getVault(session.authed)).vaultPubkey).toBe(vault.vaultPubkey);
      capture.token(await session.token());
      capture.text(out.text);
    } finally {
      await h.close();
    }
  });
});
