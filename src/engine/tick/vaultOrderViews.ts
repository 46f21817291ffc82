/**
 * The snapshot's `vaultOrders`: per strategy, the Trigger V2 orders it placed that may still fill,
 * as decide() sees them (snapshot.ts VaultOrderView). Two sources, read from the database at each
 * tick rather than from the API, because the database is what knows which rule placed an order:
 *
 * - the `trigger_orders` mirror (updated from order history on every orders poll), one view per
 *   placing intent: an OCO's two legs share one deposit and one intent, so only the leg the intent
 *   recorded as its order (`intents.order_id`) is shown — renewing or cancelling it acts on both;
 * - placements journaled but not yet mirrored (planned, signed, sent or expired-and-retrying), shown
 *   in state `pending` with the intent's id: the rule counts as armed, so neither a slow API nor a
 *   hot reload can make decide() place it twice, and a renewal's replacement is visible as soon as
 *   it is journaled.
 */
import type { Db } from '../../store/db.js';
import { statement } from '../../store/statementCache.js';
import { parseFixed } from '../../strategies/decimal.js';
import type { VaultOrderView } from '../../strategies/snapshot.js';

interface MirrorRow {
  id: string;
  strategy: string;
  rule: string;
  family: 'price' | 'dca';
  order_type: VaultOrderView['orderType'];
  state: string;
  expires_at: number | null;
  trigger_price_usd: string | null;
  trailing_bps: number | null;
  input_amount: string;
  remaining_input_amount: string | null;
}

interface PendingRow {
  id: string;
  strategy: string;
  rule: string;
  kind: string;
  params: string;
}

const MIRRORED = `
  SELECT o.id, o.strategy, i.rule, o.family, o.order_type, o.state, o.expires_at, o.trigger_price_usd, o.trailing_bps,
         o.input_amount, o.remaining_input_amount
  FROM trigger_orders o JOIN intents i ON i.id = o.intent_id AND i.order_id = o.id
  WHERE o.adopted = 0 AND o.strategy IS NOT NULL AND i.rule IS NOT NULL
    AND o.state IN ('pending', 'open', 'active', 'executing', 'pending_withdraw', 'unknown')
  ORDER BY o.created_at, o.id`;

const PENDING = `
  SELECT i.id, i.strategy, i.rule, i.kind, i.params FROM intents i
  WHERE i.state IN ('planned', 'signed', 'sent', 'expired') AND i.kind IN ('place-vault-order', 'place-dca-vault-order')
    AND i.strategy IS NOT NULL AND i.rule IS NOT NULL
  ORDER BY i.created_at, i.id`;

const PRICE_TYPES = new Set(['single', 'oco', 'otoco']);
const DCA_TYPES = new Set(['time_based', 'price_conditional']);

export function vaultOrderViews(db: Db): Map<string, VaultOrderView[]> {
  const out = new Map<string, VaultOrderView[]>();
  const add = (strategy: string, view: VaultOrderView): void => {
    const list = out.get(strategy);
    if (list) list.push(view);
    else out.set(strategy, [view]);
  };
  for (const row of statement(db, MIRRORED).all() as MirrorRow[]) {
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
    });
  }
  for (const row of statement(db, PENDING).all() as PendingRow[]) add(row.strategy, pendingView(row));
  return out;
}

/** A journaled placement as an order in state `pending`, from its params (the journal's own shape). */
function pendingView(row: PendingRow): VaultOrderView {
  const params = JSON.parse(row.params) as Record<string, unknown>;
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
