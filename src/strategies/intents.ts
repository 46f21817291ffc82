/**
 * What a decide() function asks for: plain data the executor (engine/executor) turns into Jupiter
 * calls. Amounts are bigint base units (contracts in micro-units for prediction), USD prices are
 * decimal strings, times are UTC epoch ms. Nothing here performs or schedules I/O.
 */

/** The identity the executor hashes: the same key is the same intent, so it is acted on once. */
export interface IntentKey {
  readonly strategy: string;
  /** sha256 of the strategy file text the intent was decided under. */
  readonly version: string;
  /** The rule inside the strategy: `take_profit[0]`, `stop_loss`, `run`, a prediction rule id… */
  readonly rule: string;
  /** What made it fire once: a scheduled instant (ISO), an arming generation, a position… */
  readonly trigger: string;
}

/** The snapshot data that fired an intent, recorded in its audit row ("why did it sell?"). */
export type Evidence = Readonly<Record<string, string | number | boolean | null>>;

interface IntentBase {
  readonly key: IntentKey;
  /** `strategy/version12/rule/trigger`: {@link intentId} of the key. */
  readonly id: string;
  /** One plain sentence: what and why. */
  readonly reason: string;
  readonly evidence: Evidence;
}

/** The body of `POST /trigger/v2/orders/price` the daemon controls (deposit fields are the executor's). */
export interface VaultOrderParams {
  readonly orderType: 'single' | 'oco' | 'otoco';
  readonly inputMint: string;
  readonly inputDecimals: number;
  readonly outputMint: string;
  readonly inputAmount: bigint;
  readonly triggerMint: string;
  readonly triggerCondition?: 'above' | 'below';
  readonly triggerPriceUsd?: string;
  readonly trailingBps?: number;
  readonly tpPriceUsd?: string;
  readonly slPriceUsd?: string;
  /** A single order's, or an OTOCO's buy. */
  readonly slippageBps?: number;
  /** The take-profit and stop-loss legs of an OCO, or an OTOCO's children. */
  readonly tpSlippageBps?: number;
  readonly slSlippageBps?: number;
  /** Unix ms; Trigger V2 requires one. */
  readonly expiresAt: number;
}

export interface PlaceVaultOrderIntent extends IntentBase {
  readonly kind: 'place-vault-order';
  readonly order: VaultOrderParams;
}

/** `PATCH /orders/price/{id}`: a ratchet raising its stop, or an edit's new slippage, for instance. */
export interface PatchVaultOrderIntent extends IntentBase {
  readonly kind: 'patch-vault-order';
  readonly orderId: string;
  readonly orderType: 'single' | 'oco' | 'otoco';
  readonly triggerPriceUsd?: string;
  readonly tpPriceUsd?: string;
  readonly slPriceUsd?: string;
  readonly slippageBps?: number;
  readonly tpSlippageBps?: number;
  readonly slSlippageBps?: number;
}

export interface CancelVaultOrderIntent extends IntentBase {
  readonly kind: 'cancel-vault-order';
  readonly orderId: string;
  readonly family: 'price' | 'dca';
}

/**
 * Replace an order before its `expiresAt`: PATCH cannot change the expiry, so the
 * executor cancels `orderId` (withdrawing its deposit) and places `replacement`.
 */
export interface RenewVaultOrderIntent extends IntentBase {
  readonly kind: 'renew-vault-order';
  readonly orderId: string;
  readonly replacement: VaultOrderParams;
}

/** A local swap through `/swap/v2/order` + `/execute`. */
export interface SwapIntent extends IntentBase {
  readonly kind: 'swap';
  readonly inputMint: string;
  readonly inputDecimals: number;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly slippageBps?: number;
  /** The executor refuses a quote whose price impact exceeds this. */
  readonly maxPriceImpactBps?: number;
  /**
   * A price rule's trigger: the feed's USD price of the input token that fired it. The executor
   * refuses a quote whose own price is further from it than `maxQuoteDeviationBps`: a feed that lies
   * (or lags a jump) must not sell at a price nobody offers.
   */
  readonly feedPriceUsd?: string;
  readonly maxQuoteDeviationBps?: number;
}

/** `POST /trigger/v2/orders/dca`. `inputAmount` is the total; each round gets inputAmount / orderCount. */
export interface PlaceDcaVaultOrderIntent extends IntentBase {
  readonly kind: 'place-dca-vault-order';
  readonly inputMint: string;
  readonly inputDecimals: number;
  readonly outputMint: string;
  readonly inputAmount: bigint;
  readonly orderCount: number;
  readonly intervalSeconds: number;
  readonly orderType: 'time_based' | 'price_conditional';
  readonly minPriceUsd?: string;
  readonly maxPriceUsd?: string;
  readonly triggerMint?: string;
}

/** `DELETE /prediction/v1/positions/{pubkey}`: sell the whole position. */
export interface SellPositionIntent extends IntentBase {
  readonly kind: 'sell-position';
  readonly positionPubkey: string;
  readonly marketId: string;
  readonly isYes: boolean;
  readonly contractsMicro: bigint;
  /** The lowest acceptable price per contract; the executor checks the build against it. */
  readonly minSellPriceMicroUsd?: bigint;
}

/** `POST /prediction/v1/orders` with `isBuy: false` and `contractsMicro`. */
export interface PartialSellIntent extends IntentBase {
  readonly kind: 'partial-sell';
  readonly positionPubkey: string;
  readonly marketId: string;
  readonly isYes: boolean;
  readonly contractsMicro: bigint;
  readonly minSellPriceMicroUsd?: bigint;
}

/** `POST /prediction/v1/positions/{pubkey}/claim`. */
export interface ClaimPositionIntent extends IntentBase {
  readonly kind: 'claim-position';
  readonly positionPubkey: string;
  readonly marketId: string;
}

export type Intent =
  | PlaceVaultOrderIntent
  | PatchVaultOrderIntent
  | CancelVaultOrderIntent
  | RenewVaultOrderIntent
  | SwapIntent
  | PlaceDcaVaultOrderIntent
  | SellPositionIntent
  | PartialSellIntent
  | ClaimPositionIntent;

export type IntentKind = Intent['kind'];

/** A rule that would act but is held back, and why (risk limit, guard, trading status…). */
export interface Hold {
  readonly rule: string;
  readonly reason: string;
  readonly evidence?: Evidence;
  /**
   * Set on a hold the operator should hear of once rather than at every decision (an API value
   * that does not read): the engine logs it once per strategy, rule and this key, again only after
   * a decision without it.
   */
  readonly logOnce?: string;
}

/** What one decide() call returns. */
export interface Decision {
  readonly intents: readonly Intent[];
  readonly holds: readonly Hold[];
  /**
   * DCA: the latest scheduled instant this decision accounted for (run, skipped or held). The
   * engine stores it as `state.lastScheduledRun` so a run is considered exactly once.
   */
  readonly scheduledThrough?: number;
}

/** Deterministic, readable id of a key; the executor hashes it for its journal. */
export function intentId(key: IntentKey): string {
  return `${key.strategy}/${key.version.slice(0, 12)}/${key.rule}/${key.trigger}`;
}

/**
 * The version-free part of a key, `rule/trigger`: what `state.handled` holds. An edit changes the
 * version, and a rule that already acted (an order placed, a position sold, a run made) must not
 * act again just because its file was saved.
 */
export function intentSlot(key: Pick<IntentKey, 'rule' | 'trigger'>): string {
  return `${key.rule}/${key.trigger}`;
}

export function makeKey(strategy: { name: string; hash: string }, rule: string, trigger: string): { key: IntentKey; id: string; slot: string } {
  const key = { strategy: strategy.name, version: strategy.hash, rule, trigger };
  return { key, id: intentId(key), slot: intentSlot(key) };
}
