import type { IntentRow } from '../../store/journal.js';

/**
 * What the executor reports, for metrics, notifications and tests that await instead of sleeping.
 * Every payload carries the journal row as committed when the event fired.
 */
export interface ExecutorEvents {
  planned: { readonly row: IntentRow };
  signed: { readonly row: IntentRow };
  sent: { readonly row: IntentRow; readonly mode: 'first' | 'resend' };
  confirmed: { readonly row: IntentRow; readonly fills: number };
  failed: { readonly row: IntentRow; readonly code: string };
  /** The attempt's blockhash provably died unlanded; a new attempt may follow. */
  expired: { readonly row: IntentRow };
  /** A transient problem: the intent stays where it is and is tried again later. */
  error: { readonly row: IntentRow; readonly code: string; readonly message: string };
}
