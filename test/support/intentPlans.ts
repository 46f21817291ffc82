/**
 * The decided intents the executor tests run, one family each, and their journal entries planned
 * through the daemon's own routes (kindSet.ts), so a test journals exactly what the tick loop would.
 */
import { allKindRoutes } from '../../src/engine/executor/kindSet.js';
import { planOf } from '../../src/engine/executor/intentKind.js';
import type { Position } from '../../src/jupiter/prediction.js';
import type {
  CancelVaultOrderIntent,
  ClaimPositionIntent,
  Intent,
  PartialSellIntent,
  PlaceDcaVaultOrderIntent,
  PlaceVaultOrderIntent,
  SellPositionIntent,
  SwapIntent,
  VaultOrderParams,
} from '../../src/strategies/intents.js';
import type { PlanInput } from '../../src/store/journal.js';
import { SOL, USDC } from './mints.js';

/** The journal entry the daemon writes for `intent`; a route that defers it is a broken test. */
export function plan(intent: Intent): PlanInput {
  const entry = planOf(allKindRoutes(), intent);
  if (entry === undefined) throw new Error(`the ${intent.kind} route deferred ${intent.id}`);
  return entry;
}

/** A strategy key and the intent id the daemon derives from it. */
function keyed(strategy: string, version: string, rule: string, trigger: string): Pick<Intent, 'key' | 'id'> {
  const key = { strategy, version, rule, trigger };
  return { key, id: `${strategy}/${version.slice(0, 12)}/${rule}/${trigger}` };
}

/** A DCA run: 25 USDC → SOL, decided at noon with the price that fired it. */
export function dcaIntent(overrides: Partial<SwapIntent> = {}, trigger = '2026-01-01T12:00:00.000Z'): SwapIntent {
  return {
    kind: 'swap',
    ...keyed('dca-sol', 'ab'.repeat(32), 'run', trigger),
    reason: 'scheduled DCA run',
    evidence: { scheduledAt: trigger, solUsd: '187.25' },
    inputMint: USDC,
    inputDecimals: 6,
    outputMint: SOL,
    amount: 25_000_000n,
    ...overrides,
  };
}

/** 1 SOL sold for USDC when SOL reaches $300: the vault tests' order (its expiry is each test's). */
export const SOL_TAKE_PROFIT: Omit<VaultOrderParams, 'expiresAt'> = {
  orderType: 'single',
  inputMint: SOL,
  inputDecimals: 9,
  outputMint: USDC,
  inputAmount: 1_000_000_000n,
  triggerMint: SOL,
  triggerCondition: 'above',
  triggerPriceUsd: '300',
};

/**
 * 1 SOL into the vault, sold for USDC by a take-profit (single) or a TP/SL pair (oco). `order`
 * overrides the take-profit's fields; a key set to undefined removes that field (an OCO has no
 * trigger price or condition).
 */
export function vaultIntent(order: { [K in keyof VaultOrderParams]?: VaultOrderParams[K] | undefined } = {}, rule = 'take_profit[0]'): PlanInput {
  const fields: Record<string, unknown> = { ...SOL_TAKE_PROFIT, expiresAt: Date.UTC(2026, 0, 8) };
  for (const [k, v] of Object.entries(order)) {
    if (v === undefined) Reflect.deleteProperty(fields, k);
    else fields[k] = v;
  }
  const intent: PlaceVaultOrderIntent = {
    kind: 'place-vault-order',
    ...keyed('tp-sol', 'cd'.repeat(32), rule, 'gen-1'),
    reason: 'take profit on SOL through a vault order',
    evidence: { solUsd: '150' },
    order: fields as unknown as VaultOrderParams,
  };
  return plan(intent);
}

function cancel(strategy: string, version: string, orderId: string, family: CancelVaultOrderIntent['family'], reason: string): PlanInput {
  return plan({ kind: 'cancel-vault-order', ...keyed(strategy, version, 'cancel', orderId), reason, evidence: {}, orderId, family });
}

/** Cancel a price order (two steps). */
export const cancelIntent = (orderId: string): PlanInput => cancel('tp-sol', 'cd'.repeat(32), orderId, 'price', 'cancel the take-profit');

/** A DCA order of `rounds` × 20 USDC into SOL, one round a minute (the strategy file's `execution: vault`). */
export function dcaVaultIntent(overrides: Partial<PlaceDcaVaultOrderIntent> = {}, rounds = 3): PlanInput {
  return plan({
    kind: 'place-dca-vault-order',
    ...keyed('dca-vault', 'ef'.repeat(32), 'vault_dca', 'g0'),
    reason: 'place a DCA order buying SOL',
    evidence: { payBalance: '500000000', perRound: '20000000' },
    inputMint: USDC,
    inputDecimals: 6,
    outputMint: SOL,
    inputAmount: 20_000_000n * BigInt(rounds),
    orderCount: rounds,
    intervalSeconds: 60,
    orderType: 'time_based',
    ...overrides,
  });
}

/** Cancel a DCA order (two steps). */
export const dcaCancelIntent = (orderId: string): PlanInput => cancel('dca-vault', 'ef'.repeat(32), orderId, 'dca', 'stop the DCA');

/** The simulator's live NBA game and its market: the paper wallet holds 20 YES contracts of it. */
export const NBA_EVENT = 'NBA-1001';
export const NBA_MARKET = 'NBA-1001-M1';

const exitKey = (rule: string, position: Position): Pick<Intent, 'key' | 'id'> => keyed('nba-exit', 'ef'.repeat(32), rule, position.pubkey);

export function sellIntent(position: Position, overrides: Partial<SellPositionIntent> = {}, rule = 'lock_in'): PlanInput {
  const intent: SellPositionIntent = {
    kind: 'sell-position',
    ...exitKey(rule, position),
    reason: `${rule}: sell the YES position`,
    evidence: { marketId: position.marketId, score: '80-60' },
    positionPubkey: position.pubkey,
    marketId: position.marketId,
    isYes: position.isYes,
    contractsMicro: position.contractsMicro ?? 0n,
    ...overrides,
  };
  return plan(intent);
}

export function partialIntent(position: Position, contractsMicro: bigint, rule = 'trim'): PlanInput {
  const intent: PartialSellIntent = {
    kind: 'partial-sell',
    ...exitKey(rule, position),
    reason: `${rule}: sell part of the position`,
    evidence: { marketId: position.marketId },
    positionPubkey: position.pubkey,
    marketId: position.marketId,
    isYes: position.isYes,
    contractsMicro,
  };
  return plan(intent);
}

export function claimIntent(position: Position): PlanInput {
  const intent: ClaimPositionIntent = {
    kind: 'claim-position',
    ...exitKey('claim', position),
    reason: 'claim the payout',
    evidence: { marketId: position.marketId, result: 'yes' },
    positionPubkey: position.pubkey,
    marketId: position.marketId,
  };
  return plan(intent);
}
