/**
 * A live vault order's slippage against what its rule asks for now. An order placed before an edit
 * of its rule's `slippage_bps` (or before its legs carried their own, when Trigger V2 gave them its
 * defaults, up to 2000 bps for a stop-loss) is PATCHed to it: Trigger V2's PATCH sets `slippageBps`,
 * `tpSlippageBps` and `slSlippageBps` of an open order.
 */
import type { Evidence, PatchVaultOrderIntent } from './intents.js';
import { makeKey } from './intents.js';
import type { LoadedPriceOrder } from './loadedStrategy.js';
import type { Exit } from './priceOrderExits.js';
import { exitWords } from './priceOrderExits.js';
import type { OrderSlippage, VaultOrderView } from './snapshot.js';

type SlippageField = keyof OrderSlippage;

/** The slippage fields each order type carries: its own, its legs', or both (an OTOCO's buy and children). */
const FIELDS: Readonly<Record<VaultOrderView['orderType'], readonly SlippageField[]>> = {
  single: ['slippageBps'],
  oco: ['tpSlippageBps', 'slSlippageBps'],
  otoco: ['slippageBps', 'tpSlippageBps', 'slSlippageBps'],
  time_based: [],
  price_conditional: [],
};

/**
 * The PATCH giving an open order the slippage its rule asks for, with its slot, or undefined when it
 * has it. One per order and strategy version: an edit may change it again, and a refused PATCH is
 * not repeated (the renewal places the order with the new slippage anyway). An order of another type
 * than the rule now builds (a stop added to a lone take-profit) cannot be PATCHed into it and is left
 * to its renewal.
 */
export function slippagePatch(
  strategy: LoadedPriceOrder,
  exit: Exit,
  live: VaultOrderView,
  evidence: () => Evidence,
): { intent: PatchVaultOrderIntent; slot: string } | undefined {
  const had = live.slippage;
  if (live.state !== 'open' || had === undefined || live.orderType !== exit.vault.orderType) return undefined;
  const changes: Partial<Record<SlippageField, number>> = {};
  for (const field of FIELDS[live.orderType]) {
    const wanted = exit.vault[field];
    if (wanted !== undefined && wanted !== had[field]) changes[field] = wanted;
  }
  const fields = Object.keys(changes) as SlippageField[];
  if (fields.length === 0) return undefined;
  const { key, id, slot } = makeKey(strategy, exit.rule, `slippage:${live.id}@${strategy.hash.slice(0, 12)}`);
  const words = fields.map((f) => `${f} ${had[f] ?? "Jupiter's default"} → ${changes[f] ?? ''}`).join(', ');
  return {
    slot,
    intent: {
      kind: 'patch-vault-order',
      key,
      id,
      reason: `${exitWords(strategy, exit)}: give order ${live.id} the slippage its rule asks for (${words})`,
      evidence: { ...evidence(), ...Object.fromEntries(fields.map((f) => [`previous_${f}`, had[f]])) },
      orderId: live.id,
      orderType: live.orderType,
      ...changes,
    },
  };
}
