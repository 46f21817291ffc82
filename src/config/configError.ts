import { JupbotError } from '../errors.js';
import type { Diagnostic } from './diagnostics.js';
import { formatDiagnostics, sortDiagnostics } from './diagnostics.js';

/**
 * A config file with problems. The message is every problem, one `file:line:col: message` line
 * each, in reading order; `diagnostics` holds the same as data. Neither ever holds a secret.
 */
export class ConfigError extends JupbotError {
  override name = 'ConfigError';
  readonly diagnostics: readonly Diagnostic[];

  constructor(diagnostics: readonly Diagnostic[]) {
    const sorted = sortDiagnostics(diagnostics);
    super('CONFIG_INVALID', formatDiagnostics(sorted), {
      details: { files: [...new Set(sorted.map((d) => d.file))], problems: sorted.length },
    });
    this.diagnostics = Object.freeze(sorted);
  }
}

/** The config file could not be read: `code` is CONFIG_NOT_FOUND or CONFIG_UNREADABLE. */
export class ConfigFileError extends JupbotError {
  override name = 'ConfigFileError';

  constructor(
    code: 'CONFIG_NOT_FOUND' | 'CONFIG_UNREADABLE',
    message: string,
    readonly file: string,
    cause?: unknown,
  ) {
    super(code, message, { cause, details: { file } });
  }
}
