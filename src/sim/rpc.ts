import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { ALREADY_PROCESSED, decodeTransaction, fullySigned, type Move, Rejection, type DecodedTx, type Intent } from './chain.js';
import { accountAt, afterMoves } from './rpcAccounts.js';
import type { RouteResult, SimRequest } from './http.js';
import { associatedTokenAddress, ProgramId, SOL_MINT, tokenAccountOwner } from './programIds.js';
import type { SimWorld } from './world.js';
import { formatUnits } from '../money/formatUnits.js';

interface RpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A node's answer when it has not reached the `minContextSlot` asked for. */
const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;
/** mainnet-beta's genesis hash: the simulator stands in for mainnet, whose program ids and mints it uses. */
const MAINNET_GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';

/**
 * The Solana JSON-RPC subset the daemon uses. Landing goes through the same {@link Chain} as
 * /execute, so a transaction sent both ways still applies once.
 */
export class SolanaRpc {
  constructor(private readonly world: SimWorld) {}

  handle(req: SimRequest): RouteResult {
    let parsed: unknown;
    try {
      parsed = JSON.parse(req.rawBody);
    } catch {
      return { status: 200, body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } } };
    }
    if (Array.isArray(parsed)) return { status: 200, body: parsed.map((r) => this.#one(r as RpcRequest)) };
    return { status: 200, body: this.#one(parsed as RpcRequest) };
  }

  #one(request: RpcRequest): unknown {
    const id = request?.id ?? null;
    try {
      if (typeof request !== 'object' || request === null || request.jsonrpc !== '2.0' || typeof request.method !== 'string')
        throw new RpcError(-32600, 'Invalid request');
      const params = Array.isArray(request.params) ? (request.params as unknown[]) : [];
      return { jsonrpc: '2.0', result: this.#call(request.method, params), id };
    } catch (error) {
      if (error instanceof RpcError)
        return { jsonrpc: '2.0', error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) }, id };
      throw error;
    }
  }

  #context(): { slot: number; apiVersion: string } {
    return { slot: this.world.chain.slot(), apiVersion: '2.2.0' };
  }

  /**
   * `minContextSlot`: a node whose state is older than the slot asked for answers -32016 instead of
   * older data. Slots here never go back, so only a slot from the future is refused.
   */
  #minContextSlot(config: unknown): void {
    const min = (config as { minContextSlot?: unknown } | undefined)?.minContextSlot;
    if (min === undefined) return;
    if (typeof min !== 'number' || !Number.isInteger(min) || min < 0) throw new RpcError(-32602, 'Invalid params: minContextSlot must be a slot number');
    const slot = this.world.chain.slot();
    if (slot < min) throw new RpcError(MIN_CONTEXT_SLOT_NOT_REACHED, 'Minimum context slot has not been reached', { contextSlot: slot });
  }

  #call(method: string, params: unknown[]): unknown {
    const chain = this.world.chain;
    switch (method) {
      case 'getLatestBlockhash':
        return { context: this.#context(), value: chain.latestBlockhash() };
      case 'getBlockHeight':
        return chain.height();
      case 'getSlot':
        return chain.slot();
      case 'getGenesisHash':
        return MAINNET_GENESIS_HASH;
      case 'getBalance':
        return { context: this.#context(), value: Number(this.world.ledger.balance(this.#pubkey(params[0]), SOL_MINT)) };
      case 'getSignatureStatuses': {
        const sigs = params[0];
        if (!Array.isArray(sigs) || sigs.length > 256 || !sigs.every((s) => typeof s === 'string'))
          throw new RpcError(-32602, 'Invalid params: expected an array of up to 256 signatures');
        return { context: this.#context(), value: sigs.map((s: string) => chain.status(s)) };
      }
      case 'getTokenAccountsByOwner':
        return { context: this.#context(), value: this.#tokenAccounts(params) };
      case 'sendTransaction':
        return this.#send(params);
      case 'getAccountInfo':
        this.#base64Only(params[1]);
        this.#minContextSlot(params[1]);
        return { context: this.#context(), value: accountAt(this.world, this.#pubkey(params[0])) };
      case 'getMultipleAccounts': {
        const list = params[0];
        if (!Array.isArray(list) || list.length > 100) throw new RpcError(-32602, 'Invalid params: expected an array of up to 100 addresses');
        this.#base64Only(params[1]);
        this.#minContextSlot(params[1]);
        return { context: this.#context(), value: list.map((a) => accountAt(this.world, this.#pubkey(a))) };
      }
      case 'simulateTransaction':
        return this.#simulate(params);
      case 'getSignaturesForAddress': {
        const config = (params[1] ?? {}) as { before?: unknown; limit?: unknown };
        const limit = config.limit === undefined ? 1_000 : Number(config.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) throw new RpcError(-32602, 'Invalid params: limit must be 1 to 1000');
        const before = typeof config.before === 'string' ? config.before : undefined;
        return chain.history.forAddress(this.#pubkey(params[0]), { before, limit }).map((r) => ({
          signature: r.signature,
          slot: r.slot,
          err: r.err ? { InstructionError: [0, { Custom: r.err.code }] } : null,
          memo: null,
          blockTime: r.blockTime,
          confirmationStatus: 'confirmed',
        }));
      }
      case 'getTransaction':
        return this.#transaction(params);
      default:
        throw new RpcError(-32601, 'Method not found');
    }
  }

  /**
   * `getTransaction` in the `json` encoding (v0 allowed): signatures, static keys, the lookup
   * tables' addresses, and the balances before and after as the ledger saw them (lamports per key;
   * token balances per token account the transaction names, with owner and mint).
   */
  #transaction(params: unknown[]): unknown {
    const config = (params[1] ?? {}) as { encoding?: unknown; maxSupportedTransactionVersion?: unknown };
    if (config.encoding !== undefined && config.encoding !== 'json')
      throw new RpcError(-32602, 'Invalid params: the simulator serves getTransaction as json only');
    const record = typeof params[0] === 'string' ? this.world.chain.history.get(params[0]) : undefined;
    if (!record) return null;
    const { tx } = record;
    if (tx.version !== 'legacy' && config.maxSupportedTransactionVersion !== 0)
      throw new RpcError(
        -32015,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    const writable: string[] = [];
    const readonly: string[] = [];
    for (const lookup of tx.message.addressTableLookups) {
      const addresses = this.world.lookupTables.get(lookup.accountKey.toBase58())?.state.addresses ?? [];
      for (const i of lookup.writableIndexes) writable.push(addresses[i]?.toBase58() ?? '');
      for (const i of lookup.readonlyIndexes) readonly.push(addresses[i]?.toBase58() ?? '');
    }
    const keys = [...tx.message.staticAccountKeys.map((k) => k.toBase58()), ...writable, ...readonly];
    const change = (wallet: string, mint: string): { pre: bigint; post: bigint } => {
      const known = record.changes.get(wallet)?.get(mint);
      if (known) return known;
      const now = this.world.ledger.balance(wallet, mint);
      return { pre: now, post: now };
    };
    const tokens = keys.flatMap((address, accountIndex) => {
      const account = tokenAccountOwner(address);
      if (!account || account.mint === SOL_MINT) return [];
      const decimals = this.world.market.spec(account.mint)?.decimals ?? 0;
      const { pre, post } = change(account.owner, account.mint);
      const entry = (amount: bigint): unknown => ({
        accountIndex,
        mint: account.mint,
        owner: account.owner,
        programId: account.program,
        uiTokenAmount: { amount: amount.toString(), decimals, uiAmountString: formatUnits(amount, decimals) },
      });
      return [{ pre: entry(pre), post: entry(post) }];
    });
    return {
      slot: record.slot,
      blockTime: record.blockTime,
      version: tx.version === 'legacy' ? 'legacy' : 0,
      transaction: {
        signatures: tx.signatures.map((sig) => bs58.encode(sig)),
        message: { accountKeys: tx.message.staticAccountKeys.map((k) => k.toBase58()), recentBlockhash: tx.message.recentBlockhash },
      },
      meta: {
        err: record.err ? { InstructionError: [0, { Custom: record.err.code }] } : null,
        fee: Number(record.fee),
        preBalances: keys.map((k) => Number(tokenAccountOwner(k) ? 2_039_280n : change(k, SOL_MINT).pre)),
        postBalances: keys.map((k) => Number(tokenAccountOwner(k) ? 2_039_280n : change(k, SOL_MINT).post)),
        preTokenBalances: tokens.map((t) => t.pre),
        postTokenBalances: tokens.map((t) => t.post),
        loadedAddresses: { writable, readonly },
        logMessages: [],
      },
    };
  }

  #base64Only(config: unknown): void {
    const encoding = (config as { encoding?: unknown } | undefined)?.encoding;
    if (encoding !== 'base64') throw new RpcError(-32602, 'Invalid params: the simulator serves base64 encoding only');
  }

  /**
   * `simulateTransaction`: the effects sending would have (the fee payer's fee included), applied to
   * nothing. Signatures are checked only with `sigVerify: true`.
   */
  #simulate(params: unknown[]): unknown {
    const raw = params[0];
    const config = (params[1] ?? {}) as {
      encoding?: unknown;
      sigVerify?: unknown;
      replaceRecentBlockhash?: unknown;
      accounts?: { encoding?: unknown; addresses?: unknown };
      minContextSlot?: unknown;
    };
    if (typeof raw !== 'string') throw new RpcError(-32602, 'Invalid params: expected an encoded transaction');
    if (config.encoding !== 'base64') throw new RpcError(-32602, 'Invalid params: the simulator takes base64 transactions only');
    if (config.sigVerify === true && config.replaceRecentBlockhash === true)
      throw new RpcError(-32602, 'Invalid params: sigVerify may not be used with replaceRecentBlockhash');
    const addresses = config.accounts?.addresses ?? [];
    if (!Array.isArray(addresses) || addresses.length > 100) throw new RpcError(-32602, 'Invalid params: accounts.addresses must list at most 100 addresses');
    if (config.accounts !== undefined) this.#base64Only(config.accounts);
    this.#minContextSlot(config);
    let decoded: DecodedTx;
    try {
      decoded = decodeTransaction(raw);
    } catch {
      throw new RpcError(-32602, 'invalid transaction: failed to deserialize VersionedTransaction');
    }
    const value = (err: unknown, moves: readonly Move[] = [], logs: string[] = []): unknown => ({
      context: this.#context(),
      value: {
        err,
        logs,
        accounts: config.accounts === undefined ? null : addresses.map((a) => accountAt(this.world, this.#pubkey(a), afterMoves(this.world, moves))),
        unitsConsumed: err === null ? 150_000 : 0,
        returnData: null,
      },
    });
    if (config.sigVerify === true && fullySigned(decoded) !== 'ok') return value('SignatureFailure');
    try {
      const generic = this.#generic(decoded).intent;
      const outcome = this.world.chain.simulate(decoded, generic);
      if (outcome.err?.code === ALREADY_PROCESSED) return value('AlreadyProcessed');
      if (outcome.err) return value({ InstructionError: [0, { Custom: outcome.err.code }] }, outcome.moves, [`Program log: ${outcome.err.message}`]);
      return value(null, outcome.moves, ['Program log: simulated']);
    } catch (error) {
      if (error instanceof Rejection) {
        if (error.reason === 'blockhash') return value('BlockhashNotFound');
        if (error.reason === 'fee') return value('AccountNotFound');
        return value('InvalidProgramForExecution', [], [`Program log: ${error.message}`]);
      }
      throw error;
    }
  }

  #pubkey(value: unknown): string {
    try {
      if (typeof value !== 'string') throw new Error('not a string');
      return new PublicKey(value).toBase58();
    } catch {
      throw new RpcError(-32602, 'Invalid param: Invalid');
    }
  }

  #tokenAccounts(params: unknown[]): unknown[] {
    const owner = this.#pubkey(params[0]);
    const filter = params[1] as { mint?: unknown; programId?: unknown } | undefined;
    const config = params[2] as { encoding?: unknown } | undefined;
    if (!filter || (filter.mint === undefined && filter.programId === undefined))
      throw new RpcError(-32602, 'Invalid params: expected a mint or programId filter');
    if (config?.encoding !== 'jsonParsed') throw new RpcError(-32602, 'Invalid params: the simulator serves jsonParsed encoding only');
    const ownerKey = new PublicKey(owner);
    return this.world.market.tokens
      .filter((t) => t.mint !== SOL_MINT || filter.mint === SOL_MINT)
      .filter((t) => (filter.mint !== undefined ? t.mint === filter.mint : t.tokenProgram === filter.programId))
      .map((t) => ({ t, amount: this.world.ledger.balance(owner, t.mint) }))
      .filter(({ amount }) => amount > 0n)
      .map(({ t, amount }) => ({
        pubkey: associatedTokenAddress(ownerKey, new PublicKey(t.mint), new PublicKey(t.tokenProgram)).toBase58(),
        account: {
          data: {
            parsed: {
              info: {
                isNative: false,
                mint: t.mint,
                owner,
                state: 'initialized',
                tokenAmount: {
                  amount: amount.toString(),
                  decimals: t.decimals,
                  uiAmount: Number(amount) / 10 ** t.decimals,
                  uiAmountString: formatUnits(amount, t.decimals),
                },
              },
              type: 'account',
            },
            program: 'spl-token',
            space: 165,
          },
          executable: false,
          lamports: 2_039_280,
          owner: t.tokenProgram,
          rentEpoch: Number.MAX_SAFE_INTEGER,
          space: 165,
        },
      }));
  }

  #send(params: unknown[]): string {
    const raw = params[0];
    const config = (params[1] ?? {}) as { encoding?: unknown };
    if (typeof raw !== 'string') throw new RpcError(-32602, 'Invalid params: expected an encoded transaction');
    let base64 = raw;
    if (config.encoding !== 'base64') {
      try {
        base64 = Buffer.from(bs58.decode(raw)).toString('base64');
      } catch {
        throw new RpcError(-32602, 'invalid transaction: failed to decode base58');
      }
    }
    let decoded: DecodedTx;
    try {
      decoded = decodeTransaction(base64);
    } catch {
      throw new RpcError(-32602, 'invalid transaction: failed to deserialize VersionedTransaction');
    }
    try {
      const chain = this.world.chain;
      const landed = chain.knows(decoded.messageKey) ? chain.land(decoded) : chain.land(decoded, this.#generic(decoded));
      return landed.signature;
    } catch (error) {
      if (error instanceof Rejection) {
        if (error.reason === 'signature' || error.reason === 'unsigned') throw new RpcError(-32003, 'Transaction signature verification failure');
        if (error.reason === 'blockhash') throw new RpcError(-32002, 'Transaction simulation failed: Blockhash not found');
        if (error.reason === 'fee')
          throw new RpcError(-32002, 'Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.');
        throw new RpcError(-32002, `Transaction simulation failed: ${error.message}`);
      }
      throw error;
    }
  }

  /** Plain SOL transfers (plus compute-budget instructions) need no registered intent. */
  #generic(decoded: DecodedTx): { intent?: Intent } {
    const message = decoded.tx.message;
    const keys = message.staticAccountKeys;
    const transfers: { from: string; to: string; lamports: bigint }[] = [];
    for (const ix of message.compiledInstructions) {
      const program = keys[ix.programIdIndex];
      if (program?.equals(ProgramId.computeBudget)) continue;
      const data = Buffer.from(ix.data);
      if (!program?.equals(ProgramId.system) || data.length !== 12 || data.readUInt32LE(0) !== 2) return {};
      const from = keys[ix.accountKeyIndexes[0] ?? -1];
      const to = keys[ix.accountKeyIndexes[1] ?? -1];
      if (!from || !to) return {};
      transfers.push({ from: from.toBase58(), to: to.toBase58(), lamports: data.readBigUInt64LE(4) });
    }
    if (transfers.length === 0) return {};
    return {
      intent: {
        kind: 'system-transfer',
        apply: (signature) =>
          this.world.ledger.batch(
            transfers.map((t) => ({ from: t.from, to: t.to, mint: SOL_MINT, amount: t.lamports })),
            'transfer',
            signature,
          ),
        preview: () => transfers.map((t) => ({ from: t.from, to: t.to, mint: SOL_MINT, amount: t.lamports })),
      },
    };
  }
}
