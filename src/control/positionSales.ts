/**
 * Which prediction positions `halt --close-positions` sells, and the operator's sale of one.
 *
 * The positions feed lists settled, unclaimed positions too, and a position a strategy is already
 * selling. Selling those would fail at the keeper (with its fee), be retried without end, or sell a
 * second time; and a `--wait` that counted them would never be done. So a position is sold only as
 * a prediction exit would sell it (strategies/decidePredictionExit.ts): contracts held, not
 * claimable and not claimed, its market open; and only when no sale of it is in flight.
 *
 * The sale's id carries the halt's `since` (`operator.control/control/close/<since>/<pubkey>`). A
 * position account is derived from the wallet, the market and the side: after a sale, a resume and
 * a new buy of the same side, the same account holds again, and an id without the halt would be
 * answered "done" by the journal forever. Within one halt `since` does not change (a halt asked
 * again keeps its first time, and a restart reads it back), so a restart finds the same ids and
 * nothing is sold twice. Length: 31 + 13 (epoch ms) + 1 + 44 (a base58 pubkey at most) = 89
 * characters, well inside the intents table's 128 with a retry's `~rN`.
 */
import type { Position } from '../jupiter/schemas/prediction.js';
import type { SellPositionIntent } from '../strategies/intents.js';
import type { Halt } from './controlState.js';

/** Who a sale of a position at the operator's request is attributed to (no strategy name has a dot). */
export const OPERATOR = 'operator.control';

/** What a halt that closes positions does with one: sell it now, or why not. */
export type SaleFate =
  /** Sellable: the operator's sale is asked for. */
  | 'sell'
  /** Nothing to sell: no contracts, or already claimed. */
  | 'none'
  /** Settled and claimable: claiming is a strategy's (`claim_when_settled`) or a later matter. */
  | 'claimable'
  /** Its market is not open (closed or cancelled): there is nothing to sell into. */
  | 'closed'
  /** A sale of it is in flight (a strategy's journaled sell, or an order on the venue). */
  | 'selling'
  /** Its market's status is not read yet: sold once it reads open. */
  | 'unread';

export interface SaleInputs {
  /** Market statuses by id as last read (`open`, `closed`, `cancelled`…); undefined when not read. */
  readonly marketStatus: (marketId: string) => string | undefined;
  /** Positions with a strategy's sell (`sell-position`, `partial-sell`) journaled and not final. */
  readonly selling: ReadonlySet<string>;
}

export function saleFate(position: Position, inputs: SaleInputs): SaleFate {
  const contracts = position.contractsMicro ?? 0n;
  if (contracts <= 0n || position.claimed === true) return 'none';
  if (position.claimable === true) return 'claimable';
  const status = inputs.marketStatus(position.marketId) ?? position.marketMetadata?.status ?? undefined;
  if (status === undefined) return 'unread';
  if (status !== 'open') return 'closed';
  if (inputs.selling.has(position.pubkey) || (position.openOrders ?? 0) > 0) return 'selling';
  return 'sell';
}

/** The counts of a halt's positions by fate (`none` left out). */
export type SaleCounts = Readonly<Record<Exclude<SaleFate, 'none'>, number>>;

export function saleCounts(positions: readonly Position[], inputs: SaleInputs): SaleCounts {
  const counts = { sell: 0, claimable: 0, closed: 0, selling: 0, unread: 0 };
  for (const position of positions) {
    const fate = saleFate(position, inputs);
    if (fate !== 'none') counts[fate] += 1;
  }
  return counts;
}

/** The operator's sale of a sellable position, under the halt it belongs to. No price floor: the operator asked to get out. */
export function saleOf(position: Position, halt: Halt): SellPositionIntent {
  const contracts = position.contractsMicro ?? 0n;
  const side = position.isYes ? 'YES' : 'NO';
  const trigger = `${halt.since}/${position.pubkey}`;
  return {
    kind: 'sell-position',
    key: { strategy: OPERATOR, version: 'control', rule: 'close', trigger },
    id: `${OPERATOR}/control/close/${trigger}`,
    reason: `sell the ${side} position in ${position.marketId}: the operator halted the daemon and asked for every position to be closed`,
    evidence: {
      positionPubkey: position.pubkey,
      marketId: position.marketId,
      isYes: position.isYes,
      contractsMicro: contracts.toString(),
      haltSince: halt.since,
    },
    positionPubkey: position.pubkey,
    marketId: position.marketId,
    isYes: position.isYes,
    contractsMicro: contracts,
  };
}
