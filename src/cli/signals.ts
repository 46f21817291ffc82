/**
 * SIGINT/SIGTERM for the `jupbot` binary. The first signal asks for a clean stop (the returned
 * signal aborts: no new intent, the ones in flight finish or stay journaled, the database closes);
 * a second one while stopping forces the exit with 130, for an operator whose stop is stuck on a
 * hung call. Nothing is lost by forcing: every intent is journaled before it acts, and the next
 * start reconciles it.
 */
export interface SignalTarget {
  on(event: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown;
  exit(code: number): never;
  readonly stderr: { write(text: string): unknown };
}

export const FORCED_EXIT_CODE = 130;

export function shutdownOnSignals(target: SignalTarget): AbortSignal {
  const shutdown = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (shutdown.signal.aborted) {
      target.stderr.write(`jupbot: second ${signal}, exiting now\n`);
      target.exit(FORCED_EXIT_CODE);
    }
    shutdown.abort(new Error(`received ${signal}`));
  };
  target.on('SIGINT', onSignal);
  target.on('SIGTERM', onSignal);
  return shutdown.signal;
}
