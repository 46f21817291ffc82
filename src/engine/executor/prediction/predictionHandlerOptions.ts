/** What every prediction handler is built with. */
import type { Clock } from '../../../clock.js';
import type { JupiterClient } from '../../../jupiter/transport.js';
import type { GuardedSigner } from '../../../solana/guardedSigner.js';
import type { SolanaRpc } from '../../../solana/rpc.js';
import type { Journal } from '../../../store/journal.js';

export interface PredictionHandlerOptions {
  /** The Jupiter client (prediction needs the API key only). */
  readonly client: JupiterClient;
  readonly rpc: SolanaRpc;
  /** Configured with the prediction program id(s) (`predictionPrograms`), or every build is refused. */
  readonly signer: GuardedSigner;
  readonly journal: Journal;
  readonly clock: Clock;
}
