import type { Clock } from '../clock.js';
import type { ExitCode } from '../exitCodes.js';

/**
 * What a command may touch of the outside world. Commands receive it instead of reaching for
 * `process`, so tests run them in-process and read exactly what they printed.
 */
export interface CliContext {
  /** Writes text as it is (no newline added). */
  readonly stdout: (text: string) => void;
  /** Writes text as it is (no newline added). */
  readonly stderr: (text: string) => void;
  /** Whether stdout is a terminal (a person reading): decides pretty or JSON logs when `log.format` is `auto`. */
  readonly stdoutIsTerminal?: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths on the command line are resolved against. */
  readonly cwd: string;
  readonly clock: Clock;
  /** Reads standard input to its end (tests give it; the real CLI reads process.stdin). */
  readonly stdin?: () => Promise<string>;
  /**
   * Aborts when the operator asks the process to stop (SIGINT, SIGTERM). Long-running commands
   * (`run`, `sim`) finish their work in hand and return; absent, they run until stopped otherwise.
   */
  readonly shutdown?: AbortSignal;
  /**
   * Subscribes to errors nothing else caught (the binary: `uncaughtException`, `unhandledRejection`);
   * returns the unsubscribe. `run` stops the daemon cleanly on one and exits 75.
   */
  readonly onFatal?: (listener: (error: unknown) => void) => () => void;
  /**
   * How live-mode commands reach Jupiter and the Solana node (`run`, `live check`, the prediction id
   * checks): tests route it to the simulator and count what it saw. @default globalThis.fetch
   */
  readonly network?: typeof globalThis.fetch;
}

/**
 * Thrown by a command to end with a given exit code after it has printed what it had to say.
 * `message`, when given, is printed to stderr as the one-line reason.
 */
export class CliExit extends Error {
  override name = 'CliExit';
  constructor(
    readonly exitCode: ExitCode,
    message = '',
  ) {
    super(message);
  }
}
