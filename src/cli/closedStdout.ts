/**
 * A reader that stops early (`jupbot audit pnl | head -4`) closes the pipe: the next write fails with
 * EPIPE, reported as an `error` event on stdout, and an `error` event nothing listens to crashes the
 * process with a stack trace. The reader took what it wanted, so a closed stdout ends the command
 * quietly instead: what is still written is dropped, a long-running command (`run`, `sim`) is asked
 * to stop as a signal asks it (cleanly, its journal intact), and the exit code is 0.
 */
import { ExitCode } from '../exitCodes.js';

export interface OutputStream {
  write(text: string): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface GuardedStdout {
  /** Writes to the stream while a reader is there; drops the text after. */
  readonly write: (text: string) => void;
  /** Aborts when the reader has gone. */
  readonly closed: AbortSignal;
  /** The process's exit code for a command that ended with `code`: 0 once the reader has gone. */
  readonly exitCode: (code: ExitCode) => ExitCode;
}

export function guardStdout(stream: OutputStream): GuardedStdout {
  const closed = new AbortController();
  stream.on('error', (error) => {
    // Anything else (a full disk behind a redirect) is a real failure: it crashes as before. No write
    // follows the first EPIPE (they are dropped), so the stream never reports itself destroyed.
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
    if (!closed.signal.aborted) closed.abort(new Error('stdout closed by its reader'));
  });
  return {
    write: (text) => {
      if (!closed.signal.aborted) stream.write(text);
    },
    closed: closed.signal,
    exitCode: (code) => (closed.signal.aborted ? ExitCode.Ok : code),
  };
}
