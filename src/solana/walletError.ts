import type { CodeOf } from '../errorCatalogue.js';
import { JupbotError } from '../errors.js';

/** Codes of {@link WalletError}: the `wallet` area of the error catalogue (errorCatalogue.ts). */
export type WalletErrorCode = CodeOf<'wallet'>;

/** A key that could not be loaded or used. Messages name the file and the fix, never the key. */
export class WalletError extends JupbotError {
  override name = 'WalletError';
  declare readonly code: WalletErrorCode;

  constructor(code: WalletErrorCode, message: string, details: Record<string, unknown>) {
    super(code, message, { details });
  }
}
