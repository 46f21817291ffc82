/**
 * The link between a deposit we signed and the Trigger V2 order it funded: the deposit event's
 * transaction signature in the order's history. It is the one link that survives a lost create answer
 * or a restart, so both the executor (finding the order its deposit created) and the mirror (telling
 * our orders from foreign ones) read it here.
 */
import { type RecentQuery, recentDcaOrders, recentPriceOrders } from './recentHistory.js';
import { type AuthedJupiterClient } from './transport.js';
import { type DcaHistoryItem, type OrderHistoryItem } from './trigger.js';

/** The signature of the deposit event a history item carries (the order's link to our signed bytes). */
export function depositSignatureOf(item: OrderHistoryItem): string | null {
  return item.events?.find((e) => e.type === 'deposit' && typeof e.txSignature === 'string' && e.txSignature !== '')?.txSignature ?? null;
}

/** The signature of the deposit event a DCA history item carries. */
export function dcaDepositSignatureOf(item: DcaHistoryItem): string | null {
  return item.events?.find((e) => e.type === 'deposit' && typeof e.txSignature === 'string' && e.txSignature !== '')?.txSignature ?? null;
}

/**
 * The history items of the order our deposit `signature` funded: the item carrying the deposit event
 * first, then an OCO's other leg (same funds: same mints, amount, expiry and creation time; it carries
 * no deposit event). Read among the orders of the deposit's mint created since `where.since`
 * (recentHistory.ts: a few pages however long the history). Empty when history does not (yet) show
 * the deposit; a read that could not reach back that far throws.
 */
export async function findOrderByDeposit(
  client: AuthedJupiterClient,
  signature: string,
  where: RecentQuery,
  signal?: AbortSignal,
): Promise<OrderHistoryItem[]> {
  const items = await recentPriceOrders(client, where, { signal });
  const main = items.find((item) => depositSignatureOf(item) === signature);
  if (!main) return [];
  return [main, ...siblingsOf(main, items)];
}

/** The order `orderId` (with an OCO's other leg), read the same bounded way; empty when history does not show it. */
export async function findPriceOrder(client: AuthedJupiterClient, orderId: string, where: RecentQuery, signal?: AbortSignal): Promise<OrderHistoryItem[]> {
  const items = await recentPriceOrders(client, where, { signal });
  const main = items.find((item) => item.id === orderId);
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

/** The DCA order our deposit `signature` funded (one item, DCA has no legs), or undefined; read the same bounded way. */
export async function findDcaOrderByDeposit(
  client: AuthedJupiterClient,
  signature: string,
  where: RecentQuery,
  signal?: AbortSignal,
): Promise<DcaHistoryItem | undefined> {
  const items = await recentDcaOrders(client, where, { signal });
  return items.find((item) => dcaDepositSignatureOf(item) === signature);
}
