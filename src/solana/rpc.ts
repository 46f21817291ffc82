/**
 * A minimal typed Solana JSON-RPC client: the calls the executor and reconciliation need, nothing
 * else. `fetch` and the clock are injected; every call has a timeout in real time (`realTimeOf(clock)`:
 * a paper world running faster does not shorten it) through an AbortSignal, answers are parsed with
 * zod, and every error is an {@link RpcError} with a stable code.
 * An RPC URL often carries a provider key (`…?api-key=…`): the URL is registered with the Redactor and
 * never appears in a message, so errors and logs name only the method.
 *
 * Accounts are read raw (`encoding: base64`): the guard parses lookup tables and token accounts
 * itself rather than trusting a node's `jsonParsed` view.
 */
import type { CodeOf } from '../errorCatalogue.js';
import { z } from 'zod';
import { type Clock, realTimeOf } from '../clock.js';
import { JupbotError } from '../errors.js';
import { Redactor } from '../ops/redact.js';
import { type AddressSignature, type LandedTransaction, landedTransaction, RawLandedTransaction, SignaturesForAddress } from './rpcHistory.js';

export type { AddressSignature, LandedTransaction, TokenBalance } from './rpcHistory.js';

/** Solana: a blockhash is accepted for 150 blocks after it was issued. */
/** Ends a call's timeout sleep once it is answered: one shared reason, not a DOMException (with its stack) per call. */
const ANSWERED = new Error('answered');

export const BLOCKHASH_VALID_BLOCKS = 150;

/** The JSON-RPC error of a node that has not reached the `minContextSlot` a call asked for. */
export const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;

export type RpcErrorCode = CodeOf<'rpc'>;

/** An RPC call failed. `rpcCode` is the JSON-RPC error code when the node answered with one. */
export class RpcError extends JupbotError {
  override name = 'RpcError';
  declare readonly code: RpcErrorCode;
  readonly method: string;
  readonly rpcCode: number | null;
  readonly status: number | null;
  /**
   * True for `sendTransaction` when the node may have received the transaction (timeout, network
   * failure, 5xx): look the signature up, never assume it failed.
   */
  readonly outcomeUnknown: boolean;

  constructor(
    code: RpcErrorCode,
    method: string,
    message: string,
    options: { rpcCode?: number | null; status?: number | null; cause?: unknown; sends?: boolean } = {},
  ) {
    super(code, `rpc ${method} → ${code}: ${message}`, {
      cause: options.cause,
      details: { method, rpcCode: options.rpcCode ?? null, status: options.status ?? null },
    });
    this.method = method;
    this.rpcCode = options.rpcCode ?? null;
    this.status = options.status ?? null;
    this.outcomeUnknown =
      (options.sends ?? false) && code !== 'RPC_ERROR' && code !== 'RPC_ABORTED' && !(code === 'RPC_HTTP_ERROR' && (options.status ?? 0) < 500);
  }
}

export interface SignatureStatus {
  readonly slot: number;
  readonly confirmations: number | null;
  /** Non-null when the transaction landed and failed (fees were paid). */
  readonly err: unknown;
  readonly confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null;
}

export interface TokenAccount {
  readonly pubkey: string;
  readonly mint: string;
  readonly amount: bigint;
  readonly decimals: number;
}

export type Commitment = 'processed' | 'confirmed' | 'finalized';

/** An account as the node holds it, data decoded from base64. */
export interface AccountState {
  readonly lamports: bigint;
  readonly owner: string;
  readonly data: Buffer;
  readonly executable: boolean;
}

/** What `simulateTransaction` says: the error (null on success) and the asked-for accounts after. */
export interface SimulationResult {
  readonly err: unknown;
  readonly logs: readonly string[];
  readonly accounts: readonly (AccountState | null)[];
  readonly unitsConsumed: number | null;
  readonly slot: number;
}

export interface SolanaRpc {
  getLatestBlockhash(commitment?: Commitment): Promise<{ blockhash: string; lastValidBlockHeight: number }>;
  getBlockHeight(commitment?: Commitment): Promise<number>;
  /** Sends base64 wire bytes as they are (no re-signing); resolves with the signature the node reports. */
  sendTransaction(base64: string, options?: { skipPreflight?: boolean; maxRetries?: number }): Promise<string>;
  /** Searches the whole history, not only the recent cache: "absent" must mean never landed. */
  getSignatureStatuses(signatures: readonly string[]): Promise<(SignatureStatus | null)[]>;
  getBalance(address: string): Promise<bigint>;
  getTokenAccountsByOwner(owner: string, filter: { mint: string } | { programId: string }): Promise<TokenAccount[]>;
  /**
   * Raw accounts (null where none exists), at most 100 addresses a call, and the slot of the state
   * they were read at. With `minContextSlot`, a node whose state is older answers an RpcError
   * (`rpcCode` {@link MIN_CONTEXT_SLOT_NOT_REACHED}) instead of older data.
   */
  getMultipleAccounts(
    addresses: readonly string[],
    commitment?: Commitment,
    options?: { minContextSlot?: number },
  ): Promise<{ slot: number; accounts: (AccountState | null)[] }>;
  /**
   * Simulates unsigned (or partly signed) wire bytes without signature checks and returns the
   * listed accounts as they would be afterwards, with the slot of the state it ran on. Nothing is
   * committed on chain. `minContextSlot` as for {@link getMultipleAccounts}.
   */
  simulateTransaction(base64: string, options: { accounts: readonly string[]; commitment?: Commitment; minContextSlot?: number }): Promise<SimulationResult>;
  /** Transactions that touched `address`, newest first, at most `limit` (≤ 1000), older than `before` when given. */
  getSignaturesForAddress(address: string, options?: { before?: string; limit?: number }): Promise<AddressSignature[]>;
  /** One landed transaction (confirmed), or null when the node does not know it. */
  getTransaction(signature: string): Promise<LandedTransaction | null>;
}

export interface SolanaRpcOptions {
  /** The node's URL; may contain a key, so it is treated as a secret. */
  readonly url: string;
  readonly clock: Clock;
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Per call, in real time (`timer`). @default 15_000; 0 disables */
  readonly timeoutMs?: number | undefined;
  /** Real time, for the timeouts. @default realTimeOf(clock): the base of a scaled (paper `sim.speed`) clock */
  readonly timer?: Clock | undefined;
  readonly redactor?: Redactor | undefined;
}

const Envelope = z.looseObject({
  result: z.unknown().optional(),
  error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
});
const Context = z.looseObject({ slot: z.number() });
const LatestBlockhash = z.looseObject({
  context: Context,
  value: z.looseObject({ blockhash: z.string().min(32), lastValidBlockHeight: z.number().int().nonnegative() }),
});
const Status = z.looseObject({
  slot: z.number(),
  confirmations: z.number().nullable(),
  err: z.unknown(),
  confirmationStatus: z.enum(['processed', 'confirmed', 'finalized']).nullish(),
});
const Statuses = z.looseObject({ context: Context, value: z.array(Status.nullable()) });
const Balance = z.looseObject({ context: Context, value: z.number().int().nonnegative() });
const TokenAccounts = z.looseObject({
  context: Context,
  value: z.array(
    z.looseObject({
      pubkey: z.string(),
      account: z.looseObject({
        data: z.looseObject({
          parsed: z.looseObject({
            info: z.looseObject({ mint: z.string(), tokenAmount: z.looseObject({ amount: z.string().regex(/^\d+$/), decimals: z.number().int() }) }),
          }),
        }),
      }),
    }),
  ),
});

const RawAccount = z
  .looseObject({
    lamports: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]),
    owner: z.string().min(32).max(44),
    data: z.tuple([z.string(), z.literal('base64')]).rest(z.unknown()),
    executable: z.boolean(),
  })
  .nullable();
const MultipleAccounts = z.looseObject({ context: Context, value: z.array(RawAccount) });
const Simulation = z.looseObject({
  context: Context,
  value: z.looseObject({
    err: z.unknown(),
    logs: z.array(z.string()).nullish(),
    accounts: z.array(RawAccount).nullish(),
    unitsConsumed: z.number().nullish(),
  }),
});

function accountState(raw: z.output<typeof RawAccount>): AccountState | null {
  if (raw === null) return null;
  return { lamports: BigInt(raw.lamports), owner: raw.owner, data: Buffer.from(raw.data[0], 'base64'), executable: raw.executable };
}

export function createSolanaRpc(options: SolanaRpcOptions): SolanaRpc {
  const redactor = options.redactor ?? new Redactor();
  if (options.url.length >= 8) redactor.add(options.url);
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const timer = options.timer ?? realTimeOf(options.clock);
  let nextId = 1;

  async function call<T>(method: string, params: unknown[], schema: z.ZodType<T>, sends = false): Promise<T> {
    const controller = new AbortController();
    const answered = new AbortController();
    let timedOut = false;
    if (timeoutMs > 0) {
      timer.sleep(timeoutMs, answered.signal).then(
        () => {
          timedOut = true;
          controller.abort();
        },
        () => undefined,
      );
    }
    const fail = (code: RpcErrorCode, message: string, extra: { rpcCode?: number; status?: number; cause?: unknown } = {}): RpcError =>
      new RpcError(code, method, redactor.scrubText(message), { ...extra, cause: extra.cause === undefined ? undefined : redactor.scrub(extra.cause), sends });
    try {
      let response: Response;
      try {
        response = await doFetch(options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
          signal: controller.signal,
        });
      } catch (error) {
        if (timedOut) throw fail('RPC_TIMEOUT', `no answer within ${timeoutMs} ms`);
        throw fail('RPC_NETWORK_ERROR', error instanceof Error ? error.message : 'fetch failed', { cause: error });
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch (error) {
        if (timedOut) throw fail('RPC_TIMEOUT', `no answer within ${timeoutMs} ms`);
        throw fail(response.ok ? 'RPC_MALFORMED_RESPONSE' : 'RPC_HTTP_ERROR', `HTTP ${response.status}, body is not JSON`, {
          status: response.status,
          cause: error,
        });
      }
      if (!response.ok) throw fail('RPC_HTTP_ERROR', `HTTP ${response.status}`, { status: response.status });
      const envelope = Envelope.safeParse(body);
      if (!envelope.success) throw fail('RPC_MALFORMED_RESPONSE', 'not a JSON-RPC answer');
      if (envelope.data.error) throw fail('RPC_ERROR', `${envelope.data.error.code} ${envelope.data.error.message}`, { rpcCode: envelope.data.error.code });
      const result = schema.safeParse(envelope.data.result);
      if (!result.success) throw fail('RPC_MALFORMED_RESPONSE', `unexpected result: ${result.error.issues[0]?.message ?? 'invalid'}`);
      return result.data;
    } finally {
      answered.abort(ANSWERED);
    }
  }

  const commitmentConfig = (commitment: Commitment | undefined): unknown[] => (commitment === undefined ? [] : [{ commitment }]);

  return {
    async getLatestBlockhash(commitment) {
      const r = await call('getLatestBlockhash', commitmentConfig(commitment), LatestBlockhash);
      return { blockhash: r.value.blockhash, lastValidBlockHeight: r.value.lastValidBlockHeight };
    },
    async getBlockHeight(commitment) {
      return call('getBlockHeight', commitmentConfig(commitment), z.number().int().nonnegative());
    },
    async sendTransaction(base64, sendOptions = {}) {
      const config = {
        encoding: 'base64',
        skipPreflight: sendOptions.skipPreflight ?? false,
        ...(sendOptions.maxRetries === undefined ? {} : { maxRetries: sendOptions.maxRetries }),
      };
      return call('sendTransaction', [base64, config], z.string().min(32), true);
    },
    async getSignatureStatuses(signatures) {
      const r = await call('getSignatureStatuses', [[...signatures], { searchTransactionHistory: true }], Statuses);
      return r.value.map((s) =>
        s === null ? null : { slot: s.slot, confirmations: s.confirmations, err: s.err ?? null, confirmationStatus: s.confirmationStatus ?? null },
      );
    },
    async getBalance(address) {
      const r = await call('getBalance', [address], Balance);
      return BigInt(r.value);
    },
    async getTokenAccountsByOwner(owner, filter) {
      const r = await call('getTokenAccountsByOwner', [owner, filter, { encoding: 'jsonParsed' }], TokenAccounts);
      return r.value.map((a) => ({
        pubkey: a.pubkey,
        mint: a.account.data.parsed.info.mint,
        amount: BigInt(a.account.data.parsed.info.tokenAmount.amount),
        decimals: a.account.data.parsed.info.tokenAmount.decimals,
      }));
    },
    async getMultipleAccounts(addresses, commitment, readOptions = {}) {
      const config = {
        encoding: 'base64',
        ...(commitment === undefined ? {} : { commitment }),
        ...(readOptions.minContextSlot === undefined ? {} : { minContextSlot: readOptions.minContextSlot }),
      };
      const r = await call('getMultipleAccounts', [[...addresses], config], MultipleAccounts);
      if (r.value.length !== addresses.length)
        throw new RpcError('RPC_MALFORMED_RESPONSE', 'getMultipleAccounts', `asked for ${addresses.length} accounts, got ${r.value.length}`);
      return { slot: r.context.slot, accounts: r.value.map(accountState) };
    },
    async simulateTransaction(base64, simulateOptions) {
      const config = {
        encoding: 'base64',
        sigVerify: false,
        replaceRecentBlockhash: false,
        commitment: simulateOptions.commitment ?? 'confirmed',
        accounts: { encoding: 'base64', addresses: [...simulateOptions.accounts] },
        ...(simulateOptions.minContextSlot === undefined ? {} : { minContextSlot: simulateOptions.minContextSlot }),
      };
      const r = await call('simulateTransaction', [base64, config], Simulation);
      const accounts = (r.value.accounts ?? []).map(accountState);
      if (accounts.length !== simulateOptions.accounts.length) {
        throw new RpcError(
          'RPC_MALFORMED_RESPONSE',
          'simulateTransaction',
          `asked for ${simulateOptions.accounts.length} accounts after, got ${accounts.length}`,
        );
      }
      return { err: r.value.err ?? null, logs: r.value.logs ?? [], accounts, unitsConsumed: r.value.unitsConsumed ?? null, slot: r.context.slot };
    },
    async getSignaturesForAddress(address, historyOptions = {}) {
      const config = {
        limit: historyOptions.limit ?? 100,
        commitment: 'confirmed',
        ...(historyOptions.before === undefined ? {} : { before: historyOptions.before }),
      };
      const r = await call('getSignaturesForAddress', [address, config], SignaturesForAddress);
      return r.map((e) => ({ signature: e.signature, slot: e.slot, err: e.err ?? null, blockTime: e.blockTime ?? null }));
    },
    async getTransaction(signature) {
      const r = await call(
        'getTransaction',
        [signature, { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 }],
        RawLandedTransaction,
      );
      return landedTransaction(r);
    },
  };
}
