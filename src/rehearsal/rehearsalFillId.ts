/**
 * The id a rehearsed fill is recorded under, in place of the transaction signature a live fill has:
 * one per intent (a fill is unique by id and index), and never a base58 signature, so no audit of a
 * rehearsal database can mistake one of its fills for a transaction on chain.
 */
export const REHEARSAL_FILL_PREFIX = 'rehearsal-';

export function rehearsalFillId(intentId: string): string {
  return `${REHEARSAL_FILL_PREFIX}${intentId}`;
}
