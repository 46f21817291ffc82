/**
 * The handler set for how this daemon carries intents out: signed through the guard (live, paper:
 * executor/kindSet.ts), or rehearsed: judged by the guard alone and filled in the rehearsal ledger at
 * the quotes received (rehearsal/rehearsalKindSet.ts). Both route the same kinds the same way, under
 * the same swap policy and vault slippage cap from the config's guard.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { AuthedJupiterClient, JupiterClient } from '../jupiter/transport.js';
import type { Logger } from '../ops/log.js';
import { createRehearsalHandlerSet } from '../rehearsal/rehearsalKindSet.js';
import type { GuardedSigner, TransactionGuard } from '../solana/guardedSigner.js';
import type { SolanaRpc } from '../solana/rpc.js';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import type { Journal } from '../store/journal.js';
import type { TriggerOrders } from '../store/triggerOrders.js';
import { strategyLimits } from '../strategies/strategyLimits.js';
import { createHandlerSet, type HandlerSet } from './executor/kindSet.js';

/** How intents are carried out: signed through the guard, or judged by it alone and rehearsed. */
export type Execution = { readonly signer: GuardedSigner } | { readonly rehearsal: TransactionGuard };

export interface ModeHandlerSetOptions {
  readonly execution: Execution;
  readonly config: Pick<Config, 'api' | 'guard'>;
  readonly client: JupiterClient;
  /** The Trigger V2 session's client: with it, the vault kinds are executed (else deferred). */
  readonly authed?: AuthedJupiterClient | undefined;
  readonly rpc: SolanaRpc;
  readonly db: Db;
  readonly journal: Journal;
  readonly orders: TriggerOrders;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly log: Logger;
  readonly decimalsOf: (mint: string) => Promise<number>;
}

export function createModeHandlerSet(options: ModeHandlerSetOptions): HandlerSet {
  const { execution, config, client, journal, orders, clock, decimalsOf } = options;
  const swap = { excludeRouters: config.api.exclude_routers, maxSlippageBps: config.guard.max_slippage_bps };
  const maxVaultSlippageBps = strategyLimits(config.guard).maxVaultSlippageBps;
  if ('signer' in execution)
    return createHandlerSet({
      client,
      authed: options.authed,
      rpc: options.rpc,
      signer: execution.signer,
      journal,
      orders,
      clock,
      decimalsOf,
      swap,
      maxVaultSlippageBps,
    });
  return createRehearsalHandlerSet({
    client,
    guard: execution.rehearsal,
    db: options.db,
    journal,
    orders,
    audit: options.audit,
    clock,
    log: options.log,
    decimalsOf,
    swap,
    maxVaultSlippageBps,
  });
}
