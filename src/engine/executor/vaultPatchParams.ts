/**
 * `patch-vault-order` as the journal stores it: `PATCH /trigger/v2/orders/price/{orderId}` with the
 * absolute prices to set (a ratchet raising its stop). Absolute values, never deltas: the same PATCH
 * made twice leaves the order as once, which is what lets the executor repeat it after a crash.
 */
import { z } from 'zod';
import type { PatchVaultOrderIntent } from '../../strategies/intents.js';
import type { PlanInput } from '../../store/journal.js';
import { parseJournalParams } from './journalParams.js';
import { journalEntry, type IntentRoute } from './intentRoute.js';

export const VAULT_PATCH_KIND = 'patch-vault-order';

const Usd = z.string().regex(/^\d+(\.\d+)?$/);

const VaultPatchParams = z
  .strictObject({
    orderId: z.string().min(1).max(128),
    orderType: z.enum(['single', 'oco', 'otoco']),
    triggerPriceUsd: Usd.optional(),
    tpPriceUsd: Usd.optional(),
    slPriceUsd: Usd.optional(),
    strategyHash: z.string().optional(),
  })
  .refine((p) => p.triggerPriceUsd !== undefined || p.tpPriceUsd !== undefined || p.slPriceUsd !== undefined, 'nothing to change: no triggerPriceUsd, tpPriceUsd or slPriceUsd');
export type VaultPatchParams = z.output<typeof VaultPatchParams>;

/** The journal entry for a decided PATCH. */
export function vaultPatchPlan(intent: PatchVaultOrderIntent): PlanInput {
  return journalEntry(intent, VAULT_PATCH_KIND, {
    orderId: intent.orderId,
    orderType: intent.orderType,
    ...(intent.triggerPriceUsd === undefined ? {} : { triggerPriceUsd: intent.triggerPriceUsd }),
    ...(intent.tpPriceUsd === undefined ? {} : { tpPriceUsd: intent.tpPriceUsd }),
    ...(intent.slPriceUsd === undefined ? {} : { slPriceUsd: intent.slPriceUsd }),
  });
}

/** `patch-vault-order` → the journal (executed by vaultPatchHandler.ts). */
export const patchVaultOrderRoute: IntentRoute<'patch-vault-order'> = { kind: 'patch-vault-order', plan: vaultPatchPlan };

export function parseVaultPatchParams(params: unknown): VaultPatchParams {
  return parseJournalParams(VaultPatchParams, VAULT_PATCH_KIND, params);
}
