/**
 * One intent kind as a rehearsal executes it: the same journal kind and routes as live mode (a
 * strategy decides exactly what it would decide live), with a handler that makes no write anywhere
 * but this database. Every rehearsal handler is a call: there is nothing to sign.
 */
import type { Clock } from '../clock.js';
import type { JupiterClient } from '../jupiter/transport.js';
import type { Logger } from '../ops/log.js';
import type { TransactionGuard } from '../solana/guardedSigner.js';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import type { Journal } from '../store/journal.js';
import type { TriggerOrders } from '../store/triggerOrders.js';
import type { CallHandler } from '../engine/executor/handler.js';
import type { AnyIntentRoute } from '../engine/executor/intentKind.js';
import type { SwapPolicy } from '../engine/executor/swap/swapHandler.js';

export interface RehearsalDeps {
  readonly client: JupiterClient;
  /** Never present in a rehearsal (its login would need a signature); typed so a handler cannot reach for one. */
  readonly authed?: never;
  /** The guard alone: it judges what Jupiter built and cannot sign. */
  readonly guard: TransactionGuard;
  readonly db: Db;
  readonly journal: Journal;
  readonly orders: TriggerOrders;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly log?: Logger | undefined;
  readonly decimalsOf: (mint: string) => Promise<number>;
  readonly swap: SwapPolicy;
  readonly maxVaultSlippageBps: number;
}

export interface RehearsalKind {
  readonly kind: string;
  readonly routes: readonly AnyIntentRoute[];
  createHandler(deps: RehearsalDeps): CallHandler;
}
