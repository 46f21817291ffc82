/**
 * The guard every transaction Jupiter builds passes before it is signed (solana/guard.ts), as this
 * daemon configures it: the prediction programs, platform fee accounts and fee cap of the config,
 * simulated through the daemon's RPC, with the route venues the aggregator's on-chain IDL names
 * (read once at the start: solana/venueBook.ts). With the wallet's key it signs what it passes (live,
 * paper); a rehearsal holds no key, and has the guard alone.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../ops/log.js';
import { createRpcGuardedSigner, createRpcTransactionGuard, type GuardedSigner } from '../solana/guardedSigner.js';
import type { SolanaRpc } from '../solana/rpc.js';
import { createVenueBook, type VenueBook } from '../solana/venueBook.js';
import type { Wallet } from '../solana/wallet.js';
import { WatchOnlyWallet } from '../solana/watchOnlyWallet.js';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import type { Execution } from './modeHandlerSet.js';

export interface EngineGuard {
  /** Start it (it reads the IDL once) before anything trades. */
  readonly venues: VenueBook;
  /** The signer over the guard; null in a rehearsal. */
  readonly signer: GuardedSigner | null;
  /** How the executor's handlers carry intents out: signed, or judged and rehearsed. */
  readonly execution: Execution;
}

export interface EngineGuardOptions {
  readonly config: Pick<Config, 'prediction' | 'guard'>;
  readonly wallet: Wallet | WatchOnlyWallet;
  readonly rpc: SolanaRpc;
  readonly db: Db;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly log: Logger;
}

export function createEngineGuard(options: EngineGuardOptions): EngineGuard {
  const { config, wallet, rpc, clock, log, audit } = options;
  const venues = createVenueBook({ rpc, clock, log, db: options.db });
  const guardOptions = {
    audit,
    log,
    rpc,
    clock,
    predictionPrograms: config.prediction.program_ids,
    platformFeeAccounts: config.guard.platform_fee_accounts,
    maxFeeBps: config.guard.max_fee_bps,
    venues,
  };
  if (wallet instanceof WatchOnlyWallet)
    return { venues, signer: null, execution: { rehearsal: createRpcTransactionGuard({ ...guardOptions, address: wallet.address }) } };
  const signer = createRpcGuardedSigner({ ...guardOptions, wallet });
  return { venues, signer, execution: { signer } };
}
