import { JupbotError } from '../errors.js';

/** Codes of {@link WalletError}; stable, listed in docs/security.md. */
export type WalletErrorCode =
  | 'WALLET_FILE_UNREADABLE'
  | 'WALLET_FILE_INSECURE'
  | 'WALLET_FILE_EXISTS'
  | 'WALLET_KEY_INVALID'
  | 'WALLET_NOT_A_SIGNER';

/** A key that could not be loaded or used. Messages name the file and the fix, never the key. */
export class WalletError extends JupbotError {
  override name = 'WalletError';
  declare readonly code: WalletErrorCode;

  constructor(code: WalletErrorCode, message: string, details: Record<string, unknown>) {
    super(code, message, { details });
  }
}
