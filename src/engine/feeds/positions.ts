/**
 * The positions feed of one wallet: every open (or settled, unclaimed) prediction position, all
 * pages of `GET /prediction/v1/positions?ownerPubkey=…`, at state-polling priority. One feed per
 * wallet (give each a `name`), so one wallet's failure does not age another's data. Money in the positions is micro-USD
 * `bigint`, as the client parses it.
 */
import type { Clock } from '../../clock.js';
import { getAllPositions } from '../../jupiter/prediction.js';
import type { Position } from '../../jupiter/schemas/prediction.js';
import { type JupiterClient, Priority } from '../../jupiter/transport.js';
import type { Logger } from '../../ops/log.js';
import { createPoller, type Poller } from './poller.js';

export type { Position } from '../../jupiter/schemas/prediction.js';

export interface PositionsFeedOptions {
  readonly client: JupiterClient;
  readonly clock: Clock;
  /** `poll.positions` from the config. */
  readonly intervalMs: number;
  /** The owner's public key (base58). */
  readonly wallet: string;
  /** Page size of `/positions`. @default 50 */
  readonly pageSize?: number;
  readonly log?: Logger | undefined;
  /** Why the feed must not poll now (its API area is off, or nothing needs it), else null (poller.ts). */
  readonly paused?: (() => string | null) | undefined;
  /** The feed's name in /readyz, metrics and alerts. @default 'positions' (name each feed when there are several wallets) */
  readonly name?: string;
}

export function createPositionsFeed(options: PositionsFeedOptions): Poller<readonly Position[]> {
  const { client, wallet, pageSize = 50 } = options;
  return createPoller<readonly Position[]>({
    name: options.name ?? 'positions',
    intervalMs: options.intervalMs,
    clock: options.clock,
    log: options.log,
    paused: options.paused,
    poll: (signal) => getAllPositions(client, { ownerPubkey: wallet, pageSize }, { priority: Priority.PollState, signal }),
  });
}
