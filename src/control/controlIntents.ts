/**
 * The intents the engine makes on the operator's behalf, taken by the decide loop before any
 * strategy decides, even while halted (like the stranded withdrawals):
 *
 * - `halt --cancel-orders`: a `cancel-vault-order` for every live vault and DCA order of ours;
 * - `halt --close-positions`: a `sell-position` for every prediction position the wallet holds that
 *   can be sold now (positionSales.ts says which, and why the others are left);
 * - `on_remove`: the live orders of a strategy whose file was removed or that is `enabled: false`
 *   are cancelled (`on_remove: cancel`, the default) or left working and said once (`keep`).
 *
 * Every id is deterministic (`<strategy>/control/<why>/<order>`, a sale's with its halt's time:
 * positionSales.ts), so the journal's insert makes them idempotent: the same order is never
 * cancelled twice, and a restart finds the intents and resumes them. The two-step cancel and its
 * withdrawal are the executor's own. A cancel's id needs no halt in it: an order id is Jupiter's
 * (a UUID) and never names another order, and an order cancelled once is no longer listed
 * (controlOrders.ts); adding the halt's time would also take a 64-character strategy name with a
 * retry's suffix past the intents table's 128 characters.
 *
 * Attribution. A cancelled order keeps the strategy that placed it: its fills, P&L and audit rows
 * are that strategy's, and the withdrawal that closes its story belongs with them. A position has no
 * such owner (it may have been bought outside jupbot, and several prediction exits may select the
 * same one), and no strategy decided to sell it: the operator did. Its sale is attributed to
 * {@link OPERATOR}, a name no strategy file can take (strategy names have no dot), so the audit log
 * reads "sold at the operator's request", never as a strategy's decision.
 */
import { parse } from 'yaml';
import type { Position } from '../jupiter/schemas/prediction.js';
import type { CancelVaultOrderIntent, Intent } from '../strategies/intents.js';
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';
import type { Halt } from './controlState.js';
import type { CancellableOrder } from './controlOrders.js';
import { OPERATOR, saleFate, saleOf, type SaleInputs } from './positionSales.js';

export { OPERATOR };

export interface ControlIntent {
  readonly strategy: string;
  readonly intent: Intent;
}

/** A live order of a strategy that no longer runs (or runs disabled) and whose `on_remove` is `keep`. */
export interface KeptOrder {
  readonly order: CancellableOrder;
  readonly why: string;
}

export interface ControlInputs {
  readonly halted: Halt | null;
  readonly orders: readonly CancellableOrder[];
  /** The strategies running now, by name. */
  readonly active: ReadonlyMap<string, LoadedStrategy>;
  /**
   * The last applied text of a strategy that is not running, and whether its file is still in the
   * strategies dir (an edit rejected: the strategy is broken, not removed); undefined when unknown.
   */
  readonly lastApplied: (strategy: string) => { readonly yaml: string; readonly filePresent: boolean } | undefined;
  /** The wallet's prediction positions as last read; undefined when not read. */
  readonly positions: readonly Position[] | undefined;
  /** How many strategy files the strategies dir held at its last scan (valid or not). */
  readonly filesSeen: number;
  /** What says whether a position can be sold now: its market's status and the sales in flight. */
  readonly sales: SaleInputs;
}

export interface ControlPlan {
  readonly intents: readonly ControlIntent[];
  readonly kept: readonly KeptOrder[];
}

/** What the operator's controls and the strategies' `on_remove` ask for now. */
export function controlIntents(inputs: ControlInputs): ControlPlan {
  const intents: ControlIntent[] = [];
  const kept: KeptOrder[] = [];
  const { halted } = inputs;
  for (const order of inputs.orders) {
    if (halted?.cancelOrders) {
      intents.push({ strategy: order.strategy, intent: cancelOf(order, 'halt', `the operator halted the daemon and asked for every order to be cancelled`) });
      continue;
    }
    const gone = removal(order.strategy, inputs);
    if (gone === null) continue;
    if (gone.onRemove === 'keep') kept.push({ order, why: gone.why });
    else intents.push({ strategy: order.strategy, intent: cancelOf(order, 'remove', `${gone.why} (on_remove: cancel)`) });
  }
  if (halted?.closePositions) {
    for (const position of inputs.positions ?? []) {
      if (saleFate(position, inputs.sales) === 'sell') intents.push({ strategy: OPERATOR, intent: saleOf(position, halted) });
    }
  }
  return { intents, kept };
}

/** Why the strategy's orders no longer have a strategy to look after them, and its `on_remove`; null while it runs enabled. */
function removal(strategy: string, inputs: ControlInputs): { why: string; onRemove: 'cancel' | 'keep' } | null {
  const running = inputs.active.get(strategy);
  if (running !== undefined)
    return running.spec.enabled ? null : { why: `strategy ${strategy} is disabled (enabled: false)`, onRemove: running.spec.on_remove };
  // No strategy file at all (a volume not mounted, a deploy that empties the directory before it
  // copies): far more likely an accident than every strategy removed on purpose. Their orders are
  // left working; `jupbot halt --cancel-orders` is how every order is cancelled on purpose.
  if (inputs.filesSeen === 0) return null;
  const last = inputs.lastApplied(strategy);
  // A file whose new text is rejected is broken, not removed: its orders wait for the fix.
  if (last?.filePresent) return null;
  return { why: `strategy ${strategy} was removed`, onRemove: last === undefined ? 'cancel' : onRemoveOf(last.yaml) };
}

/** `on_remove` of a strategy text that was applied (so it parsed and was valid then); the default otherwise. */
export function onRemoveOf(yaml: string): 'cancel' | 'keep' {
  try {
    const doc: unknown = parse(yaml);
    if (typeof doc === 'object' && doc !== null && (doc as Record<string, unknown>)['on_remove'] === 'keep') return 'keep';
  } catch {
    // It was applied, so it parsed; if it no longer does, the default holds.
  }
  return 'cancel';
}

function cancelOf(order: CancellableOrder, why: 'halt' | 'remove', reason: string): CancelVaultOrderIntent {
  return {
    kind: 'cancel-vault-order',
    key: { strategy: order.strategy, version: 'control', rule: why, trigger: order.id },
    id: `${order.strategy}/control/${why}/${order.id}`,
    reason: `cancel ${order.family} order ${order.id}: ${reason}`,
    evidence: { orderId: order.id, state: order.state, remaining: order.remaining, mint: order.input_mint, placedBy: order.intent_id },
    orderId: order.id,
    family: order.family,
  };
}
