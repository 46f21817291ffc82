import type { CodeOf } from '../errorCatalogue.js';
import { JupbotError } from '../errors.js';

/** A rehearsal that cannot open its ledger: the message names the config key and why. */
export class RehearsalError extends JupbotError {
  override name = 'RehearsalError';
  declare readonly code: CodeOf<'config'>;
  constructor(code: CodeOf<'config'>, message: string) {
    super(code, message);
  }
}
