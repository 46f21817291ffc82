/**
 * Trigger V2 look-ups shared by the vault handlers: our vault (created on first use), and the order a
 * deposit of ours created, found in order history by the deposit's signature — the one link between
 * the bytes we signed and an order that survives a lost answer or a restart.
 */
import { TriggerApiError } from '../../jupiter/errors.js';
import type { AuthedJupiterClient } from '../../jupiter/transport.js';
import { existingVault, getAllOrderHistory, getVault, type OrderHistoryItem, registerVault, type Vault } from '../../jupiter/trigger.js';
import { depositSignatureOf } from '../../store/triggerOrders.js';

/** GET /vault; on 404 register it; a 409 from register (another caller won) carries the existing vault. */
export async function ensureVault(client: AuthedJupiterClient, signal?: AbortSignal): Promise<Vault> {
  try {
    return await getVault(client, { signal });
  } catch (error) {
    if (!(error instanceof TriggerApiError) || error.code !== 'TRIGGER_VAULT_NOT_FOUND') throw error;
  }
  try {
    return await registerVault(client, { signal });
  } catch (error) {
    const existing = existingVault(error);
    if (existing) return existing;
    throw error;
  }
}

/**
 * The history items of the order our deposit `signature` funded: the item carrying the deposit event
 * first, then an OCO's other leg (same funds: same mints, amount, expiry and creation time; it carries
 * no deposit event). Empty when history does not (yet) show the deposit.
 */
export async function findOrderByDeposit(client: AuthedJupiterClient, signature: string, signal?: AbortSignal): Promise<OrderHistoryItem[]> {
  const items = await getAllOrderHistory(client, {}, { signal });
  const main = items.find((item) => depositSignatureOf(item) === signature);
  if (!main) return [];
  return [main, ...siblingsOf(main, items)];
}

/** The items sharing `main`'s deposit (an OCO's stop-loss leg). */
export function siblingsOf(main: OrderHistoryItem, items: readonly OrderHistoryItem[]): OrderHistoryItem[] {
  if (main.orderType !== 'oco') return [];
  return items.filter(
    (item) =>
      item.id !== main.id &&
      item.orderType === 'oco' &&
      depositSignatureOf(item) === null &&
      item.inputMint === main.inputMint &&
      item.outputMint === main.outputMint &&
      item.initialInputAmount === main.initialInputAmount &&
      item.expiresAt === main.expiresAt &&
      item.createdAt === main.createdAt,
  );
}
