/**
 * The Trigger V2 vault intents as the journal stores them (`intents.params`, canonical JSON, amounts
 * as base-unit strings) and back. A restarted daemon resumes from the row alone, so everything the
 * handler needs to place or cancel the order is here.
 */
import { z } from 'zod';
import type { CancelVaultOrderIntent, PlaceVaultOrderIntent } from '../../strategies/intents.js';
import type { PlanInput } from '../../store/journal.js';
import { parseJournalParams } from './journalParams.js';
import { journalEntry, type IntentRoute } from './intentRoute.js';

export const VAULT_PLACE_KIND = 'place-vault-order';
export const VAULT_CANCEL_KIND = 'cancel-vault-order';

const Mint = z.string().min(32).max(44);
const Usd = z.string().regex(/^\d+(\.\d+)?$/);

const VaultPlaceParams = z.strictObject({
  orderType: z.enum(['single', 'oco', 'otoco']),
  inputMint: Mint,
  inputDecimals: z.number().int().min(0).max(255),
  outputMint: Mint,
  inputAmount: z.string().regex(/^[1-9]\d*$/).transform(BigInt),
  triggerMint: Mint,
  triggerCondition: z.enum(['above', 'below']).optional(),
  triggerPriceUsd: Usd.optional(),
  trailingBps: z.number().int().optional(),
  tpPriceUsd: Usd.optional(),
  slPriceUsd: Usd.optional(),
  slippageBps: z.number().int().min(0).max(10_000).optional(),
  expiresAt: z.number().int().positive(),
  strategyHash: z.string().optional(),
});
export type VaultPlaceParams = z.output<typeof VaultPlaceParams>;

const VaultCancelParams = z.strictObject({
  orderId: z.string().min(1).max(128),
  /** Price and DCA orders have different cancel routes; both are two steps. */
  family: z.enum(['price', 'dca']),
  strategyHash: z.string().optional(),
});
export type VaultCancelParams = z.output<typeof VaultCancelParams>;

/** The journal entry for a decided vault order. */
export function vaultPlacePlan(intent: PlaceVaultOrderIntent): PlanInput {
  const o = intent.order;
  return journalEntry(intent, VAULT_PLACE_KIND, {
    orderType: o.orderType,
    inputMint: o.inputMint,
    inputDecimals: o.inputDecimals,
    outputMint: o.outputMint,
    inputAmount: o.inputAmount.toString(),
    triggerMint: o.triggerMint,
    ...(o.triggerCondition === undefined ? {} : { triggerCondition: o.triggerCondition }),
    ...(o.triggerPriceUsd === undefined ? {} : { triggerPriceUsd: o.triggerPriceUsd }),
    ...(o.trailingBps === undefined ? {} : { trailingBps: o.trailingBps }),
    ...(o.tpPriceUsd === undefined ? {} : { tpPriceUsd: o.tpPriceUsd }),
    ...(o.slPriceUsd === undefined ? {} : { slPriceUsd: o.slPriceUsd }),
    ...(o.slippageBps === undefined ? {} : { slippageBps: o.slippageBps }),
    expiresAt: o.expiresAt,
  });
}

/** The journal entry for a decided cancel of a price or DCA order. */
export function vaultCancelPlan(intent: CancelVaultOrderIntent): PlanInput {
  return journalEntry(intent, VAULT_CANCEL_KIND, { orderId: intent.orderId, family: intent.family });
}

/** `place-vault-order` → the journal (executed by vaultPlaceHandler.ts). */
export const placeVaultOrderRoute: IntentRoute<'place-vault-order'> = { kind: 'place-vault-order', plan: vaultPlacePlan };

/** `cancel-vault-order`, price and DCA families alike (executed by vaultCancelHandler.ts). */
export const cancelVaultOrderRoute: IntentRoute<'cancel-vault-order'> = { kind: 'cancel-vault-order', plan: vaultCancelPlan };

export const parseVaultPlaceParams = (params: unknown): VaultPlaceParams => parseJournalParams(VaultPlaceParams, VAULT_PLACE_KIND, params);
export const parseVaultCancelParams = (params: unknown): VaultCancelParams => parseJournalParams(VaultCancelParams, VAULT_CANCEL_KIND, params);
