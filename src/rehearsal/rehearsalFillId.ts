/**
 * The id a rehearsed fill is recorded under, in place of the transaction signature a live fill has:
 * one per intent (a fill is unique by id and index), and never a base58 signature, so no audit of a
 * rehearsal database can mistake one of its fills for a transaction on chain.
 */
export const REHEARSAL_FILL_PREFIX = 'rehearsal-';

export function rehearsalFillId(intentId: string): string {
  return `${REHEARSAL_FILL_PREFIX}${intentId}`;
}

/**
 * The id of the `n`th fill (from 0) of a rehearsal's simulated vault order: its own per fill, as a
 * keeper's transaction is. The order's id already carries the prefix.
 */
export function rehearsalOrderFillId(orderId: string, n: number): string {
  return `${orderId.startsWith(REHEARSAL_FILL_PREFIX) ? orderId : rehearsalFillId(orderId)}/fill-${n}`;
}
