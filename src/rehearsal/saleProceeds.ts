/**
 * What a rehearsed prediction sale is filled at. Live, a sell transaction only opens an order that a
 * keeper fills later at the price of that moment, never below the order's floor; a rehearsal has no
 * keeper, so it fills the order at once, at the best price Jupiter said the sale would get when it
 * built it:
 *
 * - the build's own notional for exactly these contracts (`order.orderCostUsd`), and the best bid for
 *   our side that the position showed at the same moment (`sellPriceUsd`) times the contracts, the
 *   lower of the two when both are given: Jupiter does not document at which price it computes the
 *   notional of a sale, and a rehearsal that overstates what a sale brings in is the worse error;
 * - with neither, the position's mark (`markPriceUsd`) times the contracts;
 * - with no price at all, or a price below the order's floor (`minSellPriceUsd`), a keeper would fail
 *   the order: nothing is sold.
 *
 * The fee is the build's estimate (`estimatedTotalFeeUsd`), taken from the gross as the keeper takes
 * it; the fill's USDC leg is what would reach the wallet, the fee beside it, as a live fill records
 * a keeper's `order_filled` event.
 */
import type { CreateOrderResponse, Position } from '../jupiter/schemas/prediction.js';

const MICRO = 1_000_000n;

export type SaleBasis = 'build' | 'bid' | 'mark';

export type SaleProceeds =
  | {
      readonly kind: 'filled';
      /** Micro-USD before the fee. */
      readonly grossUsd: bigint;
      readonly feeUsd: bigint;
      /** What the wallet would receive: gross less the fee. */
      readonly netUsd: bigint;
      /** Which figure the gross is: the build's notional, the bid, or the mark. */
      readonly basis: SaleBasis;
    }
  | { readonly kind: 'unfilled'; readonly message: string };

/** `contracts` (micro) at `priceUsd` (micro-USD per contract), in micro-USD, rounded down. */
const valueAt = (contracts: bigint, priceUsd: bigint): bigint => (contracts * priceUsd) / MICRO;

/** The proceeds of selling `contracts` as `order` describes them, the position read when it was built. */
export function saleProceeds(contracts: bigint, order: CreateOrderResponse['order'], position: Pick<Position, 'sellPriceUsd' | 'markPriceUsd'>): SaleProceeds {
  const notional = order.orderCostUsd ?? null;
  const bid = position.sellPriceUsd ?? null;
  const atBid = bid === null ? null : valueAt(contracts, bid);
  let grossUsd: bigint;
  let basis: SaleBasis;
  if (notional !== null && (atBid === null || notional <= atBid)) [grossUsd, basis] = [notional, 'build'];
  else if (atBid !== null) [grossUsd, basis] = [atBid, 'bid'];
  else if (position.markPriceUsd !== null && position.markPriceUsd !== undefined) [grossUsd, basis] = [valueAt(contracts, position.markPriceUsd), 'mark'];
  else return { kind: 'unfilled', message: 'the build states no notional and the position no bid or mark: a keeper would have no price to fill the order at' };
  const floor = order.minSellPriceUsd ?? null;
  // Compared per contract without rounding: gross / contracts < floor.
  if (floor !== null && grossUsd * MICRO < contracts * floor) {
    return {
      kind: 'unfilled',
      message: `the sale would fill at ${grossUsd} micro-USD for ${contracts} micro-contracts (${basis}), below the order's floor of ${floor} micro-USD per contract: a keeper would fail the order`,
    };
  }
  const declared = order.estimatedTotalFeeUsd ?? 0n;
  const feeUsd = declared < grossUsd ? declared : grossUsd;
  return { kind: 'filled', grossUsd, feeUsd, netUsd: grossUsd - feeUsd, basis };
}
