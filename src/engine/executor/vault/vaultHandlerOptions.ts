/** What every vault (Trigger V2) handler is built with, price and DCA alike. */
import type { Clock } from '../../../clock.js';
import type { AuthedJupiterClient } from '../../../jupiter/transport.js';
import type { GuardedSigner } from '../../../solana/guardedSigner.js';
import type { SolanaRpc } from '../../../solana/rpc.js';
import type { Journal } from '../../../store/journal.js';
import type { TriggerOrders } from '../../../store/triggerOrders.js';

export interface VaultHandlerOptions {
  /** The Trigger V2 client with the session's JWT. */
  readonly authed: AuthedJupiterClient;
  readonly rpc: SolanaRpc;
  readonly signer: GuardedSigner;
  readonly journal: Journal;
  readonly orders: TriggerOrders;
  readonly clock: Clock;
  readonly decimalsOf: (mint: string) => number | Promise<number>;
}
