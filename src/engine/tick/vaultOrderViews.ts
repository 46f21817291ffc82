/**
 * The snapshot's `vaultOrders`: per strategy, the Trigger V2 orders it placed that may still fill,
 * as decide() sees them (snapshot.ts VaultOrderView). Two sources, read from the database at each
 * tick rather than from the API, because the database is what knows which rule placed an order:
 *
 * - the `trigger_orders` mirror (updated from order history on every orders poll), one view per
 *   placing intent: an OCO's two legs share one deposit and one intent, so only the leg the intent
 *   recorded as its order (`intents.order_id`) is shown — renewing or cancelling it acts on both;
 *   with the slippage the journal says we last gave it and its legs (history shows an OTOCO's
 *   children only once they exist);
 * - placements journaled but not yet mirrored (planned, signed, sent or expired-and-retrying), shown
 *   in state `pending` with the intent's id: the rule counts as armed, so neither a slow API nor a
 *   hot reload can make decide() place it twice, and a renewal's replacement is visible as soon as
 *   it is journaled.
 */
import type { Db } from '../../store/db.js';
import { readSinceJournalChange } from '../../store/tableVersions.js';
import { liveOrderRows, type PendingPlacementRow, pendingPlacementRows } from '../../store/vaultOrderRecords.js';
import { parseFixed } from '../../money/decimal.js';
import type { VaultOrderView } from '../../strategies/snapshot.js';

const PRICE_TYPES = new Set(['single', 'oco', 'otoco']);
const DCA_TYPES = new Set(['time_based', 'price_conditional']);

/** The views, read again only after this connection wrote to `intents` or `trigger_orders` (tableVersions.ts). */
export function vaultOrderViews(db: Db): ReadonlyMap<string, readonly VaultOrderView[]> {
  return readSinceJournalChange(db, 'vault order views', () => readVaultOrderViews(db));
}

function readVaultOrderViews(db: Db): Map<string, VaultOrderView[]> {
  const out = new Map<string, VaultOrderView[]>();
  const add = (strategy: string, view: VaultOrderView): void => {
    const list = out.get(strategy);
    if (list) list.push(view);
    else out.set(strategy, [view]);
  };
  for (const row of liveOrderRows(db)) {
    add(row.strategy, {
      id: row.id,
      rule: row.rule,
      family: row.family,
      orderType: row.order_type,
      state: row.state,
      expiresAt: row.expires_at,
      triggerPriceUsd: row.trigger_price_usd === null ? null : (parseFixed(row.trigger_price_usd) ?? null),
      trailingBps: row.trailing_bps,
      // What a cancel would withdraw, and so what a renewal re-deposits.
      inputAmount: BigInt(row.remaining_input_amount ?? row.input_amount),
      ...(row.family === 'price'
        ? { slippage: { slippageBps: row.slippage_bps, tpSlippageBps: row.tp_slippage_bps, slSlippageBps: row.sl_slippage_bps } }
        : {}),
    });
  }
  for (const row of pendingPlacementRows(db)) add(row.strategy, pendingView(row));
  return out;
}

/** A journaled placement as an order in state `pending`, from its params (the journal's own shape). */
function pendingView(row: PendingPlacementRow): VaultOrderView {
  const { params } = row;
  const text = (key: string): string | undefined => (typeof params[key] === 'string' ? params[key] : undefined);
  const family = row.kind === 'place-dca-vault-order' ? 'dca' : 'price';
  const types = family === 'dca' ? DCA_TYPES : PRICE_TYPES;
  const orderType = text('orderType');
  const amount = text('inputAmount');
  const trigger = text('triggerPriceUsd');
  return {
    id: row.id,
    rule: row.rule,
    family,
    orderType: (orderType !== undefined && types.has(orderType) ? orderType : family === 'dca' ? 'time_based' : 'single') as VaultOrderView['orderType'],
    state: 'pending',
    expiresAt: typeof params.expiresAt === 'number' ? params.expiresAt : null,
    triggerPriceUsd: trigger === undefined ? null : (parseFixed(trigger) ?? null),
    trailingBps: typeof params.trailingBps === 'number' ? params.trailingBps : null,
    inputAmount: amount !== undefined && /^\d+$/.test(amount) ? BigInt(amount) : 0n,
  };
}
