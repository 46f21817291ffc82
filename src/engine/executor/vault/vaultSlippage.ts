/**
 * The slippage a vault price order carries, and the cap on it. Trigger V2 gives a leg of an OCO or
 * OTOCO sent without its own slippage its default (up to 2000 bps for a stop-loss), so every create
 * call names each leg's; nothing above the operator's cap is signed or sent.
 */
import { IntentRefusedError } from '../errors.js';

/** The vault slippage cap, for the handlers that set an order's slippage (place, PATCH). */
export interface VaultSlippageCap {
  /** The most slippage (bps) a price order or one of its legs may carry: `guard.max_vault_slippage_bps`, else `guard.max_slippage_bps`. */
  readonly maxSlippageBps: number;
}

/** Slippage fields of a create or PATCH body. */
export interface SlippageFields {
  slippageBps?: number | undefined;
  tpSlippageBps?: number | undefined;
  slSlippageBps?: number | undefined;
}

/**
 * The slippage the create call sends: a single order's own, an OCO's legs', an OTOCO's own (its buy)
 * and its legs'. A leg the row gives none takes the row's `slippageBps` (rows journaled before legs
 * carried their own), else the cap: never Jupiter's default.
 */
export function sentSlippage(params: { readonly orderType: 'single' | 'oco' | 'otoco' } & Readonly<SlippageFields>, cap: number): SlippageFields {
  const own = params.slippageBps ?? cap;
  if (params.orderType === 'single') return { slippageBps: own };
  const legs = { tpSlippageBps: params.tpSlippageBps ?? own, slSlippageBps: params.slSlippageBps ?? own };
  return params.orderType === 'oco' ? legs : { slippageBps: own, ...legs };
}

/** Refuses slippage above the vault cap (VAULT_SLIPPAGE_EXCEEDS_CAP), naming every field over it. */
export function refuseOverCap(slippage: Readonly<SlippageFields>, cap: number): void {
  const over = Object.entries(slippage).filter(([, bps]) => bps !== undefined && bps > cap);
  if (over.length === 0) return;
  throw new IntentRefusedError(
    'VAULT_SLIPPAGE_EXCEEDS_CAP',
    `${over.map(([field, bps]) => `${field} ${String(bps)}`).join(', ')} above the vault slippage cap of ${cap} bps`,
    { ...Object.fromEntries(over), cap },
  );
}
