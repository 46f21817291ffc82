/**
 * Our own transactions take turns with our own checks. An executor drives one wallet, from two
 * loops at once (the decide loop and reconciliation): without turns, one intent's submission could
 * land (a swap's /execute, a deposit Jupiter lands at create, a withdrawal at confirm-cancel) while
 * another intent's guard reads our accounts and simulates, and its SOL would show in the other's
 * effects. The effects check holds against that anyway (solana/consistentSimulation.ts), at the
 * price of simulating again; taking turns means it never has to for our own.
 *
 * A turn is first come, first served: a caller waits for those before it, never for one after it.
 */
export interface WalletTurn {
  /** Runs `fn` when every earlier turn has ended; the turn ends when `fn` settles. */
  run<T>(fn: () => Promise<T> | T): Promise<T>;
}

export function createWalletTurn(): WalletTurn {
  let last: Promise<unknown> = Promise.resolve();
  return {
    run<T>(fn: () => Promise<T> | T): Promise<T> {
      const mine = last.then(fn);
      // The next turn starts when this one settles, however it ends.
      last = mine.then(
        () => undefined,
        () => undefined,
      );
      return mine;
    },
  };
}
