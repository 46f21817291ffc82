/**
 * The control channel's protocol: a unix socket `<data_dir>/control.sock` (mode 0600: only the
 * daemon's user may connect), one JSON request per line, one JSON answer per line for each.
 *
 * A unix socket rather than an HTTP route: the operations port is read-only by design (it may be
 * exposed to a monitoring network), and a socket file in the private data directory is guarded by
 * the file system's own permissions, with no token to leak.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { ControlStatus } from './controlState.js';
import type { LiveLeft } from './controlOrders.js';

export const CONTROL_SOCKET = 'control.sock';

export const controlSocketPath = (dataDir: string): string => join(dataDir, CONTROL_SOCKET);

const by = z.string().min(1).max(200);
const reason = z.string().max(500);

export const ControlRequest = z.discriminatedUnion('command', [
  z.strictObject({ command: z.literal('halt'), by, reason, cancelOrders: z.boolean(), closePositions: z.boolean() }),
  /** `protections`: also clear every account-wide protection that tripped (a drawdown clears only this way). */
  z.strictObject({ command: z.literal('resume'), by, protections: z.boolean().optional() }),
  z.strictObject({ command: z.literal('pause'), by, reason, strategy: z.string().min(1).max(64) }),
  z.strictObject({ command: z.literal('resume-strategy'), by, strategy: z.string().min(1).max(64) }),
  /** The state and what is left live, for a command that waits for the cancels. */
  z.strictObject({ command: z.literal('status') }),
]);
export type ControlRequest = z.output<typeof ControlRequest>;

/** What is left of ours that a halt cancels or sells. */
export interface ControlLeft extends LiveLeft {
  /**
   * Prediction positions held as last read that a halt sells (null: not read): those it can sell
   * now, and those whose market is not read yet. The others are counted apart (positionSales.ts).
   */
  readonly positions: number | null;
  /** Position sales journaled and not finished. */
  readonly sales: number;
  /** Positions with a sale already in flight (a strategy's, or an order on the venue): sold or back to sell soon. */
  readonly selling: number;
  /** Positions left unsold: settled and claimable (a claim is a strategy's or a later matter). */
  readonly claimable: number;
  /** Positions left unsold: their market is not open, so there is nothing to sell into. */
  readonly closed: number;
}

export type ControlAnswer =
  | {
      readonly ok: true;
      readonly changed: boolean;
      readonly status: ControlStatus;
      readonly left: ControlLeft;
      readonly strategies: readonly string[];
      /** The protections a `resume` with `protections` cleared (absent from other answers). */
      readonly cleared?: readonly string[];
    }
  | { readonly ok: false; readonly error: string };
